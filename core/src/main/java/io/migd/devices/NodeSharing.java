package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.Resolution;
import java.util.HashMap;
import java.util.Map;

/**
 * How the intent shares each GPU of the node: the whole GPU while its MIG mode is off, and the MIG
 * slices of each profile while it is on. A GPU absent here is not shared (the intent does not
 * select it).
 *
 * @param gpus the sharing of each whole GPU, by index
 * @param slices the sharing of the MIG slices of each profile, by GPU index
 */
public record NodeSharing(
    Map<GpuIndex, Sharing> gpus, Map<GpuIndex, Map<ProfileName, Sharing>> slices) {
  /** Nothing shared. */
  public static final NodeSharing NONE = new NodeSharing(Map.of(), Map.of());

  /** Copies the maps. */
  public NodeSharing {
    gpus = Map.copyOf(gpus);
    var copy = new HashMap<GpuIndex, Map<ProfileName, Sharing>>();
    slices.forEach((gpu, byProfile) -> copy.put(gpu, Map.copyOf(byProfile)));
    slices = Map.copyOf(copy);
  }

  /** Whole GPUs time-sliced into these replica counts, no slice shared. */
  public static NodeSharing timeSliced(Map<GpuIndex, Integer> replicas) {
    var gpus = new HashMap<GpuIndex, Sharing>();
    replicas.forEach((gpu, n) -> gpus.put(gpu, new Sharing.TimeSliced(n)));
    return new NodeSharing(gpus, Map.of());
  }

  /**
   * The sharing of each GPU's target, as the reconcile of {@code outcome} resolved it, and of each
   * GPU the intent does not select as NVIDIA's device-plugin config shares it.
   */
  public static NodeSharing of(Outcome outcome) {
    var gpus = new HashMap<GpuIndex, Sharing>();
    var slices = new HashMap<GpuIndex, Map<ProfileName, Sharing>>();
    outcome
        .gpus()
        .forEach(
            (gpu, entry) -> {
              if (entry.resolution() instanceof Resolution.Unselected(var whole, var byProfile)) {
                gpus.put(gpu, whole);
                if (!byProfile.isEmpty()) {
                  slices.put(gpu, byProfile);
                }
              }
            });
    var targets = of(outcome.targets());
    gpus.putAll(targets.gpus());
    slices.putAll(targets.slices());
    return new NodeSharing(gpus, slices);
  }

  /** The sharing the targets ask for. */
  public static NodeSharing of(Map<GpuIndex, GpuTarget> targets) {
    var gpus = new HashMap<GpuIndex, Sharing>();
    var slices = new HashMap<GpuIndex, Map<ProfileName, Sharing>>();
    targets.forEach(
        (gpu, target) -> {
          gpus.put(gpu, target.sharing());
          if (!target.sliceSharing().isEmpty()) {
            slices.put(gpu, target.sliceSharing());
          }
        });
    return new NodeSharing(gpus, slices);
  }

  /** How the whole GPU is shared while its MIG mode is off. */
  public Sharing gpu(GpuIndex gpu) {
    return gpus.getOrDefault(gpu, Device.UNSHARED);
  }

  /** How a MIG slice of this profile on this GPU is shared. */
  public Sharing slice(GpuIndex gpu, ProfileName profile) {
    return slices.getOrDefault(gpu, Map.of()).getOrDefault(profile, Device.UNSHARED);
  }
}
