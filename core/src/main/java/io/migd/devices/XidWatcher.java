package io.migd.devices;

import io.migd.execute.Backoff;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.EventData;
import io.migd.nvml.EventSetHandle;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.ProcessInfo;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for NVML's critical XID events on every GPU, on a thread of its own, and hands each to a
 * sink. A GPU reset ({@link Nvml#whileReleased}) makes the event set stale: a hook registers a new
 * one before any NVML call resumes, and the thread moves to it without a pause, so an XID raised
 * once the reset is done is not missed. When NVML fails otherwise, it drops the event set, backs
 * off and registers again; nothing the sink or NVML throws ends the thread.
 */
public final class XidWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(XidWatcher.class);
  private static final Duration WAIT = Duration.ofMillis(500);

  /** One critical XID: the GPU, its GPU instance ({@link Usage#WHOLE_GPU} when none), the code. */
  public record Xid(GpuIndex gpu, int gpuInstanceId, long code) {}

  /** Receives XIDs on the watcher's thread. */
  @FunctionalInterface
  public interface Sink {
    /** An XID happened. */
    void xid(Xid xid);

    /**
     * Every sink in order, each on its own: one that throws is logged and the next is still told.
     */
    static Sink all(List<Sink> sinks) {
      List<Sink> each = List.copyOf(sinks);
      return xid -> {
        for (Sink sink : each) {
          try {
            sink.xid(xid);
          } catch (RuntimeException e) {
            log.error(
                "XID {} on GPU {} could not be handled by {}", xid.code(), xid.gpu(), sink, e);
          }
        }
      };
    }
  }

  private final Nvml nvml;
  private final Sink sink;
  private final Backoff backoff;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile boolean watching;

  /** NVML initialisations since the watcher started; changes only while NVML is released. */
  private final AtomicLong resets = new AtomicLong();

  /** The set registered after the latest reset, until the thread moves to it. */
  private final AtomicReference<Registered> fresh = new AtomicReference<>();

  private volatile Nvml.Registration hook;

  /** An event set and the reset it was created after: a later reset makes it stale. */
  private record Registered(EventSetHandle set, long reset) {}

  /** A watcher that is not started yet. */
  public XidWatcher(Nvml nvml, Sink sink, Backoff backoff) {
    this.nvml = nvml;
    this.sink = sink;
    this.backoff = backoff;
    this.thread = Thread.ofPlatform().name("migd-xid-events").daemon(true).unstarted(this::run);
  }

  /** Starts watching. */
  public void start() {
    hook = nvml.onReinitialised(this::registerAgain);
    thread.start();
  }

  /** Whether the thread runs (it only ends on {@link #close()}). */
  public boolean isAlive() {
    return thread.isAlive();
  }

  /** Whether XID events are registered now: an XID from now on is delivered. */
  public boolean isWatching() {
    return watching;
  }

  private void run() {
    int failures = 0;
    while (!stopping) {
      Registered current = null;
      try {
        Registered pending = fresh.getAndSet(null);
        current = pending != null ? pending : nvml.inSequence(() -> register(resets.get()));
        watching = true;
        failures = 0;
        while (!stopping) {
          current = newest(current);
          Optional<EventData> event;
          try {
            event = nvml.waitForEvent(current.set(), WAIT);
          } catch (NvmlException e) {
            // a reset between the look at the newest set and the wait: the hook left the new one
            Registered newer = newest(current);
            if (newer == current) {
              throw e;
            }
            current = newer;
            continue;
          }
          if (event.isPresent() && event.get().isXid()) {
            deliver(event.get());
          }
        }
      } catch (NvmlException e) {
        if (stopping) {
          break;
        }
        failures++;
        Duration wait = backoff.delay(failures);
        log.warn("XID events stopped: {}; registering again in {}", e.getMessage(), wait);
        pause(wait);
      } catch (Throwable e) {
        if (stopping) {
          break;
        }
        failures++;
        Duration wait = backoff.delay(failures);
        log.error("XID watcher failed; registering again in {}", wait, e);
        pause(wait);
      } finally {
        watching = false;
        free(current);
      }
    }
  }

  /** The set registered after the latest reset, or {@code current} when there was none since. */
  private Registered newest(Registered current) {
    Registered newer = fresh.getAndSet(null);
    if (newer == null) {
      return current;
    }
    if (newer.reset() == current.reset()) {
      // the thread registered its own set after the hook ran: both are valid, one is enough
      free(newer);
      return current;
    }
    // the old set is stale (NVML was initialised again since): it is dropped, not freed
    return newer;
  }

  /**
   * The re-initialisation hook: runs while NVML is still held for the reset, so the new set is
   * registered before any call (and any XID the caller raises next) goes on.
   */
  private void registerAgain() {
    long reset = resets.incrementAndGet();
    fresh.set(null);
    if (stopping) {
      return;
    }
    try {
      fresh.set(register(reset));
    } catch (RuntimeException e) {
      log.warn(
          "XID events not registered again after NVML was initialised again: {}; the watcher"
              + " registers again after its next wait fails",
          e.getMessage());
    }
  }

  /** Creates a set and registers every GPU's XIDs into it; NVML is not released meanwhile. */
  private Registered register(long reset) {
    EventSetHandle set = nvml.createEventSet();
    try {
      registerXids(set);
    } catch (RuntimeException e) {
      nvml.freeEventSet(set);
      throw e;
    }
    return new Registered(set, reset);
  }

  private void registerXids(EventSetHandle set) {
    int registered = 0;
    int count = nvml.deviceCount();
    for (int i = 0; i < count; i++) {
      try {
        DeviceHandle device = nvml.deviceByIndex(i);
        if ((nvml.supportedEventTypes(device) & EventData.XID_CRITICAL_ERROR) != 0) {
          nvml.registerEvents(device, EventData.XID_CRITICAL_ERROR, set);
          registered++;
        } else {
          log.info("gpu={} does not report XID events; its health comes from NVML queries", i);
        }
      } catch (NvmlException e) {
        log.warn("gpu={} XID events not registered: {}", i, e.getMessage());
      }
    }
    log.info(
        "watching XID events on {} of {} GPUs{}",
        registered,
        count,
        resets.get() > 0 ? " (NVML was initialised again)" : "");
  }

  private void deliver(EventData event) {
    try {
      int gpu = nvml.index(event.device());
      int gi =
          event.gpuInstanceId() == ProcessInfo.NO_INSTANCE
              ? Usage.WHOLE_GPU
              : event.gpuInstanceId();
      sink.xid(new Xid(new GpuIndex(gpu), gi, event.eventData()));
    } catch (RuntimeException e) {
      log.error("XID {} could not be handled", event.eventData(), e);
    }
  }

  /** Frees a set unless NVML was initialised again since it was made. */
  private void free(Registered registered) {
    if (registered == null) {
      return;
    }
    try {
      nvml.inSequence(
          () -> {
            // a stale handle is not freed: after a re-initialisation freeing it is undefined
            if (registered.reset() == resets.get()) {
              nvml.freeEventSet(registered.set());
            }
            return null;
          });
    } catch (RuntimeException e) {
      log.debug("freeing the event set: {}", e.getMessage());
    }
  }

  private void pause(Duration wait) {
    try {
      TimeUnit.NANOSECONDS.sleep(wait.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopping = true;
    }
  }

  /** Stops the thread; it ends within one wait for an event (half a second). */
  @Override
  public void close() {
    stopping = true;
    Nvml.Registration added = hook;
    if (added != null) {
      added.close();
    }
    try {
      thread.join(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // taken inside a sequence, so a hook still running for a reset in progress has finished
    try {
      nvml.inSequence(
          () -> {
            free(fresh.getAndSet(null));
            return null;
          });
    } catch (RuntimeException e) {
      log.debug("freeing the event set: {}", e.getMessage());
    }
  }
}
