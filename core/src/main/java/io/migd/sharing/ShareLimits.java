package io.migd.sharing;

import java.util.List;
import java.util.Optional;

/**
 * The limits one device's MPS daemon holds its clients to while claims share it: the largest memory
 * and the largest compute of its prepared shares, each on its own (DESIGN section 14: a process
 * that clears its own limits reaches the largest current share, never more).
 *
 * @param memoryMib the largest share's memory, MiB
 * @param computePercent the largest share's compute, percent
 */
public record ShareLimits(long memoryMib, int computePercent) {
  /** The limits of {@code shares}, empty when there is none. */
  public static Optional<ShareLimits> largest(List<DeviceSharing.Share> shares) {
    if (shares.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ShareLimits(
            shares.stream().mapToLong(DeviceSharing.Share::memoryMib).max().orElseThrow(),
            shares.stream().mapToInt(DeviceSharing.Share::computePercent).max().orElseThrow()));
  }
}
