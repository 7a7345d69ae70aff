package io.migd.devices;

import io.migd.layout.GpuIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The kubelet's {@code GetPreferredAllocation} hint: the devices it must include, then the
 * available ones that spread the request over the most GPUs, then over the most parents (slices),
 * so a pod asking for two replicas gets two GPUs' worth of time where the node has them.
 */
public final class PreferredAllocation {
  private PreferredAllocation() {}

  /**
   * Chooses {@code size} device IDs: every ID of {@code mustInclude}, then from {@code available}
   * one at a time the device on the GPU and parent chosen least so far (ties by ID). Returns fewer
   * when {@code available} runs out.
   */
  public static List<String> choose(List<Device> available, List<String> mustInclude, int size) {
    Map<String, Device> byId = new HashMap<>();
    available.forEach(d -> byId.put(d.id(), d));
    var chosen = new LinkedHashSet<String>(mustInclude);
    Map<GpuIndex, Integer> perGpu = new HashMap<>();
    Map<String, Integer> perParent = new HashMap<>();
    for (String id : chosen) {
      Device d = byId.get(id);
      if (d != null) {
        perGpu.merge(d.gpu(), 1, Integer::sum);
      }
      perParent.merge(Device.parentOf(id), 1, Integer::sum);
    }
    var candidates =
        new ArrayList<>(available.stream().filter(d -> !chosen.contains(d.id())).toList());
    while (chosen.size() < size && !candidates.isEmpty()) {
      Device next =
          candidates.stream()
              .min(
                  Comparator.<Device>comparingInt(d -> perGpu.getOrDefault(d.gpu(), 0))
                      .thenComparingInt(d -> perParent.getOrDefault(d.parentUuid(), 0))
                      .thenComparing(Device::id))
              .orElseThrow();
      candidates.remove(next);
      chosen.add(next.id());
      perGpu.merge(next.gpu(), 1, Integer::sum);
      perParent.merge(next.parentUuid(), 1, Integer::sum);
    }
    return List.copyOf(chosen);
  }
}
