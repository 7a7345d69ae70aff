package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Decision;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Which GPUs reach the planner: a GPU NVML could not observe fails only when the intent may select
 * it, an unselected one is unmanaged, and a GPU an explicit layout names that the node lacks is
 * still decided (after the node's own).
 */
class GpuSelectionTest {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final GpuIndex GPU5 = new GpuIndex(5);

  private static final NvmlException LOST =
      new NvmlException("nvmlDeviceGetMigMode", NvmlReturn.GPU_IS_LOST, "");

  /** GPU 1 lost, nothing else observed. */
  private static ObservedNode gpu1Lost() {
    var unobserved = new TreeMap<GpuIndex, NvmlException>();
    unobserved.put(GPU1, LOST);
    return new ObservedNode(List.of(), unobserved);
  }

  private static Desired layoutOf(GpuIndex gpu) {
    return new Desired(
        Desired.Source.REST,
        new Desired.Intent.Layout(List.of(GpuTarget.mig(gpu, List.of()))),
        3,
        "",
        "",
        Map.of());
  }

  @Test
  void anUnobservedGpuFailsWhenTheIntentMaySelectItAndIsUnmanagedOtherwise() {
    Optional<Decision> named =
        GpuSelection.unplanned(
            Desired.config(Desired.Source.LABEL, "all-1g.10gb", 2),
            GPU1,
            gpu1Lost(),
            new Resolution.Unselected());
    assertThat(named)
        .get()
        .isInstanceOfSatisfying(
            Decision.Failed.class,
            f -> {
              assertThat(f.code()).isEqualTo(NvmlReturn.GPU_IS_LOST);
              assertThat(f.reason()).startsWith("observing GPU 1 failed");
            });

    assertThat(
            GpuSelection.unplanned(layoutOf(GPU1), GPU1, gpu1Lost(), new Resolution.Unselected()))
        .get()
        .isInstanceOf(Decision.Failed.class);
    assertThat(
            GpuSelection.unplanned(layoutOf(GPU0), GPU1, gpu1Lost(), new Resolution.Unselected()))
        .get()
        .isInstanceOf(Decision.Unmanaged.class);
    assertThat(
            GpuSelection.unplanned(Desired.none(), GPU1, gpu1Lost(), new Resolution.Unselected()))
        .get()
        .isInstanceOf(Decision.Unmanaged.class);
  }

  @Test
  void anObservedGpuIsPlannedUnlessTheIntentLeavesItUnselected() {
    var observed = ObservedNode.none();
    assertThat(GpuSelection.unplanned(Desired.none(), GPU0, observed, new Resolution.Unselected()))
        .get()
        .isInstanceOf(Decision.Unmanaged.class);
    assertThat(
            GpuSelection.unplanned(
                layoutOf(GPU0), GPU0, observed, new Resolution.Unreachable("no such model")))
        .isEmpty();
  }

  @Test
  void theNodesGpusComeFirstThenTheOnesOnlyTheIntentNames() {
    var resolutions = new LinkedHashMap<GpuIndex, Resolution>();
    resolutions.put(GPU5, new Resolution.Unreachable("the node has no GPU 5"));
    resolutions.put(GPU1, new Resolution.Unreachable("lost"));

    assertThat(GpuSelection.andResolved(gpu1Lost(), resolutions)).containsExactly(GPU1, GPU5);
    assertThat(GpuSelection.resolutionOf(resolutions, GPU0))
        .isInstanceOf(Resolution.Unselected.class);
  }
}
