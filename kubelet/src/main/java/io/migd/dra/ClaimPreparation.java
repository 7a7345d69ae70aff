package io.migd.dra;

import io.migd.ownership.ClaimKey;
import java.util.List;

/**
 * What the node does for the kubelet's DRA calls; the v1 and v1beta1 services both call it. Each
 * call gets distinct claims (by UID) and should answer each of them once; a claim left unanswered
 * and an exception are turned into that claim's error by {@link ClaimCalls}, so the kubelet always
 * hears about every claim. Both calls must be idempotent: the kubelet repeats them.
 */
public interface ClaimPreparation {
  /** Prepares the claims' devices on this node. */
  List<PrepareResult> prepare(List<ClaimKey> claims);

  /** Releases what {@link #prepare} made for the claims; an unknown claim is unprepared. */
  List<UnprepareResult> unprepare(List<ClaimKey> claims);
}
