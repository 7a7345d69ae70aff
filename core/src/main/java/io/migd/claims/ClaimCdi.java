package io.migd.claims;

import java.io.UncheckedIOException;
import java.util.List;

/**
 * The per-claim CDI spec that gives a prepared claim's containers its devices (DESIGN.md section
 * 12, "CDI"). Prepare writes it before it answers the kubelet; unprepare removes it.
 */
public interface ClaimCdi {

  /**
   * Writes (or replaces) the claim's spec, atomically, and returns the CDI IDs of its devices: the
   * same number per device, in the order given ({@link CdiDevice#cdiIds}).
   *
   * @throws UncheckedIOException when a capability node cannot be read or the spec cannot be
   *     written; the message names the file
   * @throws IllegalStateException when the GPU spec whose common edits it copies was not generated
   */
  List<String> write(String claimUid, List<CdiDevice> devices);

  /**
   * Removes the claim's spec; a claim without one is left as it is.
   *
   * @throws UncheckedIOException when the spec exists and cannot be removed
   */
  void remove(String claimUid);
}
