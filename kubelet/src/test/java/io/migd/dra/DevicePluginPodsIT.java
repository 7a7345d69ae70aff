package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.claims.AllocatedClaim;
import io.migd.claims.CdiDevice;
import io.migd.claims.ClaimCdi;
import io.migd.claims.ClaimEvents;
import io.migd.claims.ClaimNode;
import io.migd.claims.ClaimPreparer;
import io.migd.claims.ClaimSettings;
import io.migd.claims.ClaimSource;
import io.migd.claims.PodSource;
import io.migd.claims.PrepareAnswer;
import io.migd.claims.RecoveryFinding;
import io.migd.devices.AllocationGrace;
import io.migd.devices.KubeletUsage;
import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.kubelet.FakePodResources;
import io.migd.kubelet.PodResourcesClient;
import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import io.migd.layout.Usage;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.ownership.ClaimKey;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.profiles.GpuModelCatalog;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node switched to DRA mode without draining (issue 29): a MIG slice the device plugin gave a pod
 * that runs no process at the moment is listed by the kubelet's PodResources (a real server on a
 * unix socket) under {@code nvidia.com/mig-3g.20gb}. No prepare takes or destroys it, and the
 * restart sweep of its dynamic GPU keeps it, naming the pod.
 */
class DevicePluginPodsIT {
  private static final String DRIVER = "gpu.nvidia.com";
  private static final String POOL = "node-a";
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private Nvml nvml;
  private String podsMig;
  private ClaimPreparer preparer;

  @BeforeEach
  void start() throws Exception {
    var sim = SimulatedNvml.extract(dir.resolve("lib"));
    sim.init("A100-SXM4-40GB");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    open.add(nvml);
    var device = nvml.deviceByIndex(0);
    nvml.setMigMode(device, true);
    var gi = nvml.createGpuInstance(device, 9, new InstancePlacement(4, 4));
    var ciProfile =
        nvml.computeInstanceProfiles(gi).stream()
            .filter(p -> p.sliceCount() == 3)
            .findFirst()
            .orElseThrow();
    nvml.createComputeInstance(gi, ciProfile.id(), new InstancePlacement(0, 3));
    podsMig =
        new NodeObserver(nvml, CATALOG)
            .observe(GPU0)
            .gpuInstances()
            .getFirst()
            .computeInstances()
            .getFirst()
            .uuid();
    Path socket = dir.resolve("pod-resources/kubelet.sock");
    Files.createDirectories(socket.getParent());
    var kubelet = FakePodResources.start(socket);
    open.add(kubelet);
    kubelet.answer(
        FakePodResources.onePod("ml", "legacy", "main", "nvidia.com/mig-3g.20gb", podsMig));
    var client = new PodResourcesClient(socket);
    open.add(client);
    var clock = Clock.systemUTC();
    var pods =
        new KubeletUsage(
            observed -> Usage.NONE,
            client,
            new AllocationGrace(clock),
            Duration.ZERO,
            false,
            clock);
    Files.writeString(dir.resolve("boot_id"), "boot-1\n");
    String uuid = nvml.uuid(device);
    var pool =
        new PoolContent(
            DRIVER,
            POOL,
            List.of(
                new PoolSlice(
                    "001-gpu.nvidia.com-node-a",
                    new PoolSlice.Devices(
                        GPU0,
                        List.of(
                            placement("gpu-0-mig-3g20gb-9-4", uuid, 4),
                            placement("gpu-0-mig-1g5gb-19-5", uuid, 5))))));
    preparer =
        new ClaimPreparer(
            claims(),
            new ClaimNode(
                nvml,
                CATALOG,
                new Executor(nvml, ProgressListener.NONE),
                pods,
                () -> pool,
                g -> true,
                g -> true),
            noCdi(),
            new ClaimSettings(
                DRIVER, POOL, dir.resolve("state"), dir.resolve("boot_id"), Duration.ZERO),
            ClaimEvents.NONE,
            PodSource.NONE);
    open.add(preparer);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  @Test
  void aPrepareOfItsPlacementOrAnOverlappingOneFailsNamingThePodAndLeavesTheSlice() {
    for (String device : List.of("gpu-0-mig-3g20gb-9-4", "gpu-0-mig-1g5gb-19-5")) {
      var answer = preparer.prepare(List.of(new ClaimKey("u-" + device, "ns", device))).getFirst();

      assertThat(answer).isInstanceOf(PrepareAnswer.Failed.class);
      assertThat(((PrepareAnswer.Failed) answer).error())
          .contains("pod ml/legacy (container main)");
    }
    assertThat(migUuids()).containsExactly(podsMig);
  }

  @Test
  void theRestartSweepOfItsDynamicGpuKeepsItNamingThePod() {
    List<RecoveryFinding> found = preparer.recover(Set.of(GPU0));

    assertThat(found)
        .singleElement()
        .isInstanceOfSatisfying(
            RecoveryFinding.KeptInUse.class,
            kept -> assertThat(kept.holders()).contains("pod ml/legacy (container main)"));
    assertThat(migUuids()).containsExactly(podsMig);
  }

  private List<String> migUuids() {
    return new NodeObserver(nvml, CATALOG)
        .observe(GPU0).gpuInstances().stream()
            .flatMap(gi -> gi.computeInstances().stream())
            .map(ci -> ci.uuid())
            .toList();
  }

  private static PoolDevice placement(String name, String gpuUuid, int start) {
    boolean big = name.contains("3g20gb");
    return new PoolDevice(
        name,
        new TreeMap<>(),
        new TreeMap<>(),
        List.of(),
        List.of(),
        new DeviceOrigin.DynamicPlacement(
            GPU0, gpuUuid, big ? "3g.20gb" : "1g.5gb", big ? 9 : 19, start, big ? 4 : 1));
  }

  /** Every claim allocated the device its name is. */
  private static ClaimSource claims() {
    return new ClaimSource() {
      @Override
      public Optional<AllocatedClaim> get(String namespace, String name) {
        return Optional.of(
            new AllocatedClaim(
                "u-" + name,
                namespace,
                name,
                true,
                List.of(new AllocatedClaim.Result("gpu", DRIVER, POOL, name, false)),
                List.of(),
                List.of()));
      }

      @Override
      public List<AllocatedClaim> listAllocatedToPool() {
        return List.of();
      }
    };
  }

  private static ClaimCdi noCdi() {
    return new ClaimCdi() {
      @Override
      public List<String> write(String claimUid, List<CdiDevice> devices) {
        return List.of();
      }

      @Override
      public void remove(String claimUid) {}
    };
  }
}
