package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlException;
import java.util.SequencedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node as it is after a reconcile: GPUs whose result says nothing was done keep their first
 * observation; the others are observed again (one NVML fails on keeps the error, as one that could
 * not be observed at first does).
 */
final class ObserveAgain {
  private static final Logger log = LoggerFactory.getLogger(ObserveAgain.class);

  private ObserveAgain() {}

  /**
   * {@code before} with every GPU the reconcile touched (as {@code results} say) observed again.
   */
  static ObservedNode after(
      NodeObserver observer,
      GpuPool pool,
      ObservedNode before,
      SequencedMap<GpuIndex, Outcome.Gpu> results) {
    record Again(ObservedGpu gpu, NvmlException error) {}
    var again =
        pool.each(
            before.gpus().stream().map(ObservedGpu::index).toList(),
            gpu -> {
              if (untouched(results.get(gpu).result())) {
                return null;
              }
              try {
                return new Again(observer.observe(gpu), null);
              } catch (NvmlException e) {
                log.warn("gpu={} cannot be observed after its reconcile: {}", gpu, e.getMessage());
                return new Again(null, e);
              } catch (RuntimeException e) {
                // not NVML's: the first observation stands, and the next reconcile looks again
                log.error("gpu={} observing after its reconcile failed, a bug in migd", gpu, e);
                return null;
              }
            });
    ObservedNode after = before;
    for (var entry : again.entrySet()) {
      Again one = entry.getValue();
      after = one.error() == null ? after.with(one.gpu()) : after.with(entry.getKey(), one.error());
    }
    return after;
  }

  /** Whether a GPU that ended with {@code result} was left as it was observed. */
  private static boolean untouched(GpuResult result) {
    return switch (result) {
      case GpuResult.InSync _, GpuResult.Unmanaged _, GpuResult.Infeasible _ -> true;
      case GpuResult.Applied _,
          GpuResult.Applying _,
          GpuResult.Blocked _,
          GpuResult.AwaitingModeChange _,
          GpuResult.Rebooting _,
          GpuResult.Failed _ ->
          false;
    };
  }
}
