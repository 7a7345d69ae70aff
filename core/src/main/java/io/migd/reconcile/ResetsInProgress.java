package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The GPU resets running now, so a reader that gives up waiting for NVML can say which reset it
 * waited for. {@link #tracking} wraps the node's {@link GpuReset}.
 */
public final class ResetsInProgress {
  private final Map<GpuIndex, Reset> running = new ConcurrentHashMap<>();
  private final Clock clock;

  /** Resets timed by {@code clock}. */
  public ResetsInProgress(Clock clock) {
    this.clock = clock;
  }

  /** One reset under way: the GPU, its PCI bus id, and when it began. */
  public record Reset(GpuIndex gpu, String pciBusId, Instant since) {
    /** One phrase for people: {@code GPU 1 (00000000:1A:00.0) is being reset since ...}. */
    public String describe() {
      return "GPU " + gpu + " (" + pciBusId + ") is being reset since " + since;
    }
  }

  /** {@code reset}, recorded here from before it begins until it has ended. */
  public GpuReset tracking(GpuReset reset) {
    return gpu -> {
      running.put(gpu.index(), new Reset(gpu.index(), gpu.pci().busId(), clock.instant()));
      try {
        return reset.reset(gpu);
      } finally {
        running.remove(gpu.index());
      }
    };
  }

  /** The resets under way, in GPU order. */
  public List<Reset> now() {
    return running.values().stream().sorted(Comparator.comparing(Reset::gpu)).toList();
  }
}
