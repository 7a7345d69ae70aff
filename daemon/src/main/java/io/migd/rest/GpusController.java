package io.migd.rest;

import io.migd.api.rest.ConfigStatus;
import io.migd.api.rest.GpuDecision;
import io.migd.api.rest.GpuLayout;
import io.migd.api.rest.GpuStatus;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.plan.Decision;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.ConfigLookup;
import io.migd.reconcile.Desired;
import io.migd.reconcile.IntentService;
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
 * {@code GET /api/v1/gpus} and {@code GET /api/v1/configs}: the GPUs as NVML shows them at the time
 * of the call, and what each config of the config file would make of them.
 */
@RestController
@RequestMapping(value = "/api/v1", produces = MediaType.APPLICATION_JSON_VALUE)
class GpusController {
  private final RestNode node;
  private final IntentService intents;
  private final ReconcileLoop loop;
  private final MigConfigFile file;
  private final LayoutRequests requests;

  GpusController(
      RestNode node,
      IntentService intents,
      ReconcileLoop loop,
      ConfigLookup configs,
      MigConfigFile file,
      GpuModelCatalog catalog) {
    this.node = node;
    this.intents = intents;
    this.loop = loop;
    this.file = file;
    this.requests = new LayoutRequests(configs, file, catalog);
  }

  @io.swagger.v3.oas.annotations.Operation(
      summary = "Every GPU as NVML shows it now",
      description =
          "Index, UUID, model, PCI ids, memory, MIG capability and mode, the MIG slices with the"
              + " pods or processes holding them, and the time-sliced replicas.")
  @GetMapping("/gpus")
  List<GpuStatus> gpus() {
    RestNode.Observation observation = node.observeEach();
    ObservedNode observed = observation.answered();
    Usage usage = node.usage().usage(observed);
    // the replicas the last reconcile resolved; the outcome is their one source
    Map<GpuIndex, GpuTarget> targets =
        loop.lastOutcome().<Map<GpuIndex, GpuTarget>>map(Outcome::targets).orElse(Map.of());
    var result = new ArrayList<GpuStatus>();
    for (ObservedGpu gpu : observed.gpus()) {
      GpuTarget target = targets.get(gpu.index());
      int replicas = target == null ? 1 : target.replicas();
      result.add(RestViews.gpu(gpu, usage, replicas));
    }
    observation
        .failed()
        .forEach((gpu, e) -> result.add(GpuStatus.unobservable(gpu.value(), e.getMessage())));
    result.sort(java.util.Comparator.comparingInt(GpuStatus::index));
    return result;
  }

  @io.swagger.v3.oas.annotations.Operation(
      summary = "The named configs of the config file and what each resolves to on this node")
  @GetMapping("/configs")
  List<ConfigStatus> configs() {
    RestNode.Observation observation = node.observeEach();
    ObservedNode observed = observation.answered();
    Usage usage = node.usage().usage(observed);
    var result = new ArrayList<ConfigStatus>();
    for (MigConfig config : file.configs()) {
      var layouts = new ArrayList<GpuLayout>();
      var decisions = new ArrayList<GpuDecision>();
      var targets = requests.targets(new Desired.Intent.NamedConfig(config.name()), observed);
      for (var entry : targets.entrySet()) {
        GpuIndex index = entry.getKey();
        GpuTarget target = entry.getValue();
        layouts.add(RestViews.layout(target));
        ObservedGpu gpu =
            observed.gpus().stream().filter(g -> g.index().equals(index)).findFirst().orElseThrow();
        requests
            .decide(target, gpu, usage)
            .ifPresent(d -> decisions.add(RestViews.decision(index, d)));
      }
      observation
          .failed()
          .forEach(
              (gpu, e) ->
                  decisions.add(
                      RestViews.decision(
                          gpu,
                          new Decision.Failed(
                              e.code(), "observing GPU " + gpu + " failed: " + e.getMessage()))));
      result.add(new ConfigStatus(config.name(), layouts, decisions));
    }
    return result;
  }
}
