/**
 * DRA claims on this node, in plain Java: what the API server says a claim was allocated ({@link
 * io.migd.claims.AllocatedClaim}, read through {@link io.migd.claims.ClaimSource}), and which
 * prepared claim owns which device ({@link io.migd.claims.ClaimedDevices}), which the pool, the
 * reconcile and the REST surface read.
 */
package io.migd.claims;
