package io.migd.app;

import io.migd.devices.DraTaints;
import io.migd.layout.GpuIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * One run of the tainted devices' recovery ({@link DraTaints#recover}): a taint older than the
 * recovery period goes while NVML answers for its GPU, and the pool is rebuilt when one went.
 */
final class TaintRecovery implements Runnable {
  private final DraTaints taints;
  private final Duration period;
  private final Predicate<GpuIndex> nvmlAnswers;
  private final Runnable rebuild;
  private final Clock clock;

  TaintRecovery(
      DraTaints taints,
      Duration period,
      Predicate<GpuIndex> nvmlAnswers,
      Runnable rebuild,
      Clock clock) {
    this.taints = taints;
    this.period = period;
    this.nvmlAnswers = nvmlAnswers;
    this.rebuild = rebuild;
    this.clock = clock;
  }

  @Override
  public void run() {
    if (taints.recover(clock.instant(), period, nvmlAnswers)) {
      rebuild.run();
    }
  }
}
