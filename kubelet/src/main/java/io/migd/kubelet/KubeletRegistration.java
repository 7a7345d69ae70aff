package io.migd.kubelet;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.migd.api.deviceplugin.v1beta1.DevicePluginOptions;
import io.migd.api.deviceplugin.v1beta1.RegisterRequest;
import io.migd.api.deviceplugin.v1beta1.RegistrationGrpc;
import io.migd.execute.Backoff;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers resources with the kubelet's {@code Registration} service, in the background: retried
 * with backoff while {@code kubelet.sock} is absent or refuses, with one warning per resource until
 * it succeeds. A newer registration of a resource cancels the one in flight.
 */
final class KubeletRegistration implements AutoCloseable {
  static final String VERSION = "v1beta1";
  // the kubelet dials the plugin back before it answers, so allow it a few seconds
  private static final Duration CALL_DEADLINE = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(KubeletRegistration.class);

  private final Path kubeletSocket;
  private final Backoff backoff;
  private final ScheduledExecutorService scheduler =
      // two threads: a kubelet slow to answer one Register does not hold up the others for long
      Executors.newScheduledThreadPool(
          2, Thread.ofPlatform().name("migd-kubelet-registration-", 0).daemon().factory());
  private final Map<String, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();
  // every registration not ended yet, the cancelled ones until their cancellation completes
  private final AtomicInteger unfinished = new AtomicInteger();
  // resources warned about that have not registered since: a newer registration of one (after
  // kubelet.sock is re-created) logs its failures at debug, so the warning stays one per resource
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  KubeletRegistration(Path kubeletSocket, Duration maxBackoff) {
    this.kubeletSocket = kubeletSocket;
    this.backoff = new Backoff(DevicePluginSettings.FIRST_REGISTRATION_BACKOFF, maxBackoff);
  }

  /** Starts registering {@code resource} served on {@code endpoint}, a file in the directory. */
  CompletableFuture<Void> register(String resource, String endpoint) {
    var request =
        RegisterRequest.newBuilder()
            .setVersion(VERSION)
            .setEndpoint(endpoint)
            .setResourceName(resource)
            .setOptions(DevicePluginOptions.newBuilder().setGetPreferredAllocationAvailable(true))
            .build();
    RetryPolicy<Void> retry =
        backoff
            .<Void>retryPolicy(-1)
            .onFailedAttempt(
                e -> {
                  if (!warned.add(resource)) {
                    log.debug(
                        "registration attempt failed: resource={} attempts={} error={}",
                        resource,
                        e.getAttemptCount(),
                        e.getLastException().toString());
                  } else {
                    log.warn(
                        "registration failed, retrying with backoff until it succeeds:"
                            + " resource={} socket={} error={}",
                        resource,
                        kubeletSocket,
                        e.getLastException().toString());
                  }
                })
            .build();
    var attempt =
        Failsafe.with(retry)
            .with(scheduler)
            .runAsync(
                context -> {
                  call(request);
                  warned.remove(resource);
                  log.info(
                      "registered resource={} endpoint={} attempts={}",
                      resource,
                      endpoint,
                      context.getAttemptCount() + 1);
                });
    unfinished.incrementAndGet();
    attempt.whenComplete((_, _) -> unfinished.decrementAndGet());
    var previous = inFlight.put(resource, attempt);
    if (previous != null) {
      previous.cancel(true);
    }
    attempt.whenComplete((_, _) -> inFlight.remove(resource, attempt));
    return attempt;
  }

  /** Whether a registration is still being tried; once none is, no Register call comes. */
  boolean inFlight() {
    return unfinished.get() > 0;
  }

  private void call(RegisterRequest request) throws InterruptedException {
    var channel = UnixSockets.dial(kubeletSocket);
    try {
      RegistrationGrpc.newBlockingStub(channel)
          .withDeadlineAfter(CALL_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
          .register(request);
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() {
    inFlight.values().forEach(f -> f.cancel(true));
    scheduler.shutdownNow();
  }
}
