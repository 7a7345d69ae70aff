package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A reader waited for a GPU reset as long as it may ({@code migd.nvml.reset-wait}) and answers
 * "busy" instead of blocking: REST with {@code 503} naming the reset, the scrape without the GPU's
 * series. Not a failure: asking again after the reset answers as usual.
 */
public final class ResetInProgressException extends RuntimeException {
  private final List<ResetsInProgress.Reset> resets;

  /** The resets under way when the reader gave up after {@code waited}. */
  public ResetInProgressException(List<ResetsInProgress.Reset> resets, Duration waited) {
    super(message(resets, waited), null, false, false);
    this.resets = List.copyOf(resets);
  }

  /** The resets under way (empty when NVML was released for something else). */
  public List<ResetsInProgress.Reset> resets() {
    return resets;
  }

  /** Whether {@code gpu} is one of the GPUs being reset. */
  public boolean resetting(GpuIndex gpu) {
    return resets.stream().anyMatch(r -> r.gpu().equals(gpu));
  }

  private static String message(List<ResetsInProgress.Reset> resets, Duration waited) {
    String what =
        resets.isEmpty()
            ? "NVML is released for a GPU reset"
            : resets.stream()
                .map(ResetsInProgress.Reset::describe)
                .collect(Collectors.joining("; "));
    return what
        + ": NVML answers no call until it ends (waited "
        + waited.toMillis()
        + " ms, migd.nvml.reset-wait); ask again later";
  }
}
