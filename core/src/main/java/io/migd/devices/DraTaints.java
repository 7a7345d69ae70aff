package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.pool.DeviceTaints;
import io.migd.pool.HealthMarks;
import io.migd.reconcile.GpuReset;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Section 4's XID and recovery rules in dra mode, as device taints: a critical XID taints every
 * device of its GPU ({@code gpu_instance} all) or of the GPU instance it names with {@code
 * gpu.nvidia.com/xid} (value the XID, {@code NoSchedule}); a GPU NVML reports lost is tainted
 * {@code gpu.nvidia.com/gpu-lost}. A taint is removed again once no critical XID came for the
 * recovery period and NVML answers for the GPU, and a GPU's taints go when it is reset. Application
 * XIDs ({@link DeviceHealth#isApplicationXid}) taint nothing. Thread-safe; NVML is asked outside
 * the lock.
 */
public final class DraTaints implements HealthMarks {
  private static final Logger log = LoggerFactory.getLogger(DraTaints.class);

  private record Where(GpuIndex gpu, int gpuInstanceId) {}

  /**
   * A critical XID and when it came; {@code seen} once the pool was built with its GPU instance
   * there, so that instance's later absence means it was destroyed.
   */
  private record Mark(long xid, Instant at, boolean seen) {
    boolean sameXid(Mark other) {
      return other != null && other.xid == xid && other.at.equals(at);
    }
  }

  private final Map<Where, Mark> marks = new HashMap<>();

  /**
   * An XID happened; returns whether it tainted something (a critical XID).
   *
   * @param gpuInstanceId the GPU instance it names, or {@link Usage#WHOLE_GPU}
   */
  public boolean onXid(GpuIndex gpu, int gpuInstanceId, long xid, Instant at) {
    if (DeviceHealth.isApplicationXid(xid)) {
      log.info("xid={} gpu={} is an application error: its devices stay untainted", xid, gpu);
      return false;
    }
    synchronized (this) {
      marks.put(new Where(gpu, gpuInstanceId), new Mark(xid, at, false));
    }
    log.warn(
        "xid={} gpu={} gpu_instance={} taints its devices {}={} NoSchedule",
        xid,
        gpu,
        gpuInstanceId == Usage.WHOLE_GPU ? "all" : Integer.toString(gpuInstanceId),
        DeviceTaints.XID_KEY,
        xid);
    return true;
  }

  /** {@code reset}, clearing a GPU's taints when it was reset. */
  public GpuReset watching(GpuReset reset) {
    return gpu -> {
      GpuReset.Result result = reset.reset(gpu);
      if (result instanceof GpuReset.Result.Done) {
        gpuReset(gpu.index());
      }
      return result;
    };
  }

  /** The GPU was reset: what its XIDs reported is cleared. */
  public void gpuReset(GpuIndex gpu) {
    synchronized (this) {
      marks.keySet().removeIf(w -> w.gpu().equals(gpu));
    }
  }

  /**
   * Clears the taints of GPUs whose last critical XID is at least {@code recoveryPeriod} old and
   * that NVML answers for ({@code nvmlAnswers}, asked outside the lock); returns whether any went.
   */
  public boolean recover(Instant now, Duration recoveryPeriod, Predicate<GpuIndex> nvmlAnswers) {
    Map<Where, Mark> due = new HashMap<>();
    synchronized (this) {
      marks.forEach(
          (where, mark) -> {
            if (!mark.at().plus(recoveryPeriod).isAfter(now)) {
              due.put(where, mark);
            }
          });
    }
    var cleared = new ArrayList<Where>();
    due.forEach(
        (where, mark) -> {
          boolean answers;
          try {
            answers = nvmlAnswers.test(where.gpu());
          } catch (RuntimeException e) {
            answers = false;
          }
          if (answers) {
            synchronized (this) {
              // a new XID while NVML was asked renews the mark: only the one asked about goes
              if (mark.sameXid(marks.get(where))) {
                marks.remove(where);
                cleared.add(where);
              }
            }
          }
        });
    cleared.forEach(
        w ->
            log.info(
                "gpu={} gpu_instance={} taint {} removed: no critical XID for {} and NVML answers",
                w.gpu(),
                w.gpuInstanceId() == Usage.WHOLE_GPU ? "all" : Integer.toString(w.gpuInstanceId()),
                DeviceTaints.XID_KEY,
                recoveryPeriod));
    return !cleared.isEmpty();
  }

  /**
   * The GPU instances NVML shows on {@code gpu} now, as the pool is built: an XID mark on a GPU
   * instance that was there before and is gone now goes with it, so it never taints the next
   * instance NVML gives the same id (GPU instance ids are reused: issue 29). A mark whose instance
   * has not been seen yet stays: the XID may have come before the observation that shows it.
   */
  @Override
  public void instancesObserved(GpuIndex gpu, Set<Integer> gpuInstanceIds) {
    var gone = new ArrayList<Where>();
    synchronized (this) {
      for (var entry : marks.entrySet()) {
        Where where = entry.getKey();
        if (!where.gpu().equals(gpu) || where.gpuInstanceId() == Usage.WHOLE_GPU) {
          continue;
        }
        Mark mark = entry.getValue();
        if (gpuInstanceIds.contains(where.gpuInstanceId())) {
          if (!mark.seen()) {
            entry.setValue(new Mark(mark.xid(), mark.at(), true));
          }
        } else if (mark.seen()) {
          gone.add(where);
        }
      }
      gone.forEach(marks::remove);
    }
    gone.forEach(
        w ->
            log.info(
                "gpu={} gpu_instance={} taint {} removed: the GPU instance is gone",
                w.gpu(),
                w.gpuInstanceId(),
                DeviceTaints.XID_KEY));
  }

  /**
   * The health marks now, for the pool to turn into taints: each GPU or GPU instance's latest
   * critical XID, and {@code gpu-lost} for each GPU of {@code lostGpus}.
   */
  @Override
  public DeviceTaints marks(Set<GpuIndex> lostGpus) {
    var marks = new ArrayList<DeviceTaints.Mark>();
    synchronized (this) {
      // oldest first: the pool takes the latest XID of a device
      this.marks.entrySet().stream()
          .sorted(Comparator.comparing(e -> e.getValue().at()))
          .forEach(
              e ->
                  marks.add(
                      new DeviceTaints.Mark.Xid(
                          e.getKey().gpu(), e.getKey().gpuInstanceId(), e.getValue().xid())));
    }
    lostGpus.stream().sorted().forEach(gpu -> marks.add(new DeviceTaints.Mark.GpuLost(gpu)));
    return new DeviceTaints(marks);
  }
}
