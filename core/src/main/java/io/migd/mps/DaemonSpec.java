package io.migd.mps;

import java.util.List;
import java.util.Objects;

/**
 * What migd asks the {@code -mps} DaemonSet's supervisor for in a {@code daemon.json}: one daemon's
 * device, whether it runs with {@code -M}, whether its device is a whole GPU (compute mode {@code
 * EXCLUSIVE_PROCESS} while it runs) and the limits it gives every client by default.
 *
 * @param device the GPU or MIG device UUID ({@code CUDA_VISIBLE_DEVICES})
 * @param limits at most one of each kind; a kind left out is MPS's own default (no limit)
 */
public record DaemonSpec(String device, boolean multiUser, boolean wholeGpu, List<Limit> limits) {
  /** Checks the device is there and copies the limits. */
  public DaemonSpec {
    Objects.requireNonNull(device);
    limits = List.copyOf(limits);
  }

  /** A default the daemon sets for its clients, by ordinal 0: the one device it sees. */
  public sealed interface Limit {
    /** {@code set_default_active_thread_percentage}. */
    record ActiveThreads(int percent) implements Limit {}

    /** {@code set_default_device_pinned_mem_limit 0 <mib>M}. */
    record PinnedMemory(long mib) implements Limit {}
  }
}
