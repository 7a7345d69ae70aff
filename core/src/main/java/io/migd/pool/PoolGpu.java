package io.migd.pool;

import io.migd.layout.ObservedGpu;
import java.util.Objects;

/**
 * One GPU as the pool builder takes it: its facts, what NVML shows on it now, and whether the
 * resolved intent makes it dynamic (every profile at every placement, created when a claim is
 * prepared) or static (what exists is published), and whether its config item asks for shares (each
 * device also published as a twin that claims share, DESIGN section 14).
 */
public record PoolGpu(GpuFacts facts, ObservedGpu observed, boolean dynamic, boolean shares) {
  /** Checks the facts and the observation are of the same GPU. */
  public PoolGpu {
    Objects.requireNonNull(facts);
    Objects.requireNonNull(observed);
    if (!facts.gpu().equals(observed.index()) || !facts.uuid().equals(observed.uuid())) {
      throw new IllegalArgumentException(
          "facts of GPU "
              + facts.gpu()
              + " ("
              + facts.uuid()
              + ") paired with the observation of GPU "
              + observed.index()
              + " ("
              + observed.uuid()
              + ")");
    }
  }

  /** A GPU whose devices are not shared. */
  public PoolGpu(GpuFacts facts, ObservedGpu observed, boolean dynamic) {
    this(facts, observed, dynamic, false);
  }
}
