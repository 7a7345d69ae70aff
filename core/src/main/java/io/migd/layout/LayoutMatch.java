package io.migd.layout;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a GPU looks as its target says, the way {@code migd assert} and mig-parted's assert read
 * it: the current MIG mode, and the same GPU instances with the same compute-instance splits
 * (placements do not matter).
 */
public final class LayoutMatch {
  private LayoutMatch() {}

  /** Whether {@code gpu} matches {@code target}. */
  public static boolean matches(GpuTarget target, ObservedGpu gpu) {
    if (target.dynamic()) {
      // prepared claims make and remove a dynamic GPU's instances (and on Hopper its MIG mode)
      return true;
    }
    if (!gpu.migCapable()) {
      return !target.migEnabled() || target.gpuInstances().isEmpty();
    }
    if (gpu.migMode().current() != target.migEnabled()) {
      return false;
    }
    if (gpu.gpuInstances().stream().anyMatch(gi -> gi.computeInstances().isEmpty())) {
      return false;
    }
    return sorted(specsOf(gpu)).equals(sorted(target.gpuInstances()));
  }

  /** What exists, as specs; GPU instances without compute instances are left out. */
  public static List<GpuInstanceSpec> specsOf(ObservedGpu gpu) {
    var specs = new ArrayList<GpuInstanceSpec>();
    for (LiveGpuInstance gi : gpu.gpuInstances()) {
      if (gi.computeInstances().isEmpty()) {
        continue;
      }
      specs.add(
          new GpuInstanceSpec(
              gi.profile(),
              gi.computeInstances().stream().map(ci -> ci.placement().size()).toList()));
    }
    return specs;
  }

  private static List<String> sorted(List<GpuInstanceSpec> specs) {
    return specs.stream().map(GpuInstanceSpec::toString).sorted().toList();
  }
}
