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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for NVML's critical XID events on every GPU, on a thread of its own, and hands each to a
 * sink. When NVML fails (a GPU reset re-initialises it, for instance) it drops the event set, backs
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
  }

  private final Nvml nvml;
  private final Sink sink;
  private final Backoff backoff;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile boolean watching;

  /** A watcher that is not started yet. */
  public XidWatcher(Nvml nvml, Sink sink, Backoff backoff) {
    this.nvml = nvml;
    this.sink = sink;
    this.backoff = backoff;
    this.thread = Thread.ofPlatform().name("migd-xid-events").daemon(true).unstarted(this::run);
  }

  /** Starts watching. */
  public void start() {
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
      EventSetHandle set = null;
      try {
        set = register();
        watching = true;
        failures = 0;
        while (!stopping) {
          Optional<EventData> event = nvml.waitForEvent(set, WAIT);
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
        free(set);
      }
    }
  }

  private EventSetHandle register() {
    EventSetHandle set = nvml.createEventSet();
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
    log.info("watching XID events on {} of {} GPUs", registered, count);
    return set;
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

  private void free(EventSetHandle set) {
    if (set == null) {
      return;
    }
    try {
      nvml.freeEventSet(set);
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
    try {
      thread.join(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
