package io.migd.devices;

import io.migd.layout.GpuIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The kubelet's {@code GetPreferredAllocation} hint (DESIGN.md sections 4 and 13): the devices it
 * must include, then available ones from one NUMA node that can hold the whole request (the node of
 * the must-include IDs, else the one with most available devices), spread over the most GPUs, then
 * over the most parents (slices), so a pod asking for two replicas gets two GPUs' worth of time
 * where the node has them. Only when no NUMA node can hold the request does it cross nodes: the
 * nodes of the must-include IDs first, then the others by available devices, each filled before the
 * next, devices of an unknown node last.
 */
public final class PreferredAllocation {
  private PreferredAllocation() {}

  /**
   * Chooses {@code size} device IDs: every ID of {@code mustInclude}, then from {@code available}
   * one at a time the device of the most preferred NUMA node on the GPU and parent chosen least so
   * far (ties by ID). Returns fewer when {@code available} runs out.
   */
  public static List<String> choose(List<Device> available, List<String> mustInclude, int size) {
    Map<String, Device> byId = new LinkedHashMap<>();
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
    Map<Integer, Integer> rank = nodeRanks(byId, chosen, size);
    var candidates =
        new ArrayList<>(byId.values().stream().filter(d -> !chosen.contains(d.id())).toList());
    while (chosen.size() < size && !candidates.isEmpty()) {
      Device next =
          candidates.stream()
              .min(
                  Comparator.<Device>comparingInt(
                          d -> rank.getOrDefault(d.numaNode(), Integer.MAX_VALUE))
                      .thenComparingInt(d -> perGpu.getOrDefault(d.gpu(), 0))
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

  /**
   * The order in which NUMA nodes give devices, 0 first: the node that holds the whole request when
   * one does; else the nodes of the must-include devices together, then every other known node by
   * available devices, then node id. Unknown nodes are not ranked (last).
   */
  static Map<Integer, Integer> nodeRanks(
      Map<String, Device> available, Set<String> mustInclude, int size) {
    Map<Integer, Integer> room = new HashMap<>();
    Map<Integer, Integer> must = new HashMap<>();
    for (Device d : available.values()) {
      if (d.numaNode() != Device.NO_NUMA_NODE) {
        room.merge(d.numaNode(), 1, Integer::sum);
        if (mustInclude.contains(d.id())) {
          must.merge(d.numaNode(), 1, Integer::sum);
        }
      }
    }
    // a must-include ID that is not available or sits on no known node pins the request to no node
    int pinned = must.values().stream().mapToInt(Integer::intValue).sum();
    boolean mustFitsOneNode = must.size() <= 1 && pinned == mustInclude.size();
    var order =
        room.keySet().stream()
            .sorted(
                Comparator.<Integer>comparingInt(n -> -must.getOrDefault(n, 0))
                    .thenComparingInt(n -> -room.get(n))
                    .thenComparingInt(n -> n))
            .toList();
    Map<Integer, Integer> rank = new HashMap<>();
    if (mustFitsOneNode && !order.isEmpty() && room.get(order.getFirst()) >= size) {
      rank.put(order.getFirst(), 0);
      return rank;
    }
    // the nodes of the must-include devices are crossed already: spread over them alike
    int next = must.isEmpty() ? 0 : 1;
    for (int n : order) {
      rank.put(n, must.containsKey(n) ? 0 : next++);
    }
    return rank;
  }
}
