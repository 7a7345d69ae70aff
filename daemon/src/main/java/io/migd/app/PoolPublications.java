package io.migd.app;

import io.migd.dra.HealthPublisher;
import io.migd.metrics.DraMetrics;
import io.migd.ownership.ClaimedDevices;
import io.migd.pool.BuiltPool;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolSurface;
import java.util.function.Consumer;

/**
 * Where each pool {@link PoolSurface} builds goes: its content to the ResourceSlices under the
 * pool's number, its free placements to {@code migd_dra_free_placements}, and the health of the
 * prepared claims' devices in it to the kubelet ({@link PreparedHealth}).
 */
final class PoolPublications implements Consumer<PoolSurface.Publication> {
  /** The ResourceSlice side: {@code ResourceSlicePublisher::publish}. */
  @FunctionalInterface
  interface Slices {
    /** Publishes {@code content} as the pool numbered {@code number}; older numbers lose. */
    void publish(long number, PoolContent content);
  }

  private final Slices slices;
  private final DraMetrics metrics;
  private final HealthPublisher health;
  private final ClaimedDevices claimed;

  PoolPublications(
      Slices slices, DraMetrics metrics, HealthPublisher health, ClaimedDevices claimed) {
    this.slices = slices;
    this.metrics = metrics;
    this.health = health;
    this.claimed = claimed;
  }

  @Override
  public void accept(PoolSurface.Publication publication) {
    BuiltPool built = publication.pool();
    slices.publish(publication.number(), built.content());
    metrics.freePlacements(FreePlacementCounts.perGpu(built));
    health.publish(PreparedHealth.of(built.content(), claimed));
  }
}
