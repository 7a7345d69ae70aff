package io.migd.dra;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device health list the kubelet's {@code NodeWatchResources} streams receive: a new stream
 * gets the current list at once, every stream gets a changed list as soon as it is published, and
 * the list is sent again at least every {@code resend}, because the kubelet treats health it has
 * not heard for its timeout (30 s) as unknown. Every message is the complete list. All sends run on
 * one thread, so a stream never gets two messages at once.
 */
public final class HealthPublisher implements AutoCloseable {
  /** The most time between two messages on a stream; the kubelet's own timeout is 30 s. */
  public static final Duration RESEND = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(HealthPublisher.class);

  private final ScheduledExecutorService sender =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("migd-dra-health").daemon().factory());
  private final Set<Consumer<List<DeviceHealth>>> streams = ConcurrentHashMap.newKeySet();
  private volatile List<DeviceHealth> current = List.of();

  /** A publisher with an empty list that resends every {@code resend}. */
  public HealthPublisher(Duration resend) {
    if (resend.isNegative() || resend.isZero()) {
      throw new IllegalArgumentException("the health resend interval must be positive: " + resend);
    }
    sender.scheduleWithFixedDelay(
        this::sendToAll, resend.toNanos(), resend.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Makes {@code devices} the list; when it differs from the current one, every stream gets it. */
  public void publish(List<DeviceHealth> devices) {
    var list = List.copyOf(devices);
    if (list.equals(current)) {
      return;
    }
    current = list;
    submit(this::sendToAll);
  }

  /** The list published last (empty before the first). */
  public List<DeviceHealth> current() {
    return current;
  }

  /**
   * Adds a stream: it gets the current list at once, then every message until it is removed or
   * throws. Returns what removes it.
   */
  Runnable attach(Consumer<List<DeviceHealth>> stream) {
    Objects.requireNonNull(stream);
    submit(
        () -> {
          streams.add(stream);
          send(stream, current);
        });
    return () -> streams.remove(stream);
  }

  private void submit(Runnable task) {
    try {
      sender.execute(task);
    } catch (RejectedExecutionException e) {
      log.debug("health publisher closed, not sending");
    }
  }

  private void sendToAll() {
    var list = current;
    // a failure reaches no further than its stream: the resend must keep running for the others
    for (var stream : streams) {
      send(stream, list);
    }
  }

  private void send(Consumer<List<DeviceHealth>> stream, List<DeviceHealth> list) {
    try {
      stream.accept(list);
    } catch (RuntimeException e) {
      streams.remove(stream);
      log.warn("health stream failed, dropping it: error={}", e.toString());
    }
  }

  @Override
  public void close() throws InterruptedException {
    sender.shutdownNow();
    sender.awaitTermination(10, TimeUnit.SECONDS);
    streams.clear();
  }
}
