package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.reconcile.UsageSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Usage as the planner needs it on a kubelet node: NVML processes, the pods PodResources lists, and
 * devices {@code Allocate} handed out within the grace period. When PodResources cannot be read, it
 * says so once and decides from processes, or, with {@code requirePodResources}, holds everything
 * advertised so nothing a pod may use is destroyed.
 */
public final class KubeletUsage implements UsageSource {
  private static final Logger log = LoggerFactory.getLogger(KubeletUsage.class);

  static final String UNREACHABLE_HOLDER =
      "PodResources unreachable and migd.kubelet.require-pod-resources is set";

  private final UsageSource processes;
  private final PodAllocations pods;
  private final AllocationGrace grace;
  private final Duration graceTime;
  private final boolean requirePodResources;
  private final Clock clock;
  private final AtomicBoolean unreachable = new AtomicBoolean();
  private volatile List<PodDevice> lastPods = List.of();

  /** Usage from {@code processes}, {@code pods} and the allocations {@code grace} remembers. */
  public KubeletUsage(
      UsageSource processes,
      PodAllocations pods,
      AllocationGrace grace,
      Duration graceTime,
      boolean requirePodResources,
      Clock clock) {
    this.processes = processes;
    this.pods = pods;
    this.grace = grace;
    this.graceTime = graceTime;
    this.requirePodResources = requirePodResources;
    this.clock = clock;
  }

  @Override
  public Usage usage(ObservedNode observed) {
    Usage usage = processes.usage(observed);
    Map<String, Instant> recent = grace.within(graceTime);
    Instant now = clock.instant();
    List<PodDevice> listed;
    try {
      listed = pods.list();
      lastPods = List.copyOf(listed);
      if (unreachable.compareAndSet(true, false)) {
        log.info("PodResources answers again: deciding from pods and NVML processes");
      }
    } catch (PodAllocations.Unavailable e) {
      if (unreachable.compareAndSet(false, true)) {
        if (requirePodResources) {
          log.warn(
              "cannot read PodResources: {}; migd.kubelet.require-pod-resources is set, so"
                  + " nothing advertised is destroyed until it answers",
              e.getMessage());
        } else {
          log.warn(
              "cannot read PodResources: {}; deciding from NVML processes only", e.getMessage());
        }
      }
      listed = List.of();
      if (requirePodResources) {
        usage = usage.merge(everythingAdvertised(observed));
      }
    }
    return usage.merge(PodUsage.of(observed, listed, recent, now));
  }

  /** The pods PodResources listed when it last answered; empty before it ever did. */
  public List<PodDevice> lastPods() {
    return lastPods;
  }

  /** Every compute instance on GPUs in MIG mode, and every other GPU as a whole. */
  private static Usage everythingAdvertised(ObservedNode observed) {
    var holders = new HashMap<Usage.SliceKey, List<String>>();
    for (ObservedGpu gpu : observed.gpus()) {
      GpuIndex index = gpu.index();
      if (!gpu.migMode().current()) {
        holders.put(
            new Usage.SliceKey(index, Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES),
            List.of(UNREACHABLE_HOLDER));
        continue;
      }
      for (LiveGpuInstance gi : gpu.gpuInstances()) {
        for (LiveComputeInstance ci : gi.computeInstances()) {
          holders.put(new Usage.SliceKey(index, gi.id(), ci.id()), List.of(UNREACHABLE_HOLDER));
        }
      }
    }
    return new Usage(holders);
  }
}
