package io.migd.claims;

import java.util.List;

/**
 * Writes and removes the per-claim CDI spec that names the devices of a prepared claim for the
 * container runtime.
 */
public interface ClaimCdi {
  /**
   * Writes the claim's spec (replacing an earlier one) and returns the devices' CDI device IDs,
   * device by device in the order given, the same number for each device (two: the claim's own and
   * NVIDIA's GPU name).
   */
  List<String> write(String claimUid, List<CdiDevice> devices);

  /** Removes the claim's spec; nothing happens when there is none. */
  void remove(String claimUid);
}
