/**
 * Which prepared DRA claim owns which device, in plain Java: a claim's devices ({@link
 * io.migd.ownership.ClaimDevice}: a whole GPU, a planned placement, a made instance) as the
 * checkpoint holds them ({@link io.migd.ownership.CheckpointClaim}), and the view the pool, the
 * reconcile and the REST surface read ({@link io.migd.ownership.ClaimedDevices}). It depends on
 * {@code layout} and {@code profiles} only, so every package that reads ownership can, without a
 * cycle.
 */
package io.migd.ownership;
