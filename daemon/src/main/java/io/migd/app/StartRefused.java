package io.migd.app;

import java.util.Objects;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ApplicationContextEvent;

/**
 * A refusal found after the start went on (the API server, once it answered the DRA probe, is too
 * old): the daemon ends as a start refused with {@code cause} would (exit 2 for an {@code
 * UnsupportedKubernetesException}), closing {@code context} first.
 */
public final class StartRefused extends ApplicationContextEvent {
  private final RuntimeException cause;

  /** The refusal {@code cause}, found while {@code context} runs. */
  public StartRefused(ConfigurableApplicationContext context, RuntimeException cause) {
    super(context);
    this.cause = Objects.requireNonNull(cause);
  }

  /** What refuses the start. */
  public RuntimeException cause() {
    return cause;
  }

  /** The daemon's context, to close. */
  public ConfigurableApplicationContext context() {
    return (ConfigurableApplicationContext) getApplicationContext();
  }
}
