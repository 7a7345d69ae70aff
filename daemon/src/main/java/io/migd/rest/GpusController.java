package io.migd.rest;

import io.migd.api.rest.GpuStatus;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.ReconcileLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/gpus}: the GPUs as the node snapshot has them (the last reconcile's
 * observation, with the processes read at the time of the call; {@code GET /api/v1/configs} is
 * {@link ConfigsController}). A GPU reset that holds NVML longer than {@code migd.nvml.reset-wait}
 * is answered {@code 503} naming the reset.
 */
@RestController
@RequestMapping(value = "/api/v1", produces = MediaType.APPLICATION_JSON_VALUE)
class GpusController {
  private final RestNode node;
  private final ReconcileLoop loop;

  GpusController(RestNode node, ReconcileLoop loop) {
    this.node = node;
    this.loop = loop;
  }

  @io.swagger.v3.oas.annotations.Operation(
      summary = "Every GPU as NVML shows it now",
      description =
          "Index, UUID, model, PCI ids, memory, MIG capability and mode, the MIG slices with the"
              + " pods or processes holding them (and in dra mode the claim that owns each), and"
              + " the time-sliced replicas.")
  @GetMapping("/gpus")
  List<GpuStatus> gpus() {
    ObservedNode observed = node.snapshot().withLiveProcesses(node.snapshot().latest());
    Usage usage = node.usage().usage(observed);
    // the replicas the last reconcile resolved; the outcome is their one source
    Map<GpuIndex, GpuTarget> targets =
        loop.lastOutcome().<Map<GpuIndex, GpuTarget>>map(Outcome::targets).orElse(Map.of());
    var claimed = node.claims().all();
    var result = new ArrayList<GpuStatus>();
    for (ObservedGpu gpu : observed.gpus()) {
      GpuTarget target = targets.get(gpu.index());
      int replicas = target == null ? 1 : target.replicas();
      var onGpu = claimed.stream().filter(d -> d.gpu().equals(gpu.index())).toList();
      result.add(RestViews.gpu(gpu, usage, replicas, onGpu));
    }
    observed
        .unobserved()
        .forEach((gpu, e) -> result.add(GpuStatus.unobservable(gpu.value(), e.getMessage())));
    result.sort(java.util.Comparator.comparingInt(GpuStatus::index));
    return result;
  }
}
