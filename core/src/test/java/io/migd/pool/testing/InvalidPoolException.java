package io.migd.pool.testing;

import java.util.List;

/**
 * A pool the scheduler would not allocate from (incomplete, or breaking the API's rules and
 * limits). The test allocator throws it instead of quietly allocating nothing, so the test fails.
 */
public final class InvalidPoolException extends IllegalStateException {
  private final List<String> problems;

  /** A pool with these problems, one sentence each. */
  public InvalidPoolException(List<String> problems) {
    super("invalid pool: " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** The problems, one sentence each. */
  public List<String> problems() {
    return problems;
  }
}
