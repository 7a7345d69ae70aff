package io.migd.execute;

/**
 * Told when a listener of the reconcile (of its progress or of its outcomes) threw: the composite
 * that called it has logged it with the listener's name and gone on with the others. The daemon
 * counts them ({@code migd_listener_failures_total}).
 */
@FunctionalInterface
public interface ListenerFailures {
  /** Counts nothing. */
  ListenerFailures NONE = (listener, cause) -> {};

  /** {@code listener} (its name in its composite) threw {@code cause}. */
  void failed(String listener, Throwable cause);
}
