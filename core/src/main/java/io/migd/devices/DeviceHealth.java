package io.migd.devices;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which devices critical XIDs made unhealthy, and the ways back: a GPU reset, the instance
 * destroyed (a re-created one starts healthy), or a recovery period without a new critical XID
 * while NVML still answers for the device. Called from the XID thread, the reconcile thread and the
 * kubelet's gRPC threads.
 */
public final class DeviceHealth {
  private static final Logger log = LoggerFactory.getLogger(DeviceHealth.class);

  // NVIDIA's device plugin ignores these: they report an application's fault, not the GPU's.
  private static final Set<Long> APPLICATION_XIDS = Set.of(13L, 31L, 43L, 45L, 68L, 109L);

  /** A device is marked per resource as well as ID: a MIG UUID can return under another profile. */
  private record Key(String resource, String id) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = resource.compareTo(o.resource);
      return c != 0 ? c : id.compareTo(o.id);
    }
  }

  private record Mark(Device device, long xid, Instant lastXid) {}

  private final Map<Key, Mark> marks = new HashMap<>();

  /** Parents whose MPS control daemon is gone: their MPS replicas cannot serve a client. */
  private final Set<String> mpsDown = new HashSet<>();

  /** Whether an XID reports an application's error, which leaves the devices healthy. */
  public static boolean isApplicationXid(long xid) {
    return APPLICATION_XIDS.contains(xid);
  }

  /**
   * Marks unhealthy every device of {@code current} that a critical XID on a GPU (or one of its GPU
   * instances; {@link Usage#WHOLE_GPU} for the whole GPU) affects, every replica and resource
   * included. Returns whether a mark was made or renewed.
   */
  public boolean onXid(Inventory current, GpuIndex gpu, int gpuInstanceId, long xid, Instant at) {
    String where = "xid=" + xid + " gpu=" + gpu + " gpu_instance=" + instance(gpuInstanceId);
    if (isApplicationXid(xid)) {
      log.info("{} is an application error: devices stay healthy", where);
      return false;
    }
    var ids = new TreeSet<String>();
    synchronized (this) {
      current
          .resources()
          .forEach(
              (resource, devices) -> {
                for (Device d : devices) {
                  if (d.gpu().equals(gpu)
                      && (gpuInstanceId == Usage.WHOLE_GPU || d.gpuInstanceId() == gpuInstanceId)) {
                    marks.put(new Key(resource, d.id()), new Mark(d, xid, at));
                    ids.add(d.id());
                  }
                }
              });
    }
    log.warn("{} marked={} devices unhealthy: {}", where, ids.size(), String.join(", ", ids));
    return !ids.isEmpty();
  }

  /**
   * The MPS control daemon of {@code parentUuid} is gone: its MPS replicas are unhealthy until it
   * runs again. Returns whether that changed anything.
   */
  public synchronized boolean mpsDaemonDown(String parentUuid) {
    boolean changed = mpsDown.add(parentUuid);
    if (changed) {
      log.warn("mps uuid={} daemon gone: its replicas are unhealthy", parentUuid);
    }
    return changed;
  }

  /** The MPS control daemon of {@code parentUuid} runs: its replicas are healthy again. */
  public synchronized boolean mpsDaemonUp(String parentUuid) {
    boolean changed = mpsDown.remove(parentUuid);
    if (changed) {
      log.info("mps uuid={} daemon runs again: its replicas are healthy", parentUuid);
    }
    return changed;
  }

  /** The inventory with every marked device unhealthy. */
  public synchronized Inventory apply(Inventory inventory) {
    if (marks.isEmpty() && mpsDown.isEmpty()) {
      return inventory;
    }
    var resources = new TreeMap<String, List<Device>>();
    inventory
        .resources()
        .forEach(
            (resource, devices) ->
                resources.put(
                    resource,
                    devices.stream()
                        .map(
                            d ->
                                marks.containsKey(new Key(resource, d.id()))
                                        || (d.isMps() && mpsDown.contains(d.parentUuid()))
                                    ? d.withHealthy(false)
                                    : d)
                        .toList()));
    return new Inventory(resources, inventory.notes());
  }

  /** Whether a device of a resource is marked unhealthy. */
  public synchronized boolean isMarked(String resource, String id) {
    return marks.containsKey(new Key(resource, id));
  }

  /** A reset of the GPU cleared whatever the XIDs reported: its devices are healthy again. */
  public void gpuReset(GpuIndex gpu) {
    clear(m -> m.device().gpu().equals(gpu), "gpu=" + gpu + " was reset");
  }

  /**
   * A compute instance, or a whole GPU instance ({@code computeInstanceId} {@link
   * Usage#ALL_COMPUTE_INSTANCES}), was destroyed: whatever is created in its place starts healthy.
   */
  public void instanceGone(GpuIndex gpu, int gpuInstanceId, int computeInstanceId) {
    clear(
        m ->
            m.device().gpu().equals(gpu)
                && m.device().gpuInstanceId() == gpuInstanceId
                && (computeInstanceId == Usage.ALL_COMPUTE_INSTANCES
                    || m.device().computeInstanceId() == computeInstanceId),
        "gpu="
            + gpu
            + " gpu_instance="
            + gpuInstanceId
            + (computeInstanceId == Usage.ALL_COMPUTE_INSTANCES
                ? ""
                : " compute_instance=" + computeInstanceId)
            + " was destroyed");
  }

  /**
   * Clears the marks whose last critical XID is at least {@code recoveryPeriod} old and whose
   * device NVML still answers for ({@code nvmlAnswers}, asked outside the lock). Returns whether
   * any was cleared.
   */
  public boolean recover(Instant now, Duration recoveryPeriod, Predicate<Device> nvmlAnswers) {
    Map<Key, Mark> due = new TreeMap<>();
    synchronized (this) {
      marks.forEach(
          (key, mark) -> {
            if (!mark.lastXid().plus(recoveryPeriod).isAfter(now)) {
              due.put(key, mark);
            }
          });
    }
    var answering = new TreeMap<Key, Mark>();
    due.forEach(
        (key, mark) -> {
          if (answers(nvmlAnswers, mark.device())) {
            answering.put(key, mark);
          }
        });
    var cleared = new TreeSet<String>();
    synchronized (this) {
      // A new XID while NVML was asked renews the mark: only the mark that was asked about goes.
      answering.forEach(
          (key, mark) -> {
            if (marks.remove(key, mark)) {
              cleared.add(key.id());
            }
          });
    }
    if (!cleared.isEmpty()) {
      log.info(
          "recovered={} devices healthy: no critical XID for {} and NVML answers: {}",
          cleared.size(),
          recoveryPeriod,
          String.join(", ", cleared));
    }
    return !cleared.isEmpty();
  }

  private static boolean answers(Predicate<Device> nvmlAnswers, Device device) {
    try {
      return nvmlAnswers.test(device);
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void clear(Predicate<Mark> which, String reason) {
    var cleared = new TreeSet<String>();
    synchronized (this) {
      var it = marks.entrySet().iterator();
      while (it.hasNext()) {
        var e = it.next();
        if (which.test(e.getValue())) {
          cleared.add(e.getKey().id());
          it.remove();
        }
      }
    }
    if (!cleared.isEmpty()) {
      log.info(
          "{}: cleared={} devices healthy: {}", reason, cleared.size(), String.join(", ", cleared));
    }
  }

  private static String instance(int gpuInstanceId) {
    return gpuInstanceId == Usage.WHOLE_GPU ? "all" : Integer.toString(gpuInstanceId);
  }
}
