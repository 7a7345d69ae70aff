package io.migd.rest;

import io.migd.api.rest.ConfigStatus;
import io.migd.api.rest.GpuDecision;
import io.migd.api.rest.GpuLayout;
import io.migd.layout.ObservedNode;
import io.migd.plan.Decision;
import io.migd.profiles.MigConfig;
import io.migd.reconcile.ConfigLookup;
import io.migd.reconcile.Desired;
import io.migd.reconcile.NodePlan;
import io.migd.reconcile.Reconciler;
import io.swagger.v3.oas.annotations.Operation;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/configs}: what each config of the config file would make of this node, decided
 * as the reconcile loop decides (NVML's profiles first), over the node snapshot with its processes
 * read now, as {@code GET /api/v1/gpus} reads it: a GPU reset that holds NVML longer than {@code
 * migd.nvml.reset-wait} is answered {@code 503} naming the reset. The configs are the file's as
 * {@code serve} last read it; while the file is invalid the answer is {@code 503} naming its
 * problem (file, line and key).
 */
@RestController
@RequestMapping(value = "/api/v1", produces = MediaType.APPLICATION_JSON_VALUE)
class ConfigsController {
  private final Reconciler reconciler;
  private final ConfigFileNow file;
  private final ConfigLookup lookup;
  private final RestNode node;

  ConfigsController(Reconciler reconciler, ConfigFileNow file, ConfigLookup lookup, RestNode node) {
    this.reconciler = reconciler;
    this.file = file;
    this.lookup = lookup;
    this.node = node;
  }

  @Operation(
      summary = "The named configs of the config file and what each resolves to on this node")
  @GetMapping("/configs")
  List<ConfigStatus> configs() {
    if (lookup.problem().isPresent()) {
      throw new RestProblem(
          HttpStatus.SERVICE_UNAVAILABLE,
          "the config file cannot be used: "
              + lookup.problem().get()
              + "; its last valid content stays the target until it is fixed");
    }
    List<MigConfig> configs = file.file().configs();
    ObservedNode observed = node.snapshot().withLiveProcesses(node.snapshot().latest());
    List<NodePlan> plans =
        reconciler.plan(
            configs.stream()
                .map(config -> Desired.config(Desired.Source.REST, config.name(), 0))
                .toList(),
            observed);
    var result = new ArrayList<ConfigStatus>();
    for (int i = 0; i < configs.size(); i++) {
      NodePlan plan = plans.get(i);
      var layouts = new ArrayList<GpuLayout>();
      plan.targets().values().forEach(target -> layouts.add(RestViews.layout(target)));
      var decisions = new ArrayList<GpuDecision>();
      plan.decisions()
          .forEach(
              (gpu, decision) -> {
                // a GPU the config does not select has no decision here; one NVML failed on
                // might be selected, so it shows as failed
                if (!(decision instanceof Decision.Unmanaged)) {
                  decisions.add(RestViews.decision(gpu, decision));
                }
              });
      result.add(new ConfigStatus(configs.get(i).name(), layouts, decisions));
    }
    return result;
  }
}
