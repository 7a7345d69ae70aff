package io.migd.app;

import java.util.Objects;
import java.util.Optional;

/**
 * The rule of a live file (DESIGN section 13): new content counts only when two reads a poll apart
 * return the same, so a half-written file or a ConfigMap volume caught mid-swap is never acted on;
 * content once acted on is not told again. Used by one polling thread.
 *
 * @param <T> what one read gives (the text, or why there is none)
 */
final class SettledReads<T> {
  private T previous;
  private T applied;

  /** Starts from the read made at start, which counts as acted on. */
  SettledReads(T first) {
    this.previous = Objects.requireNonNull(first);
    this.applied = first;
  }

  /**
   * Takes one more read.
   *
   * @return {@code now}, when it equals the read before it and differs from what was last acted on
   *     (it counts as acted on from here); else empty
   */
  Optional<T> next(T now) {
    Objects.requireNonNull(now);
    T before = previous;
    previous = now;
    if (!now.equals(before) || now.equals(applied)) {
      return Optional.empty();
    }
    applied = now;
    return Optional.of(now);
  }
}
