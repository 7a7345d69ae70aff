package io.migd.devices;

import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SequencedSet;

/**
 * Usage from the kubelet's side: the slices and GPUs that running pods hold (PodResources), and
 * those {@code Allocate} handed out recently to a pod the kubelet does not list yet.
 */
public final class PodUsage {
  private PodUsage() {}

  /**
   * Maps each device ID to what it runs on in {@code observed}: a MIG device's UUID to its compute
   * instance, a GPU's UUID to the whole GPU, a replica to its parent. IDs that match nothing on the
   * node (a slice destroyed since) are ignored.
   */
  public static Usage of(
      ObservedNode observed,
      List<PodDevice> pods,
      Map<String, Instant> recentAllocations,
      Instant now) {
    Map<String, Usage.SliceKey> where = locations(observed);
    var holders = new HashMap<Usage.SliceKey, SequencedSet<String>>();
    var listed = new HashSet<String>();
    for (PodDevice p : pods) {
      listed.add(p.deviceId());
      Usage.SliceKey key = where.get(Device.parentOf(p.deviceId()));
      if (key != null) {
        holders
            .computeIfAbsent(key, k -> new LinkedHashSet<>())
            .add("pod " + p.namespace() + "/" + p.pod() + " (container " + p.container() + ")");
      }
    }
    recentAllocations.forEach(
        (id, at) -> {
          Usage.SliceKey key = where.get(Device.parentOf(id));
          if (key != null && !listed.contains(id)) {
            holders
                .computeIfAbsent(key, k -> new LinkedHashSet<>())
                .add(
                    "a pod not listed by the kubelet yet (device "
                        + id
                        + " allocated "
                        + Duration.between(at, now).toSeconds()
                        + "s ago)");
          }
        });
    var result = new HashMap<Usage.SliceKey, List<String>>();
    holders.forEach((key, names) -> result.put(key, List.copyOf(names)));
    return new Usage(result);
  }

  private static Map<String, Usage.SliceKey> locations(ObservedNode observed) {
    var where = new HashMap<String, Usage.SliceKey>();
    for (ObservedGpu gpu : observed.gpus()) {
      where.put(
          gpu.uuid(),
          new Usage.SliceKey(gpu.index(), Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES));
      for (LiveGpuInstance gi : gpu.gpuInstances()) {
        for (LiveComputeInstance ci : gi.computeInstances()) {
          where.put(ci.uuid(), new Usage.SliceKey(gpu.index(), gi.id(), ci.id()));
        }
      }
    }
    return where;
  }
}
