package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The writes that take the pool's slices on the server to the ones wanted (DESIGN section 12): none
 * when they say the same; the one changed slice in place, under the same generation, when the pool
 * on the server is complete and nothing else differs; otherwise every slice under the next
 * generation with {@code resourceSliceCount} set, then the slices no longer in the pool deleted.
 *
 * @param generation the pool generation the writes carry
 * @param writes the slices to create or update, in publishing order, generation and count set, the
 *     resource version of the server's copy carried (an update of a slice changed meanwhile fails
 *     with a conflict)
 * @param deletes the names of the slices to delete after the writes
 */
record SlicePlan(long generation, List<ResourceSlice> writes, List<String> deletes) {
  SlicePlan {
    writes = List.copyOf(writes);
    deletes = List.copyOf(deletes);
  }

  /** Whether nothing is to be written. */
  boolean isEmpty() {
    return writes.isEmpty() && deletes.isEmpty();
  }

  /**
   * The plan from {@code onServer} (this pool's slices as the server has them, by name) to {@code
   * wanted} (as {@link SliceObjects#of} builds them).
   */
  static SlicePlan between(Map<String, ResourceSlice> onServer, List<ResourceSlice> wanted) {
    long highest = onServer.values().stream().mapToLong(SlicePlan::generation).max().orElse(0L);
    boolean complete =
        onServer.values().stream()
            .allMatch(s -> generation(s) == highest && sliceCount(s) == onServer.size());
    Set<String> wantedNames =
        wanted.stream().map(s -> s.getMetadata().getName()).collect(Collectors.toSet());
    List<String> deletes =
        onServer.keySet().stream().filter(name -> !wantedNames.contains(name)).sorted().toList();
    List<ResourceSlice> changed =
        wanted.stream()
            .filter(
                s -> {
                  ResourceSlice there = onServer.get(s.getMetadata().getName());
                  return there == null || !SliceObjects.sameContent(there, s);
                })
            .toList();
    if (complete && deletes.isEmpty() && changed.isEmpty()) {
      return new SlicePlan(highest, List.of(), List.of());
    }
    if (complete && deletes.isEmpty() && changed.size() == 1 && wanted.size() == onServer.size()) {
      return new SlicePlan(
          highest, List.of(stamped(changed.getFirst(), onServer, highest, wanted)), List.of());
    }
    long next = highest + 1;
    var writes = new ArrayList<ResourceSlice>();
    for (ResourceSlice slice : wanted) {
      writes.add(stamped(slice, onServer, next, wanted));
    }
    return new SlicePlan(next, writes, deletes);
  }

  private static ResourceSlice stamped(
      ResourceSlice slice,
      Map<String, ResourceSlice> onServer,
      long generation,
      List<ResourceSlice> wanted) {
    ResourceSlice there = onServer.get(slice.getMetadata().getName());
    return new ResourceSliceBuilder(slice)
        .editMetadata()
        .withResourceVersion(there == null ? null : there.getMetadata().getResourceVersion())
        .endMetadata()
        .editSpec()
        .editPool()
        .withGeneration(generation)
        .withResourceSliceCount((long) wanted.size())
        .endPool()
        .endSpec()
        .build();
  }

  private static long generation(ResourceSlice slice) {
    var spec = slice.getSpec();
    return spec == null || spec.getPool() == null || spec.getPool().getGeneration() == null
        ? 0L
        : spec.getPool().getGeneration();
  }

  private static long sliceCount(ResourceSlice slice) {
    var spec = slice.getSpec();
    return spec == null || spec.getPool() == null || spec.getPool().getResourceSliceCount() == null
        ? 0L
        : spec.getPool().getResourceSliceCount();
  }
}
