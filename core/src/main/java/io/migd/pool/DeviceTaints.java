package io.migd.pool;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What health checking says of the node's devices now, as the pool turns it into device taints:
 * {@code gpu.nvidia.com/xid} (value the XID, {@code NoSchedule}) and {@code
 * gpu.nvidia.com/gpu-lost} ({@code NoSchedule}). A mark that is gone takes its taint with it at the
 * next build, so taints clear when a device recovers.
 */
public record DeviceTaints(List<Mark> marks) {
  /** The key of an XID taint. */
  public static final String XID_KEY = "gpu.nvidia.com/xid";

  /** The key of a lost GPU's taint. */
  public static final String GPU_LOST_KEY = "gpu.nvidia.com/gpu-lost";

  /** Every device healthy. */
  public static final DeviceTaints NONE = new DeviceTaints(List.of());

  /** Something wrong with a GPU or one of its GPU instances. */
  public sealed interface Mark {
    /** The GPU it is on. */
    GpuIndex gpu();

    /**
     * A critical XID on a GPU, as {@code XidWatcher} reports it: on every device of the GPU when
     * {@code gpuInstanceId} is {@link Usage#WHOLE_GPU}, else on the devices of that GPU instance.
     */
    record Xid(GpuIndex gpu, int gpuInstanceId, long code) implements Mark {
      /** Checks every part is there. */
      public Xid {
        Objects.requireNonNull(gpu);
      }
    }

    /** NVML no longer answers for the GPU: every device of it. */
    record GpuLost(GpuIndex gpu) implements Mark {
      /** Checks every part is there. */
      public GpuLost {
        Objects.requireNonNull(gpu);
      }
    }
  }

  /** Copies the list. */
  public DeviceTaints {
    marks = List.copyOf(marks);
  }

  /**
   * The taints of one device: on {@code gpu}, in GPU instance {@code gpuInstanceId} ({@link
   * Usage#WHOLE_GPU} for a whole GPU and for a placement that does not exist). One taint per key;
   * the latest XID wins.
   */
  public List<Taint> of(GpuIndex gpu, int gpuInstanceId) {
    Taint lost = null;
    Taint xid = null;
    for (Mark mark : marks) {
      if (!mark.gpu().equals(gpu)) {
        continue;
      }
      switch (mark) {
        case Mark.GpuLost _ -> lost = new Taint(GPU_LOST_KEY, "", Taint.Effect.NO_SCHEDULE);
        case Mark.Xid(var _, var instance, var code) -> {
          if (instance == Usage.WHOLE_GPU || instance == gpuInstanceId) {
            xid = new Taint(XID_KEY, Long.toString(code), Taint.Effect.NO_SCHEDULE);
          }
        }
      }
    }
    var taints = new ArrayList<Taint>(2);
    if (xid != null) {
      taints.add(xid);
    }
    if (lost != null) {
      taints.add(lost);
    }
    return taints;
  }
}
