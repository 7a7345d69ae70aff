package io.migd.app;

import io.migd.devices.DraTaints;
import io.migd.devices.XidWatcher;
import io.migd.layout.GpuIndex;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * An XID from NVML taints the device it names ({@link DraTaints#onXid}); when that changed the
 * taints, the GPU is observed again and the pool rebuilt, so the taint is published at once.
 */
final class XidTaintSink implements XidWatcher.Sink {
  private final DraTaints taints;
  private final Consumer<GpuIndex> observeAgain;
  private final Runnable rebuild;
  private final Clock clock;

  XidTaintSink(DraTaints taints, Consumer<GpuIndex> observeAgain, Runnable rebuild, Clock clock) {
    this.taints = taints;
    this.observeAgain = observeAgain;
    this.rebuild = rebuild;
    this.clock = clock;
  }

  @Override
  public void xid(XidWatcher.Xid xid) {
    if (taints.onXid(xid.gpu(), xid.gpuInstanceId(), xid.code(), clock.instant())) {
      observeAgain.accept(xid.gpu());
      rebuild.run();
    }
  }
}
