package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.devices.DraTaints;
import io.migd.devices.XidWatcher;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.pool.DeviceTaints;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A critical XID taints and republishes at once; an application XID changes nothing. */
class XidTaintSinkTest {
  private static final GpuIndex GPU1 = new GpuIndex(1);

  private final DraTaints taints = new DraTaints();
  private final ArrayList<GpuIndex> observed = new ArrayList<>();
  private final AtomicInteger rebuilds = new AtomicInteger();
  private final XidTaintSink sink =
      new XidTaintSink(
          taints,
          observed::add,
          rebuilds::incrementAndGet,
          Clock.fixed(Instant.parse("2026-11-29T08:00:00Z"), ZoneOffset.UTC));

  @Test
  void aCriticalXidTaintsTheGpuThenObservesItAgainAndRebuildsThePool() {
    sink.xid(new XidWatcher.Xid(GPU1, Usage.WHOLE_GPU, 79));

    assertThat(taints.marks(Set.of()).marks())
        .containsExactly(new DeviceTaints.Mark.Xid(GPU1, Usage.WHOLE_GPU, 79));
    assertThat(observed).containsExactly(GPU1);
    assertThat(rebuilds).hasValue(1);
  }

  @Test
  void anApplicationXidNeitherObservesNorRebuilds() {
    sink.xid(new XidWatcher.Xid(GPU1, Usage.WHOLE_GPU, 13));

    assertThat(taints.marks(Set.of()).marks()).isEmpty();
    assertThat(observed).isEmpty();
    assertThat(rebuilds).hasValue(0);
  }
}
