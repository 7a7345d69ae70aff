package io.migd.pool.testing;

import io.migd.pool.PoolContent;
import io.migd.pool.PoolSlice;
import java.util.List;
import java.util.Objects;

/**
 * One ResourceSlice as the API server holds it, reduced to what an allocator reads: the slice's
 * content with its driver, pool, {@code pool.generation} and {@code pool.resourceSliceCount}.
 *
 * @param sliceCount {@code resourceSliceCount}: how many slices the pool has at this generation
 */
public record PublishedSlice(
    String driver, String pool, PoolSlice slice, long generation, int sliceCount) {
  /** Checks every part is there. */
  public PublishedSlice {
    Objects.requireNonNull(driver);
    Objects.requireNonNull(pool);
    Objects.requireNonNull(slice);
  }

  /** Every slice of {@code content}, published under {@code generation} with the full count. */
  public static List<PublishedSlice> of(PoolContent content, long generation) {
    int count = content.slices().size();
    return content.slices().stream()
        .map(s -> new PublishedSlice(content.driver(), content.pool(), s, generation, count))
        .toList();
  }

  /** The slice's name. */
  public String name() {
    return slice.name();
  }
}
