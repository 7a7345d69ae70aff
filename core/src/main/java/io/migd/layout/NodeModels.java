package io.migd.layout;

import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in catalogue and the models of this node's MIG-capable GPUs it lacks (H100 PCIe, H800,
 * H20, GH200, the next one), as NVML lists their profiles ({@link ModelSource}; DESIGN section 2,
 * NVML first): what the generated configs ({@code all-balanced}, {@code all-<profile>}) are made
 * from, so they cover every MIG GPU of the node. A GPU whose profiles NVML cannot list yet (MIG off
 * on a driver that answers no profile query then) adds nothing: a config naming its profiles is
 * {@code infeasible} until MIG is enabled.
 */
public final class NodeModels {
  private static final Logger log = LoggerFactory.getLogger(NodeModels.class);

  private NodeModels() {}

  /**
   * {@code builtIn} with the models NVML reports for the node's GPUs it lacks; {@code builtIn}
   * alone when NVML cannot list the GPUs.
   */
  public static GpuModelCatalog of(Nvml nvml, GpuModelCatalog builtIn) {
    ObservedNode node;
    try {
      node = new NodeObserver(nvml, builtIn).observeEach(NodeObserver.ONE_BY_ONE);
    } catch (NvmlException e) {
      log.warn("GPUs not listed ({}); configs are generated from the catalogue only", e.toString());
      return builtIn;
    }
    var models = new ArrayList<>(builtIn.models());
    var ids = new HashSet<Integer>();
    var keys = new HashSet<String>();
    models.forEach(
        m -> {
          ids.add(m.pciDeviceId());
          keys.add(m.key().toLowerCase(Locale.ROOT));
        });
    var source = new ModelSource(nvml, builtIn);
    for (ObservedGpu gpu : node.gpus()) {
      if (!gpu.migCapable() || ids.contains(gpu.pci().deviceId())) {
        continue;
      }
      Optional<GpuModel> reported = source.modelOf(gpu);
      if (reported.isEmpty() || !keys.add(reported.get().key().toLowerCase(Locale.ROOT))) {
        log.info(
            "gpu={} model=\"{}\" pciDeviceId={} is not in the catalogue and NVML lists no MIG"
                + " profiles yet: configs naming its profiles wait until MIG is enabled",
            gpu.index(),
            gpu.name(),
            gpu.pci().deviceIdHex());
        continue;
      }
      ids.add(gpu.pci().deviceId());
      models.add(reported.get());
      log.info(
          "gpu={} model=\"{}\" pciDeviceId={} is not in the catalogue: its {} MIG profiles come"
              + " from NVML",
          gpu.index(),
          gpu.name(),
          gpu.pci().deviceIdHex(),
          reported.get().giProfiles().size());
    }
    return new GpuModelCatalog(models);
  }
}
