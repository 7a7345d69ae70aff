package io.migd.devices;

import io.migd.layout.ObservedGpu;
import io.migd.layout.PciSysfs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NUMA node of each GPU as sysfs tells it ({@code <root>/bus/pci/devices/<bus id>/numa_node},
 * through {@link PciSysfs}), read once per bus id: a GPU does not move while the driver runs. A
 * file that cannot be read gives no node and is read again next time, logged once per GPU.
 */
public final class SysfsNumaNodes implements NumaNodes {
  private static final Logger log = LoggerFactory.getLogger(SysfsNumaNodes.class);

  private final PciSysfs sysfs;
  private final Map<String, Integer> known = new ConcurrentHashMap<>();
  private final Map<String, Boolean> failed = new ConcurrentHashMap<>();

  /** Sysfs at {@code sysfsRoot} ({@code migd.sysfs-root}, {@code /sys} on a node). */
  public SysfsNumaNodes(Path sysfsRoot) {
    this.sysfs = new PciSysfs(sysfsRoot);
  }

  @Override
  public int of(ObservedGpu gpu) {
    String busId;
    try {
      busId = PciSysfs.busId(gpu.pci().busId());
    } catch (IllegalArgumentException e) {
      warnOnce(gpu, gpu.pci().busId(), e.getMessage());
      return Device.NO_NUMA_NODE;
    }
    Integer node = known.get(busId);
    if (node != null) {
      return node;
    }
    try {
      int read = sysfs.numaNode(busId).orElse(Device.NO_NUMA_NODE);
      known.put(busId, read);
      if (read == Device.NO_NUMA_NODE) {
        log.info(
            "gpu={} busId={} sysfs gives no NUMA node; its devices carry no topology",
            gpu.index(),
            busId);
      }
      return read;
    } catch (IOException e) {
      warnOnce(gpu, busId, e.getMessage());
      return Device.NO_NUMA_NODE;
    }
  }

  private void warnOnce(ObservedGpu gpu, String busId, String why) {
    if (failed.putIfAbsent(busId, Boolean.TRUE) == null) {
      log.warn(
          "gpu={} busId={} its NUMA node cannot be read ({}); its devices carry no topology until"
              + " it can",
          gpu.index(),
          busId,
          why);
    }
  }
}
