package io.migd.node.dra;

import io.migd.execute.Backoff;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the API server supports of DRA mode ({@link DraCapabilityProbe}), found without holding up
 * the start (issue 18: the kubelet plugin is served and registered at once, so an unprepare works
 * even while the API server is down). {@link #start} waits for the first attempt at most {@link
 * Settings#firstWait()}: when it answers, the start goes on as it answered (a version before 1.34,
 * or any failure other than no answer, refuses the start). When it does not, the start goes on
 * without capabilities and the probe is repeated on a daemon thread of its own, with backoff, until
 * the API server answers, with a warning at most every {@link Settings#warnEvery()} saying what it
 * waits for; it never gives up. Until then {@link #known()} is empty and {@link #waiting()} is the
 * sentence a prepare is answered.
 */
public final class ProbedCapabilities implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ProbedCapabilities.class);

  /**
   * How the probe is repeated.
   *
   * @param firstWait how long the start waits for the first attempt
   * @param backoff the pause after each attempt the API server did not answer
   * @param warnEvery how often, at most, a warning says the probe still waits
   */
  public record Settings(Duration firstWait, Backoff backoff, Duration warnEvery) {
    /** Two seconds at start, then 250 ms doubling up to 30 s, a warning at most every minute. */
    public static final Settings DEFAULT =
        new Settings(
            Duration.ofSeconds(2),
            new Backoff(Duration.ofMillis(250), Duration.ofSeconds(30)),
            Duration.ofMinutes(1));

    /** Checks every part is there. */
    public Settings {
      Objects.requireNonNull(firstWait);
      Objects.requireNonNull(backoff);
      Objects.requireNonNull(warnEvery);
    }
  }

  private final Supplier<DraCapabilities> attempt;
  private final Settings settings;
  private final CompletableFuture<Void> first = new CompletableFuture<>();
  private final CompletableFuture<DraCapabilities> result = new CompletableFuture<>();
  private final Thread thread;
  private volatile String lastFailure = "no answer yet";
  private volatile boolean closed;

  private ProbedCapabilities(Supplier<DraCapabilities> attempt, Settings settings) {
    this.attempt = Objects.requireNonNull(attempt);
    this.settings = Objects.requireNonNull(settings);
    this.thread = Thread.ofPlatform().name("migd-dra-probe").daemon().unstarted(this::run);
  }

  /**
   * Starts probing with {@code attempt} ({@link DraCapabilityProbe#probe}) and waits for the first
   * attempt at most {@link Settings#firstWait()}.
   *
   * @throws UnsupportedKubernetesException when the first attempt finds Kubernetes before 1.34
   * @throws RuntimeException what the first attempt threw, unless the API server did not answer
   */
  public static ProbedCapabilities start(Supplier<DraCapabilities> attempt, Settings settings) {
    var probed = new ProbedCapabilities(attempt, settings);
    probed.thread.start();
    try {
      probed.first.get(settings.firstWait().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      Throwable failed = e.getCause();
      if (failed instanceof RuntimeException refused
          && !(failed instanceof DraCapabilityProbe.UnansweredException)) {
        probed.close();
        throw refused;
      }
      log.warn(
          "{}: the kubelet plugin is served now, prepares wait for the probe, which is tried again"
              + " in the background",
          probed.waiting().orElse("the DRA probe has ended"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      probed.close();
      throw new IllegalStateException("interrupted while probing the API server for DRA", e);
    }
    return probed;
  }

  /** What the API server supports, once it has answered. */
  public Optional<DraCapabilities> known() {
    return result.state() == Future.State.SUCCESS
        ? Optional.of(result.resultNow())
        : Optional.empty();
  }

  /**
   * Why prepares cannot go ahead yet, as a sentence for the kubelet (which retries); empty once the
   * capabilities are known.
   */
  public Optional<String> waiting() {
    return switch (result.state()) {
      case SUCCESS -> Optional.empty();
      case FAILED -> Optional.of("migd refuses DRA mode: " + result.exceptionNow().getMessage());
      case RUNNING, CANCELLED ->
          Optional.of(
              "the API server has not answered migd's DRA probe yet ("
                  + lastFailure
                  + "), so migd publishes no ResourceSlice and prepares no claim until it does");
    };
  }

  /**
   * Runs {@code then} with the capabilities once they are known: at once when they are, else on the
   * probe's thread. A failure of {@code then} is logged.
   */
  public void whenKnown(Consumer<DraCapabilities> then) {
    result.thenAccept(capabilities -> isolated("using the DRA capabilities", capabilities, then));
  }

  /**
   * Runs {@code then} when the API server, once it answered in the background, is too old for DRA
   * mode: migd must end (exit 2, as when it is refused at start). A failure of {@code then} is
   * logged.
   */
  public void whenRefused(Consumer<UnsupportedKubernetesException> then) {
    result.whenComplete(
        (_, failed) -> {
          if (failed instanceof UnsupportedKubernetesException refused) {
            isolated("ending migd after the DRA probe's refusal", refused, then);
          }
        });
  }

  /** Stops probing; the capabilities stay unknown if they were. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }

  private void run() {
    int failures = 0;
    long lastWarning = System.nanoTime();
    while (!closed) {
      try {
        DraCapabilities found = attempt.get();
        if (closed) {
          return;
        }
        if (failures > 0) {
          log.info("the API server answered the DRA probe after {} attempts", failures + 1);
        }
        // the result first: a start that sees the first attempt done reads it at once
        result.complete(found);
        first.complete(null);
        return;
      } catch (UnsupportedKubernetesException e) {
        result.completeExceptionally(e);
        first.completeExceptionally(e);
        return;
      } catch (RuntimeException e) {
        if (closed) {
          return;
        }
        // a start that waited for this attempt ends on anything but no answer; later, anything is
        // retried: an RBAC rule fixed later lets migd go on without a restart
        lastFailure =
            e instanceof DraCapabilityProbe.UnansweredException
                ? e.getMessage()
                : e.toString().lines().findFirst().orElse("");
        first.completeExceptionally(e);
        failures++;
        Duration pause = settings.backoff().delay(failures);
        if (failures > 1 && System.nanoTime() - lastWarning >= settings.warnEvery().toNanos()) {
          lastWarning = System.nanoTime();
          log.warn(
              "{}; attempts={} next in {} ms",
              waiting().orElse(lastFailure),
              failures,
              pause.toMillis());
        }
        try {
          Thread.sleep(pause);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  private static <T> void isolated(String doing, T value, Consumer<T> then) {
    try {
      then.accept(value);
    } catch (RuntimeException e) {
      log.error("{} failed", doing, e);
    }
  }
}
