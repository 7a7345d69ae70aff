package io.migd.claims;

import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.ProcessInfo;
import io.migd.ownership.ClaimedDevice;
import io.migd.reconcile.UsageSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Who holds a GPU's instances, in the words a claim's error uses: another claim that owns one, or
 * the processes NVML shows in it ({@code process 4242 (trainer)}), or a pod the kubelet's
 * PodResources lists under a device-plugin resource (a node switched to DRA without draining). An
 * instance any of them holds is never destroyed (the keep-busy rule of DESIGN section 12).
 */
final class InstanceHolders {
  private final Nvml nvml;
  private final UsageSource pods;

  /**
   * {@code pods}: the device-plugin pods' usage (PodResources), {@code observed -> NONE} if none.
   */
  InstanceHolders(Nvml nvml, UsageSource pods) {
    this.nvml = nvml;
    this.pods = pods;
  }

  /** Refuses an instance another claim owns or a process uses, naming which. */
  void refuseOwnedOrBusy(
      String name, ObservedGpu seen, LiveGpuInstance gi, List<ClaimedDevice> others) {
    for (ClaimedDevice other : others) {
      if (other.device().owns(gi)) {
        throw new ClaimFailure(
            "device "
                + name
                + ": "
                + describe(gi)
                + " on GPU "
                + seen.index()
                + " is prepared for claim "
                + other.key().label());
      }
    }
    String busy = of(seen, gi.id());
    if (!busy.isEmpty()) {
      throw new ClaimFailure(
          "device "
              + name
              + ": "
              + describe(gi)
              + " on GPU "
              + seen.index()
              + " is in use by"
              + busy);
    }
  }

  /** {@code ": in use by process ..."} for every process on the GPU; empty when none. */
  String onGpu(ObservedGpu seen) {
    String all = processes(seen, p -> true);
    return all.isEmpty() ? "" : ": in use by" + all;
  }

  /**
   * {@code " process 1 (name), pod ns/p (container c)"} for the processes in one GPU instance and
   * the device-plugin pods PodResources lists on it; empty when none.
   */
  String of(ObservedGpu seen, int giId) {
    var holders = new ArrayList<String>();
    String processes = processes(seen, p -> p.gpuInstanceId() == giId);
    if (!processes.isEmpty()) {
      holders.add(processes);
    }
    pods.usage(new ObservedNode(List.of(seen))).holdersOf(seen.index(), giId).stream()
        .distinct()
        .forEach(pod -> holders.add(" " + pod));
    return String.join(",", holders);
  }

  static String describe(LiveGpuInstance gi) {
    return "GPU instance "
        + gi.id()
        + " ("
        + gi.profile()
        + " at "
        + gi.placement().start()
        + ":"
        + gi.placement().size()
        + ")";
  }

  private String processes(ObservedGpu seen, Predicate<ProcessInfo> which) {
    return seen.processes().stream()
        .filter(which)
        .map(p -> " process " + p.pid() + " (" + nameOf(p.pid()) + ")")
        .collect(Collectors.joining(","));
  }

  private String nameOf(int pid) {
    try {
      return nvml.processName(pid);
    } catch (NvmlException e) {
      return "pid " + pid;
    }
  }
}
