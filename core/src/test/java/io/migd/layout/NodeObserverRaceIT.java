package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.nvml.ComputeInstanceHandle;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.ProfileName;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A GPU read while a plan changes it: the REST API's check, the snapshot and a prepare read a GPU
 * without waiting for the plan running on it, so an instance the read has just listed can be
 * destroyed before the read asks for its details. A chaos run saw {@code PUT /api/v1/layout} answer
 * 503 "GPU 5 could not be observed" for exactly this. The read starts again and sees the GPU as the
 * change left it; a GPU that fails every read still fails.
 */
class NodeObserverRaceIT {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  private static final String LISTED = "nvmlGpuInstanceGetInfo";

  /**
   * Which calls of {@link #LISTED} (counted from the test's read) destroy the 3g instance right
   * after they returned. The read lists profiles in NVML's order, 1g.5gb before 3g.20gb, so the
   * second is the 3g instance's: its details asked for next are the stale handle's.
   */
  private volatile IntPredicate destroyAfter = n -> false;

  /** Whether the next MIG-mode read is followed by every instance destroyed and MIG off. */
  private volatile boolean migOffAfterModeRead;

  private final AtomicInteger listed = new AtomicInteger();
  private SimulatedNvml sim;
  private Nvml nvml;
  private GpuInstanceHandle oneG;
  private GpuInstanceHandle threeG;
  private ComputeInstanceHandle threeGCompute;

  @BeforeEach
  void start() {
    sim = SimulatedNvml.extract(Path.of("target", "sim-race").toAbsolutePath());
    sim.init("A100-SXM4-40GB");
    NvmlCallObserver plan =
        (function, result) -> {
          if (function.equals("nvmlDeviceGetMigMode") && migOffAfterModeRead) {
            migOffAfterModeRead = false;
            for (var gi : List.of(oneG, threeG)) {
              for (var ci : nvml.computeInstances(gi, gi == oneG ? 0 : 2)) {
                nvml.destroyComputeInstance(ci);
              }
              nvml.destroyGpuInstance(gi);
            }
            nvml.setMigMode(nvml.deviceByIndex(0), false);
          }
          if (function.equals(LISTED) && destroyAfter.test(listed.incrementAndGet())) {
            destroyAfter = n -> false;
            // the plan's thread, as it were: the instance goes between the read's two calls
            nvml.destroyComputeInstance(threeGCompute);
            nvml.destroyGpuInstance(threeG);
          }
        };
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), plan);
    var device = nvml.deviceByIndex(0);
    nvml.setMigMode(device, true);
    var a100 = CATALOG.byKey("A100-SXM4-40GB").orElseThrow();
    int oneGId = a100.giProfile(ProfileName.parse("1g.5gb")).orElseThrow().id();
    int threeGId = a100.giProfile(ProfileName.parse("3g.20gb")).orElseThrow().id();
    oneG = nvml.createGpuInstance(device, oneGId, new InstancePlacement(0, 1));
    nvml.createComputeInstance(oneG, 0, new InstancePlacement(0, 1));
    threeG = nvml.createGpuInstance(device, threeGId, new InstancePlacement(4, 4));
    threeGCompute = nvml.createComputeInstance(threeG, 2, new InstancePlacement(0, 3));
  }

  @AfterEach
  void stop() {
    nvml.close();
    sim.require("faults", "");
  }

  @Test
  void aGpuInstanceDestroyedWhileTheGpuIsReadIsReadAgainNotAnError() {
    var observer = new NodeObserver(nvml, CATALOG);
    listed.set(0);
    destroyAfter = n -> n == 2;

    ObservedGpu gpu = observer.observe(new GpuIndex(0));

    assertThat(gpu.gpuInstances())
        .as("the GPU as the change left it: the 1g instance only")
        .extracting(g -> g.profile().toString())
        .containsExactly("1g.5gb");
    assertThat(gpu.gpuInstances().getFirst().computeInstances()).hasSize(1);
  }

  @Test
  void theSameRaceInTheWholeNodesReadIsReadAgainToo() {
    var observer = new NodeObserver(nvml, CATALOG);
    listed.set(0);
    destroyAfter = n -> n == 2;

    assertThat(observer.observe().gpus().getFirst().gpuInstances()).hasSize(1);
  }

  /**
   * NVML answers a destroyed GPU instance's profile questions as if it had none; the observer must
   * not keep "none" for the profile, or every later instance of it on the GPU would be read without
   * its compute instances.
   */
  @Test
  void aLaterInstanceOfTheRacedProfileIsReadWithItsComputeInstance() {
    var observer = new NodeObserver(nvml, CATALOG);
    listed.set(0);
    destroyAfter = n -> n == 2;
    observer.observe(new GpuIndex(0));

    var a100 = CATALOG.byKey("A100-SXM4-40GB").orElseThrow();
    var again =
        nvml.createGpuInstance(
            nvml.deviceByIndex(0),
            a100.giProfile(ProfileName.parse("3g.20gb")).orElseThrow().id(),
            new InstancePlacement(4, 4));
    nvml.createComputeInstance(again, 2, new InstancePlacement(0, 3));

    var threeG =
        observer.observe(new GpuIndex(0)).gpuInstances().stream()
            .filter(g -> g.profile().toString().equals("3g.20gb"))
            .findFirst()
            .orElseThrow();
    assertThat(threeG.computeInstances()).as("its compute instance").hasSize(1);
  }

  /**
   * MIG turned off between the read of the mode and the read of the instances (a reshape to a whole
   * GPU): the read starts again and sees MIG off; and the GPU's profiles are not kept as "none", or
   * once MIG is on again its instances would never be seen.
   */
  @Test
  void migTurnedOffWhileTheGpuIsReadIsReadAgainAndLaterInstancesAreSeen() {
    var observer = new NodeObserver(nvml, CATALOG);
    var device = nvml.deviceByIndex(0);
    migOffAfterModeRead = true;

    ObservedGpu off = observer.observe(new GpuIndex(0));
    assertThat(off.migMode().current()).as("read again: MIG is off now").isFalse();
    assertThat(off.gpuInstances()).isEmpty();

    nvml.setMigMode(device, true);
    var a100 = CATALOG.byKey("A100-SXM4-40GB").orElseThrow();
    var gi =
        nvml.createGpuInstance(
            device,
            a100.giProfile(ProfileName.parse("7g.40gb")).orElseThrow().id(),
            new InstancePlacement(0, 8));
    nvml.createComputeInstance(gi, 4, new InstancePlacement(0, 7));
    assertThat(observer.observe(new GpuIndex(0)).gpuInstances())
        .as("the 7g instance made after MIG came back")
        .extracting(g -> g.profile().toString())
        .containsExactly("7g.40gb");
  }

  @Test
  void aGpuWhoseReadFailsEveryTimeStillFailsNamingTheCall() {
    var observer = new NodeObserver(nvml, CATALOG);
    sim.require("faults", "nvmlGpuInstanceGetComputeInstances@0=NVML_ERROR_INVALID_ARGUMENT");

    assertThatThrownBy(() -> observer.observe(new GpuIndex(0)))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> {
              assertThat(e.function()).isEqualTo("nvmlGpuInstanceGetComputeInstances");
              assertThat(e.code()).isEqualTo(NvmlReturn.INVALID_ARGUMENT);
            });
  }
}
