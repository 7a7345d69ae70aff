package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.CiProfile;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Compute-instance placements come from NVML once a GPU instance of the profile exists, asked once
 * per model and profile, and follow the slice rule before that or when NVML cannot answer.
 */
class ModelSourcePlacementsIT {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  private static final String PLACEMENTS = "nvmlGpuInstanceGetComputeInstancePossiblePlacements";
  private static final ProfileName THREE_G = ProfileName.parse("3g.20gb");

  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private SimulatedNvml sim;
  private Nvml nvml;
  private NodeObserver observer;
  private ModelSource models;

  @BeforeEach
  void start() {
    sim = SimulatedNvml.extract(Path.of("target", "sim-nodes").toAbsolutePath());
    sim.init("A100-SXM4-40GB,A100-SXM4-40GB");
    NvmlCallObserver counter =
        (function, result) ->
            calls.computeIfAbsent(function, f -> new AtomicInteger()).incrementAndGet();
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), counter);
    observer = new NodeObserver(nvml, CATALOG);
    models = new ModelSource(nvml, CATALOG);
    for (int i = 0; i < 2; i++) {
      nvml.setMigMode(nvml.deviceByIndex(i), true);
    }
  }

  @AfterEach
  void stop() {
    nvml.close();
    sim.require("faults", "");
  }

  @Test
  void learnsThePlacementsNvmlListsOncePerModelAndProfile() {
    var device = nvml.deviceByIndex(0);
    int threeG =
        CATALOG.byKey("A100-SXM4-40GB").orElseThrow().giProfile(THREE_G).orElseThrow().id();
    var gi = nvml.createGpuInstance(device, threeG, new InstancePlacement(4, 4));
    var fromNvml =
        nvml.computeInstanceProfiles(gi).stream()
            .collect(
                Collectors.toMap(
                    p -> p.id(),
                    p ->
                        nvml.computeInstancePossiblePlacements(gi, p.id()).stream()
                            .map(at -> new Placement(at.start(), at.size()))
                            .toList()));
    nvml.createGpuInstance(nvml.deviceByIndex(1), threeG, new InstancePlacement(0, 4));
    calls.clear();

    var node = observer.observe();
    GpuModel first = models.modelOf(node.gpus().get(0)).orElseThrow();
    int asked = calls.get(PLACEMENTS).get();
    GpuModel second = models.modelOf(node.gpus().get(1)).orElseThrow();
    models.modelOf(node.gpus().get(0)).orElseThrow();

    GiProfile learned = first.giProfile(THREE_G).orElseThrow();
    assertThat(learned.ciProfiles())
        .allSatisfy(ci -> assertThat(ci.placements()).isEqualTo(fromNvml.get(ci.id())));
    assertThat(second).isEqualTo(first);
    assertThat(asked).isPositive();
    assertThat(calls.get(PLACEMENTS))
        .as("the second GPU of the model and the second look ask NVML nothing more")
        .hasValue(asked);
  }

  @Test
  void keepsTheSliceRuleWhereNvmlDoesNotAnswer() {
    sim.require("faults", PLACEMENTS + "=NVML_ERROR_NOT_SUPPORTED");
    var device = nvml.deviceByIndex(0);
    int threeG =
        CATALOG.byKey("A100-SXM4-40GB").orElseThrow().giProfile(THREE_G).orElseThrow().id();
    nvml.createGpuInstance(device, threeG, new InstancePlacement(4, 4));

    GpuModel model = models.modelOf(observer.observe().gpus().get(0)).orElseThrow();
    int asked = calls.get(PLACEMENTS).get();
    models.modelOf(observer.observe().gpus().get(0)).orElseThrow();

    assertThat(model.giProfile(THREE_G).orElseThrow().ciProfiles())
        .allSatisfy(
            ci -> assertThat(ci.placements()).isEqualTo(CiProfile.slicePlacements(ci.slices(), 3)));
    assertThat(asked).isPositive();
    assertThat(calls.get(PLACEMENTS))
        .as("NOT_SUPPORTED is remembered, not asked again")
        .hasValue(asked);
  }
}
