package io.migd.reconcile;

import io.migd.execute.ListenerFailures;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The surfaces told of every outcome, in an explicit order, each failing on its own: one that
 * throws is logged with its name and counted, and the others are told as usual. The daemon's order
 * (one wiring place builds it): MPS daemons first, so a daemon is up before the kubelet is shown
 * its replicas, then the kubelet, the Node, the progress and the metrics, the UUID recorder, and
 * readiness last, once everything else shows the outcome.
 */
public final class OutcomeListeners {
  private static final Logger log = LoggerFactory.getLogger(OutcomeListeners.class);

  /** One listener and the name its failures are logged and counted under. */
  public record Named(String name, OutcomeListener listener) {}

  private final List<Named> listeners;
  private final ListenerFailures failures;

  /** {@code listeners}, told in this order; {@code failures} counts those that throw. */
  public OutcomeListeners(List<Named> listeners, ListenerFailures failures) {
    this.listeners = List.copyOf(listeners);
    this.failures = failures;
  }

  /** Listeners named by their class, in this order, failures not counted (tests, benchmarks). */
  public static OutcomeListeners of(List<OutcomeListener> listeners) {
    return new OutcomeListeners(
        listeners.stream().map(l -> new Named(l.getClass().getSimpleName(), l)).toList(),
        ListenerFailures.NONE);
  }

  /** The names, in the order the listeners are told. */
  public List<String> names() {
    return listeners.stream().map(Named::name).toList();
  }

  /**
   * Tells every listener, in order, whatever any of them throws.
   *
   * @return whether every listener took the outcome without throwing
   */
  public boolean tell(Desired desired, Outcome outcome) {
    boolean allTook = true;
    for (Named named : listeners) {
      try {
        named.listener().reconciled(desired, outcome);
      } catch (Throwable e) {
        // an Error too: one surface's bug must not stop the others or the loop
        log.error(
            "outcome listener failed listener={} generation={} error=\"{}\"",
            named.name(),
            outcome.generation(),
            e.toString(),
            e);
        failures.failed(named.name(), e);
        allTook = false;
      }
    }
    return allTook;
  }
}
