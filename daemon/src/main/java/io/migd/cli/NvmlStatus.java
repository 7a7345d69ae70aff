package io.migd.cli;

import io.migd.api.rest.GpuStatus;
import io.migd.app.MigdProperties;
import io.migd.app.NvmlConnector;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveGpu;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.Reconciler;
import io.migd.rest.RestViews;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code migd status} without a daemon: the GPUs read from NVML as {@code migd export} reads them,
 * with the memory in use and the compute processes at the time of the call. There is no state
 * without the reconcile loop, and the holders are NVML's processes.
 */
final class NvmlStatus {
  private NvmlStatus() {}

  static NodeStatus read(MigdProperties properties, String why) {
    try (var session = NvmlConnector.open(properties, NvmlCallObserver.NONE)) {
      var nvml = session.nvml();
      ObservedNode observed =
          new NodeObserver(nvml, GpuModelCatalog.builtIn()).observeEach(NodeObserver.ONE_BY_ONE);
      Map<GpuIndex, GpuTarget> targets = ExportCommand.intendedTargets(properties, observed, nvml);
      var usage = Reconciler.processUsage(nvml);
      var gpus = new ArrayList<GpuStatus>();
      var memory = new HashMap<NodeStatus.GpuInstanceKey, Long>();
      for (ObservedGpu known : observed.gpus()) {
        LiveGpu live;
        try {
          live = nvml.inSequence(() -> LiveGpu.read(nvml, known));
        } catch (NvmlException e) {
          gpus.add(GpuStatus.unobservable(known.index().value(), e.getMessage()));
          continue;
        }
        GpuTarget target = targets.get(known.index());
        gpus.add(
            RestViews.gpu(
                live.gpu(),
                usage.usage(new ObservedNode(List.of(live.gpu()))),
                target == null ? 1 : target.replicas()));
        live.gpuInstanceMemory()
            .forEach(
                (gi, info) ->
                    memory.put(
                        new NodeStatus.GpuInstanceKey(known.index().value(), gi),
                        info.usedBytes()));
      }
      observed
          .unobserved()
          .forEach((gpu, e) -> gpus.add(GpuStatus.unobservable(gpu.value(), e.getMessage())));
      gpus.sort(Comparator.comparingInt(GpuStatus::index));
      return new NodeStatus("source: NVML (" + why + ")", gpus, Map.of(), memory);
    }
  }
}
