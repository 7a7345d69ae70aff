package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.DeviceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The plumbing under {@link FfmNvml}: the NVML threads, the return-code check, timing and the small
 * marshalling helpers. The typed calls are split by subject over the classes of the chain
 * FfmNvmlCalls, FfmNvmlDevices, FfmNvmlMetrics, FfmNvmlInstances, FfmNvml (the way jextract splits
 * a large header).
 */
abstract class FfmNvmlCalls implements Nvml {
  static final int NAME_BUFFER = 96;
  static final int VERSION_BUFFER = 80;
  static final int GI_PROFILE_COUNT = 18;
  static final int CI_PROFILE_COUNT = 9;
  static final int MAX_COMPUTE_INSTANCES_PER_GI = 16;
  static final int GPM_VERSION = 1;

  final nvml_h raw;
  private final NvmlCallObserver observer;
  private final ExecutorService calls;
  final ExecutorService events;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final java.util.concurrent.atomic.AtomicLong nanosInNvml =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile Thread callThread;

  FfmNvmlCalls(NvmlLibrary library, NvmlCallObserver observer) {
    this.raw = library.raw;
    this.observer = observer;
    String name = "nvml-" + library.location().replaceAll(".*/", "");
    this.calls =
        Executors.newSingleThreadExecutor(Thread.ofPlatform().name(name).daemon(true).factory());
    this.events =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name(name + "-events").daemon(true).factory());
  }

  /**
   * Time spent on the NVML thread in calls of this session (the native call and its marshalling),
   * so benchmarks can tell migd's own time from the driver's. The event wait is not counted.
   */
  public java.time.Duration timeInNvml() {
    return java.time.Duration.ofNanos(nanosInNvml.get());
  }

  // ---- plumbing

  void run(Runnable body) {
    onCallThread(
        () -> {
          body.run();
          return null;
        });
  }

  <T> T onCallThread(Callable<T> body) {
    return on(calls, body, true, true);
  }

  @Override
  public <T> T inSequence(java.util.function.Supplier<T> body) {
    return on(calls, body::get, true, false);
  }

  @Override
  public <T> T whileReleased(java.util.function.Supplier<T> action) {
    return on(
        calls,
        () -> {
          int shutdown = raw.nvmlShutdown();
          // after an init that failed, NVML is already down: releasing it again must still let the
          // action run and NVML initialise again, or a failed re-init could never be retried
          if (shutdown != NvmlReturn.UNINITIALIZED.code()) {
            check("nvmlShutdown", shutdown);
          }
          try {
            return action.get();
          } finally {
            check("nvmlInit_v2", raw.nvmlInit_v2());
          }
        },
        true,
        false);
  }

  /**
   * Runs {@code body} on the call thread (directly when already there) or the event thread. Only
   * leaf calls are timed into {@link #timeInNvml()}, so a sequence does not count migd's own work
   * between its calls, and the hand-off between threads counts as migd's time.
   */
  <T> T on(ExecutorService executor, Callable<T> body, boolean isCallThread, boolean timed) {
    if (closed.get()) {
      throw new IllegalStateException("NVML was shut down");
    }
    if (isCallThread && Thread.currentThread() == callThread) {
      if (!timed) {
        return callUnchecked(body);
      }
      long start = System.nanoTime();
      try {
        return callUnchecked(body);
      } finally {
        nanosInNvml.addAndGet(System.nanoTime() - start);
      }
    }
    Future<T> future =
        executor.submit(
            () -> {
              if (isCallThread) {
                callThread = Thread.currentThread();
              }
              long start = System.nanoTime();
              try {
                return body.call();
              } finally {
                if (isCallThread && timed) {
                  nanosInNvml.addAndGet(System.nanoTime() - start);
                }
              }
            });
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(false);
      throw new IllegalStateException("interrupted while waiting for an NVML call", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  static <T> T callUnchecked(Callable<T> body) {
    try {
      return body.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reports the call and throws unless it succeeded; returns the code for callers that branch. */
  NvmlReturn check(String function, int rc) {
    NvmlReturn result = NvmlReturn.of(rc);
    observer.called(function, result);
    if (result != NvmlReturn.SUCCESS) {
      throw new NvmlException(function, result, "");
    }
    return result;
  }

  /** Reports the call and returns its code without throwing. */
  NvmlReturn observe(String function, int rc) {
    NvmlReturn result = NvmlReturn.of(rc);
    observer.called(function, result);
    return result;
  }

  static NvmlException failure(String function, NvmlReturn code) {
    return new NvmlException(function, code, "");
  }

  static MemorySegment ptr(long address) {
    return MemorySegment.ofAddress(address);
  }

  static MemorySegment dev(DeviceHandle d) {
    return ptr(d.address());
  }

  static String cString(MemorySegment buffer) {
    long size = buffer.byteSize();
    int length = 0;
    while (length < size && buffer.get(java.lang.foreign.ValueLayout.JAVA_BYTE, length) != 0) {
      length++;
    }
    byte[] bytes = new byte[length];
    MemorySegment.copy(buffer, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes, 0, length);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static InstancePlacement placement(int start, int size) {
    return new InstancePlacement(start, size);
  }

  interface IntOut {
    int call(MemorySegment out);
  }

  int readInt(String function, IntOut call) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_INT);
            check(function, call.call(out));
            return out.get(JAVA_INT, 0);
          }
        });
  }

  long readAddress(String function, IntOut call) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            check(function, call.call(out));
            return out.get(ADDRESS, 0).address();
          }
        });
  }

  // ---- lifecycle

  @Override
  public void close() {
    if (closed.get()) {
      return;
    }
    try {
      onCallThread(() -> check("nvmlShutdown", raw.nvmlShutdown()));
    } finally {
      closed.set(true);
      shutdownThreads();
    }
  }

  final void shutdownThreads() {
    calls.shutdownNow();
    events.shutdownNow();
  }
}
