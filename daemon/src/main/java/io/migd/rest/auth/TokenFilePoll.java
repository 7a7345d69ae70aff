package io.migd.rest.auth;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the token file again every {@code migd.auth.token-file-poll} on a thread of its own; a
 * reload that throws is logged and the next one still runs.
 */
final class TokenFilePoll implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TokenFilePoll.class);

  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("migd-token-file-poll").daemon().factory());

  TokenFilePoll(TokenFileAuthenticator authenticator, Duration every) {
    if (every.isNegative() || every.isZero()) {
      throw new AuthRefusedException("migd.auth.token-file-poll must be positive, got " + every);
    }
    poller.scheduleWithFixedDelay(
        () -> {
          try {
            authenticator.reload();
          } catch (RuntimeException e) {
            log.error("reading migd.auth.token-file again failed; the old token stays", e);
          }
        },
        every.toMillis(),
        every.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
