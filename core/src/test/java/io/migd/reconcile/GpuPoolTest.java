package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.layout.GpuIndex;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class GpuPoolTest {
  private static final List<GpuIndex> EIGHT =
      IntStream.range(0, 8).mapToObj(GpuIndex::new).toList();

  @Test
  void everyGpuRunsAtOnceByDefaultOnAThreadNamedForIt() {
    var allStarted = new CountDownLatch(EIGHT.size());
    var results =
        new GpuPool(0)
            .each(
                EIGHT,
                gpu -> {
                  allStarted.countDown();
                  try {
                    // only returns true if all eight tasks run at the same time
                    return allStarted.await(10, TimeUnit.SECONDS)
                        + " "
                        + Thread.currentThread().getName();
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                });
    assertThat(results.keySet()).containsExactlyElementsOf(EIGHT);
    results.forEach(
        (gpu, result) -> assertThat(result).isEqualTo("true reconcile-gpu-" + gpu.value()));
  }

  @Test
  void parallelismOneRunsTheGpusOneAfterAnotherInOrder() {
    var running = new AtomicInteger();
    var most = new AtomicInteger();
    var order = new ConcurrentLinkedQueue<Integer>();
    new GpuPool(1)
        .each(
            EIGHT,
            gpu -> {
              most.accumulateAndGet(running.incrementAndGet(), Math::max);
              order.add(gpu.value());
              Thread.yield();
              running.decrementAndGet();
              return gpu;
            });
    assertThat(most.get()).isEqualTo(1);
    assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
  }

  @Test
  void aGpuThatThrowsDoesNotStopTheOthersAndItsErrorIsThrownOnceAllEnded() {
    var ended = new ConcurrentLinkedQueue<Integer>();
    assertThatThrownBy(
            () ->
                new GpuPool(0)
                    .each(
                        EIGHT,
                        gpu -> {
                          if (gpu.value() == 3) {
                            throw new IllegalStateException("GPU 3 broke");
                          }
                          ended.add(gpu.value());
                          return gpu;
                        }))
        .hasMessage("GPU 3 broke");
    assertThat(ended).containsExactlyInAnyOrder(0, 1, 2, 4, 5, 6, 7);
  }

  @Test
  void aNegativeParallelismIsRefused() {
    assertThatThrownBy(() -> new GpuPool(-1)).hasMessageContaining("parallelism");
  }
}
