package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import org.slf4j.MDC;

/**
 * Runs one task per GPU, at most {@code parallelism} at once (0: every GPU at once), each on a
 * platform thread named {@code reconcile-gpu-<index>} with the GPU in the log context ({@code
 * gpu}), and returns the results in the order of the GPUs given. With parallelism 1 the GPUs run
 * one after another in that order. Platform threads, because an NVML call pins a virtual thread to
 * its carrier for the call's whole duration.
 */
final class GpuPool implements NodeObserver.PerGpu {
  private final int parallelism;

  GpuPool(int parallelism) {
    if (parallelism < 0) {
      throw new IllegalArgumentException(
          "parallelism must be 0 (every GPU at once) or more, not " + parallelism);
    }
    this.parallelism = parallelism;
  }

  int parallelism() {
    return parallelism;
  }

  /**
   * The task's result for each GPU. A task that throws does not stop the others; once all have
   * ended, the first GPU's exception (in the order given) is thrown.
   */
  @Override
  public <R> SequencedMap<GpuIndex, R> each(Collection<GpuIndex> gpus, Function<GpuIndex, R> task) {
    var results = new ConcurrentHashMap<GpuIndex, R>();
    var failures = new ConcurrentHashMap<GpuIndex, Throwable>();
    var permits = new Semaphore(parallelism == 0 ? Math.max(1, gpus.size()) : parallelism, true);
    List<Thread> threads = new ArrayList<>();
    boolean interrupted = false;
    for (GpuIndex gpu : gpus) {
      permits.acquireUninterruptibly();
      threads.add(
          Thread.ofPlatform()
              .name("reconcile-gpu-" + gpu.value())
              .daemon(true)
              .start(
                  () -> {
                    try (var ignored = MDC.putCloseable("gpu", String.valueOf(gpu.value()))) {
                      R result = task.apply(gpu);
                      if (result != null) {
                        results.put(gpu, result);
                      }
                    } catch (Throwable t) {
                      failures.put(gpu, t);
                    } finally {
                      permits.release();
                    }
                  }));
    }
    // the steps a GPU has begun always end: a reconcile is never abandoned half-way
    for (Thread thread : threads) {
      while (true) {
        try {
          thread.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    for (GpuIndex gpu : gpus) {
      Throwable failure = failures.get(gpu);
      if (failure instanceof RuntimeException e) {
        throw e;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      if (failure != null) {
        throw new IllegalStateException(failure);
      }
    }
    var ordered = new LinkedHashMap<GpuIndex, R>();
    for (GpuIndex gpu : gpus) {
      R result = results.get(gpu);
      if (result != null) {
        ordered.put(gpu, result);
      }
    }
    return ordered;
  }
}
