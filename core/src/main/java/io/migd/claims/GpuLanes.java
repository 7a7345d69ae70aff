package io.migd.claims;

import io.migd.layout.GpuIndex;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread per GPU for the claims' NVML sequences: a GPU runs one sequence at a time, GPUs run at
 * once, and nobody holds a lock while NVML works. A timer hands delayed work (an instance kept for
 * reuse, then destroyed) to the GPU's thread.
 */
final class GpuLanes implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GpuLanes.class);

  private final Map<GpuIndex, ExecutorService> lanes = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("migd-claims-timer").factory());

  /** Runs {@code work} on the GPU's thread and waits for it; its exception is rethrown here. */
  <T> T run(GpuIndex gpu, Supplier<T> work) {
    Future<T> future = lane(gpu).submit(work::get);
    try {
      return future.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("work on GPU " + gpu + " failed", e.getCause());
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for GPU " + gpu, e);
    }
  }

  /**
   * Runs {@code work} on the GPU's thread after {@code delay} (without one: queued at once, behind
   * the work queued before); a failure is logged.
   */
  void later(GpuIndex gpu, Duration delay, Runnable work) {
    Runnable logged =
        () -> {
          try {
            work.run();
          } catch (RuntimeException e) {
            log.warn("gpu={} delayed claim work failed: {}", gpu, e.toString(), e);
          }
        };
    if (delay.isZero()) {
      lane(gpu).execute(logged);
      return;
    }
    timer.schedule(() -> lane(gpu).execute(logged), delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  private ExecutorService lane(GpuIndex gpu) {
    return lanes.computeIfAbsent(
        gpu,
        g ->
            Executors.newSingleThreadExecutor(
                Thread.ofPlatform().daemon().name("migd-claims-gpu-" + g).factory()));
  }

  @Override
  public void close() {
    timer.shutdownNow();
    lanes.values().forEach(ExecutorService::shutdown);
  }
}
