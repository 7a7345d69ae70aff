package io.migd.execute;

import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress listeners told in an explicit order, each failing on its own: one that throws is logged
 * with its name and counted, and the others, and the plan, go on. The order is the wiring's: the
 * MPS daemons quit before the kubelet surface withdraws a slice's devices, so a client never
 * connects to a daemon about to go.
 */
public final class ProgressListeners implements ProgressListener {
  private static final Logger log = LoggerFactory.getLogger(ProgressListeners.class);

  /** One listener and the name its failures are logged and counted under. */
  public record Named(String name, ProgressListener listener) {}

  private final List<Named> listeners;
  private final ListenerFailures failures;

  /** {@code listeners}, told in this order; {@code failures} counts those that throw. */
  public ProgressListeners(List<Named> listeners, ListenerFailures failures) {
    this.listeners = List.copyOf(listeners);
    this.failures = failures;
  }

  /** The names, in the order the listeners are told. */
  public List<String> names() {
    return listeners.stream().map(Named::name).toList();
  }

  @Override
  public void planMade(GpuIndex gpu, Plan plan) {
    each("planMade", l -> l.planMade(gpu, plan));
  }

  @Override
  public void planAbandoned(GpuIndex gpu, Plan plan) {
    each("planAbandoned", l -> l.planAbandoned(gpu, plan));
  }

  @Override
  public void stepStarted(Step step) {
    each("stepStarted", l -> l.stepStarted(step));
  }

  @Override
  public void stepDone(Step step) {
    each("stepDone", l -> l.stepDone(step));
  }

  @Override
  public void stepFailed(Step step, NvmlException cause) {
    each("stepFailed", l -> l.stepFailed(step, cause));
  }

  private void each(String event, Consumer<ProgressListener> call) {
    for (Named named : listeners) {
      try {
        call.accept(named.listener());
      } catch (RuntimeException e) {
        log.error(
            "progress listener failed listener={} event={} error=\"{}\"",
            named.name(),
            event,
            e.toString(),
            e);
        failures.failed(named.name(), e);
      }
    }
  }
}
