package io.migd.app;

import io.migd.dra.ClaimPreparation;
import io.migd.dra.PrepareResult;
import io.migd.dra.UnprepareResult;
import io.migd.ownership.ClaimKey;
import io.migd.pool.PoolSurface;
import java.util.List;

/**
 * The kubelet's DRA calls, each with the pool's hand-on held while it runs ({@link
 * PoolSurface#heldWhile}): the slices go from the state before a call straight to the state after
 * it, never through the claims of the call done one by one.
 */
record PoolHeldClaims(ClaimPreparation calls, PoolSurface pool) implements ClaimPreparation {
  @Override
  public List<PrepareResult> prepare(List<ClaimKey> claims) {
    return pool.heldWhile(() -> calls.prepare(claims));
  }

  @Override
  public List<UnprepareResult> unprepare(List<ClaimKey> claims) {
    return pool.heldWhile(() -> calls.unprepare(claims));
  }
}
