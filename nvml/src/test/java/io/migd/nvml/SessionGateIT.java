package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Calls from several threads at once, and the session gate a release of NVML (a GPU reset) waits
 * on: calls in flight end first, and the handles they hold stay valid until they do.
 */
class SessionGateIT {
  private final SimNode node = SimNode.start("A100-SXM4-40GB,A100-SXM4-40GB");

  @AfterEach
  void stop() {
    node.close();
  }

  @Test
  void callsOnSeveralThreadsAtOnceAnswerAsOnOne() {
    var uuids =
        IntStream.range(0, 16)
            .parallel()
            .mapToObj(i -> node.nvml.uuid(node.nvml.deviceByIndex(i % 2)))
            .distinct()
            .toList();
    assertThat(uuids).hasSize(2);
  }

  @Test
  void anErrorIsThrownOnTheCallersThread() {
    // the stack names this method only if the call ran on this thread, not on a hand-off thread
    assertThatThrownBy(() -> node.nvml.deviceByIndex(7))
        .isInstanceOf(NvmlException.class)
        .satisfies(
            e ->
                assertThat(e.getStackTrace())
                    .anyMatch(f -> f.getMethodName().equals("anErrorIsThrownOnTheCallersThread")));
  }

  @Test
  void aReleaseWaitsForASequenceInFlightWhoseHandlesStayValidToItsEnd() throws Exception {
    var inSequence = new CountDownLatch(1);
    var released = new CountDownLatch(1);
    var sequence =
        CompletableFuture.supplyAsync(
            () ->
                node.nvml.inSequence(
                    () -> {
                      DeviceHandle gpu = node.nvml.deviceByIndex(1);
                      inSequence.countDown();
                      try {
                        boolean releasedMeanwhile = released.await(300, TimeUnit.MILLISECONDS);
                        // the handle taken before still answers: NVML was not released under it
                        return releasedMeanwhile + " " + node.nvml.uuid(gpu);
                      } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                      }
                    }));
    assertThat(inSequence.await(10, TimeUnit.SECONDS)).isTrue();
    var release =
        CompletableFuture.runAsync(
            () ->
                node.nvml.whileReleased(
                    () -> {
                      released.countDown();
                      return null;
                    }));

    String answer = sequence.get(10, TimeUnit.SECONDS);
    release.get(10, TimeUnit.SECONDS);
    assertThat(answer).startsWith("false GPU-");
    assertThat(node.nvml.deviceCount()).as("NVML is back after the release").isEqualTo(2);
  }

  @Test
  void aReaderWithABoundedWaitGivesUpWhileTheReleaseIsStillHeld() throws Exception {
    var held = new CountDownLatch(1);
    var letGo = new CountDownLatch(1);
    var release =
        CompletableFuture.runAsync(
            () ->
                node.nvml.whileReleased(
                    () -> {
                      held.countDown();
                      try {
                        return letGo.await(60, TimeUnit.SECONDS);
                      } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                      }
                    }));
    assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();

    assertThatThrownBy(() -> node.nvml.inSequence(Duration.ofMillis(50), node.nvml::deviceCount))
        .isInstanceOf(NvmlReleasedException.class)
        .hasMessageContaining("released");
    assertThat(release).as("the reader answered while NVML was still released").isNotDone();

    letGo.countDown();
    release.get(10, TimeUnit.SECONDS);
    assertThat(node.nvml.inSequence(Duration.ofMillis(50), node.nvml::deviceCount)).isEqualTo(2);
  }

  @Test
  void releasingInsideASequenceIsRefusedInsteadOfWaitingForItself() {
    assertThatThrownBy(() -> node.nvml.inSequence(() -> node.nvml.whileReleased(() -> null)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inSequence");
    assertThat(node.nvml.deviceCount()).isEqualTo(2);
  }

  @Test
  void aHookRegistersAnEventSetAgainBeforeTheReleaseReturnsAndAFailingOneDoesNotFailIt() {
    var set = new AtomicReference<EventSetHandle>();
    var runs = new AtomicInteger();
    node.nvml.onReinitialised(
        () -> {
          throw new IllegalStateException("a broken hook");
        });
    Nvml.Registration registration =
        node.nvml.onReinitialised(
            () -> {
              runs.incrementAndGet();
              EventSetHandle created = node.nvml.createEventSet();
              node.nvml.registerEvents(
                  node.nvml.deviceByIndex(1), EventData.XID_CRITICAL_ERROR, created);
              set.set(created);
            });

    node.nvml.whileReleased(() -> node.sim.resetGpu(1));
    node.sim.require("xid", "--gpu", "1", "--xid", "79");

    assertThat(node.nvml.waitForEvent(set.get(), Duration.ofSeconds(5)))
        .as("the XID raised right after the release, on the set the hook registered")
        .hasValueSatisfying(event -> assertThat(event.eventData()).isEqualTo(79));
    registration.close();
    node.nvml.whileReleased(() -> null);
    assertThat(runs).as("a removed hook does not run again").hasValue(1);
  }

  @Test
  void aHookCannotWaitForAnEventWhileNvmlIsHeldForIt() {
    var refused = new AtomicReference<Throwable>();
    EventSetHandle set = node.nvml.createEventSet();
    node.nvml.onReinitialised(
        () -> {
          try {
            node.nvml.waitForEvent(set, Duration.ofMillis(10));
          } catch (IllegalStateException e) {
            refused.set(e);
          }
        });

    node.nvml.whileReleased(() -> null);

    assertThat(refused.get())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no NVML event wait while NVML is released");
    assertThat(node.nvml.deviceCount()).isEqualTo(2);
  }
}
