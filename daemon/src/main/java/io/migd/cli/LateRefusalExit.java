package io.migd.cli;

import io.migd.app.StartRefused;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ApplicationListener;

/**
 * Ends {@code serve} on a refusal found after the start went on, with the exit status and sentence
 * of a start refused the same way ({@link Failure}): one ERROR line, the context closed, then the
 * process exits. Closing runs on a thread of its own, since the refusal comes from a thread the
 * context stops.
 */
final class LateRefusalExit implements ApplicationListener<StartRefused> {
  private static final Logger log = LoggerFactory.getLogger(LateRefusalExit.class);

  @Override
  public void onApplicationEvent(StartRefused event) {
    Failure failure = Failure.of(event.cause());
    log.error("{}; migd exits with status {}", failure.message(), failure.exitStatus());
    // not a daemon thread (as the probe's, which it would inherit): the JVM would end with 0 once
    // the context is closed, before the exit status is set
    Thread.ofPlatform()
        .name("migd-exit")
        .daemon(false)
        .start(
            () -> {
              try {
                SpringApplication.exit(event.context(), failure::exitStatus);
              } finally {
                System.exit(failure.exitStatus());
              }
            });
  }
}
