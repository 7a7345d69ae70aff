package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimedDevice;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Decides for a dynamic GPU (DRA mode, DESIGN section 12): the reconcile loop never creates or
 * destroys its instances, prepare and unprepare do. The loop only enables MIG on a GPU whose mode
 * change needs a reset ({@link io.migd.layout.MigModeChange}: Ampere, unknown, pass-through;
 * section 2's reset path, before the GPU's MIG devices are published); on Hopper and later the MIG
 * mode follows the claims and the loop leaves it alone. The GPU is in sync when NVML shows exactly
 * its prepared claims' instances, plus idle ones kept for reuse.
 */
public final class DynamicPlanner {
  private DynamicPlanner() {}

  /**
   * The decision for one dynamic GPU.
   *
   * @param desired the GPU's dynamic target
   * @param observed what it looks like now
   * @param usage which slices are in use, and by whom (prepared claims included)
   * @param model the GPU's model
   * @param claimed the devices prepared claims own on this GPU
   * @return {@link Decision.InSync}; a plan that enables MIG (Ampere); {@link Decision.Blocked}
   *     when something holds the GPU or an instance no claim owns, or a claim's instance is gone;
   *     {@link Decision.Infeasible} for a GPU without MIG
   */
  public static Decision decide(
      GpuTarget desired,
      ObservedGpu observed,
      Usage usage,
      GpuModel model,
      List<ClaimedDevice> claimed) {
    Objects.requireNonNull(observed, "observed");
    Objects.requireNonNull(usage, "usage");
    if (!desired.dynamic()) {
      throw new IllegalArgumentException("GPU " + desired.gpu() + " is not dynamic");
    }
    GpuIndex gpu = desired.gpu();
    if (!observed.migCapable() || !model.migCapable()) {
      return new Decision.Infeasible(
          TargetCheck.prefix(gpu, model) + "dynamic needs a GPU with MIG; this one has none");
    }
    if (!observed.migModeChangesAtOnce()) {
      boolean current = observed.migMode().current();
      if (!current) {
        List<String> holders = distinct(usage.holdersOf(gpu));
        if (!holders.isEmpty()) {
          return new Decision.Blocked(
              holders,
              TargetCheck.prefix(gpu, model)
                  + "a dynamic Ampere GPU needs MIG enabled before its devices are published,"
                  + " which needs the GPU free, but it is in use by "
                  + String.join(", ", holders));
        }
      }
      if (!current || !observed.migMode().pending()) {
        // Ampere: the loop enables MIG (a pending disable is cancelled the same way)
        return new Decision.Change(new Plan(List.of(new Step.EnableMig(gpu))));
      }
    }
    var holders = new LinkedHashSet<String>();
    var reasons = new ArrayList<String>();
    for (LiveGpuInstance gi : observed.gpuInstances()) {
      if (claimed.stream().anyMatch(d -> d.device().owns(gi))) {
        continue;
      }
      List<String> users = distinct(usage.holdersOf(gpu, gi.id()));
      if (!users.isEmpty()) {
        holders.addAll(users);
        reasons.add(
            "GPU instance "
                + gi.id()
                + " ("
                + gi.profile()
                + " at "
                + gi.placement().start()
                + ") is used by "
                + String.join(", ", users)
                + " and no claim owns it; placements overlapping it are not published while it"
                + " exists");
      }
    }
    for (ClaimedDevice claim : claimed) {
      if (claim.completed()
          && claim.device() instanceof ClaimDevice.Made(var name, var _, var _, var mig)
          && observed.gpuInstances().stream().noneMatch(claim.device()::owns)) {
        String holder = claim.key().holder();
        holders.add(holder);
        reasons.add(
            holder
                + " owns GPU instance "
                + mig.gpuInstanceId()
                + " ("
                + name
                + "), which NVML does not show; the claim check unprepares the claim");
      }
    }
    if (!reasons.isEmpty()) {
      return new Decision.Blocked(
          List.copyOf(holders), TargetCheck.prefix(gpu, model) + String.join("; ", reasons));
    }
    return new Decision.InSync();
  }

  private static List<String> distinct(List<String> holders) {
    return List.copyOf(new LinkedHashSet<>(holders));
  }
}
