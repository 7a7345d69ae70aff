package io.migd.node.dra;

import io.migd.pool.PoolContent;
import java.util.Objects;

/**
 * A pool as the API server holds it: its highest generation's slices, in name order.
 *
 * @param generation the highest {@code pool.generation} among the pool's slices
 * @param resourceSliceCount what those slices say the generation has
 * @param content the slices of that generation, read back into pool records
 */
public record PublishedPool(long generation, long resourceSliceCount, PoolContent content) {
  /** Checks the content is there. */
  public PublishedPool {
    Objects.requireNonNull(content);
  }

  /** Whether every slice of the generation is there (else an allocator allocates nothing). */
  public boolean complete() {
    return content.slices().size() == resourceSliceCount;
  }
}
