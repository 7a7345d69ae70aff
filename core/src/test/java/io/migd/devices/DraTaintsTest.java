package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.pool.DeviceTaints;
import io.migd.pool.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DraTaintsTest {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
  private static final Duration PERIOD = Duration.ofMinutes(5);
  private static final Taint XID_79 =
      new Taint(DeviceTaints.XID_KEY, "79", Taint.Effect.NO_SCHEDULE);

  private final DraTaints taints = new DraTaints();

  @Test
  void aWholeGpuXidTaintsEveryDeviceOfThatGpuOnlyAndClearsAfterThePeriod() {
    assertThat(taints.onXid(GPU0, Usage.WHOLE_GPU, 79, T0)).isTrue();

    assertThat(taints.marks(Set.of()).of(GPU0, 3)).containsExactly(XID_79);
    assertThat(taints.marks(Set.of()).of(GPU0, Usage.WHOLE_GPU)).containsExactly(XID_79);
    assertThat(taints.marks(Set.of()).of(GPU1, Usage.WHOLE_GPU)).isEmpty();

    assertThat(taints.recover(T0.plus(PERIOD).minusSeconds(1), PERIOD, gpu -> true)).isFalse();
    assertThat(taints.recover(T0.plus(PERIOD), PERIOD, gpu -> false))
        .as("NVML does not answer for the GPU: the taint stays")
        .isFalse();
    assertThat(taints.marks(Set.of()).of(GPU0, 3)).containsExactly(XID_79);
    assertThat(taints.recover(T0.plus(PERIOD), PERIOD, gpu -> true)).isTrue();
    assertThat(taints.marks(Set.of()).of(GPU0, 3)).isEmpty();
  }

  @Test
  void anInstanceXidTaintsThatInstanceOnlyAndAnApplicationXidNothing() {
    taints.onXid(GPU0, 3, 94, T0);
    assertThat(taints.onXid(GPU0, Usage.WHOLE_GPU, 13, T0))
        .as("XID 13 is the application's")
        .isFalse();

    assertThat(taints.marks(Set.of()).of(GPU0, 3))
        .containsExactly(new Taint(DeviceTaints.XID_KEY, "94", Taint.Effect.NO_SCHEDULE));
    assertThat(taints.marks(Set.of()).of(GPU0, 5)).isEmpty();
  }

  @Test
  void aLostGpuIsTaintedWhileLostAndAResetClearsItsXids() {
    taints.onXid(GPU1, Usage.WHOLE_GPU, 79, T0);
    assertThat(taints.marks(Set.of(GPU1)).of(GPU1, Usage.WHOLE_GPU))
        .containsExactlyInAnyOrder(
            XID_79, new Taint(DeviceTaints.GPU_LOST_KEY, "", Taint.Effect.NO_SCHEDULE));

    taints.gpuReset(GPU1);
    assertThat(taints.marks(Set.of()).of(GPU1, Usage.WHOLE_GPU)).isEmpty();
  }

  /** GPU instance ids are reused: a taint goes with the instance it was on (issue 29). */
  @Test
  void anInstanceXidGoesOnceItsInstanceWasSeenAndIsGone() {
    taints.onXid(GPU0, 3, 94, T0);
    var xid94 = new Taint(DeviceTaints.XID_KEY, "94", Taint.Effect.NO_SCHEDULE);

    taints.instancesObserved(GPU0, Set.of());
    assertThat(taints.marks(Set.of()).of(GPU0, 3))
        .as("not seen yet: the XID may predate the observation that shows the instance")
        .containsExactly(xid94);
    taints.instancesObserved(GPU0, Set.of(3));
    taints.instancesObserved(GPU1, Set.of());
    assertThat(taints.marks(Set.of()).of(GPU0, 3)).containsExactly(xid94);

    taints.instancesObserved(GPU0, Set.of(5));
    taints.instancesObserved(GPU0, Set.of(3, 5));

    assertThat(taints.marks(Set.of()).of(GPU0, 3)).isEmpty();
  }
}
