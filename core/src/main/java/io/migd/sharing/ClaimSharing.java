package io.migd.sharing;

import java.util.List;

/**
 * Applies a claim's sharing at its prepare and undoes it at its unprepare (docs/contract.md,
 * "Sharing a claim's devices").
 */
public interface ClaimSharing {
  /** No sharing on this node: a device whose configuration asks for it fails its claim. */
  ClaimSharing NONE =
      new ClaimSharing() {
        @Override
        public ClientEdits apply(String claimUid, SharedDevice device, List<String> claimUuids) {
          if (device.sharing() instanceof DeviceSharing.Exclusive) {
            return ClientEdits.NONE;
          }
          throw new ConfigRefused(
              "device " + device.name() + ": sharing is not served on this node");
        }

        @Override
        public void release(String claimUid) {}
      };

  /**
   * Applies the sharing of {@code device} of claim {@code claimUid}, whose devices have the UUIDs
   * {@code claimUuids}, recording it before anything changes; idempotent. Returns what its CDI
   * device adds.
   *
   * @throws ConfigRefused when the configuration cannot apply to this claim's devices
   * @throws SharingFailure when a command or the MPS supervisor failed
   */
  ClientEdits apply(String claimUid, SharedDevice device, List<String> claimUuids);

  /**
   * Undoes what was applied for claim {@code claimUid}: its MPS daemons stopped, the time slice of
   * its GPUs back to {@code Default}. A claim with nothing applied is left as it is.
   *
   * @throws SharingFailure when something could not be undone; what was undone is forgotten
   */
  void release(String claimUid);
}
