package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.api.rest.LayoutAccepted;
import io.migd.api.rest.PlanResult;
import io.migd.execute.ProgressListener;
import io.migd.layout.Usage;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.ReconcileSettings;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.ResetsInProgress;
import io.migd.sim.SimulatedNvml;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * A {@code PUT /api/v1/layout} decides once: its check (422 or accepted) and its answer (the plan
 * and the decisions) come from one run of the planner per GPU, the loop's own decision. The
 * controller runs over the simulated NVML through the real FFM path, with the reconcile loop
 * stopped after its first pass so that only the request's planner runs are counted.
 */
class LayoutPlannerRunsIT {
  @TempDir Path dir;

  private Nvml nvml;
  private ReconcileLoop loop;
  private Reconciler reconciler;
  private LayoutController controller;

  @BeforeEach
  void controllerOverASimulatedNode() throws InterruptedException {
    SimulatedNvml sim = SimulatedNvml.extract(dir.resolve("sim"));
    sim.init("A100-SXM4-40GB,T4");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    GpuModelCatalog catalog = GpuModelCatalog.builtIn();
    MigConfigFile file = GeneratedConfigs.forModels(catalog.models());
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    reconciler =
        Reconciler.over(
            nvml, catalog, file::config, ProgressListener.NONE, reset, RebootPolicy.DISABLED);
    var intents = new IntentService(new IntentStore(dir.resolve("state")), Optional.empty());
    loop =
        new ReconcileLoop(
            reconciler,
            intents::current,
            new ReconcileSettings(
                Duration.ofHours(1), Duration.ofMillis(50), Duration.ofMillis(200)),
            List.of());
    loop.start();
    assertThat(loop.awaitFirstOutcome(Duration.ofSeconds(60))).isPresent();
    loop.close();
    controller =
        new LayoutController(
            intents,
            loop,
            reconciler,
            new LayoutProgress(),
            file::config,
            () -> file,
            new RestNode(
                new NodeSnapshot(
                    reconciler.observer(),
                    nvml,
                    new ResetsInProgress(Clock.systemUTC()),
                    Duration.ofSeconds(5)),
                observed -> Usage.NONE));
  }

  @AfterEach
  void closeNvml() {
    if (loop != null) {
      loop.close();
    }
    if (nvml != null) {
      nvml.close();
    }
  }

  @Test
  void anAcceptedLayoutRunsThePlannerOncePerGpuForItsCheckAndItsAnswer() throws Exception {
    long before = reconciler.plannerRuns();

    ResponseEntity<?> answer =
        put(
            false,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"3g.20gb\":2}},"
                + "{\"gpu\":1,\"timeSlicing\":{\"replicas\":4}}]}");

    assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
    var accepted = (LayoutAccepted) answer.getBody();
    assertThat(accepted.plan().steps()).isNotEmpty();
    assertThat(accepted.decisions()).hasSize(2);
    assertThat(reconciler.plannerRuns() - before).isEqualTo(2);
  }

  @Test
  void aRefusedLayoutAndADryRunRunThePlannerOncePerGpu() throws Exception {
    long before = reconciler.plannerRuns();

    assertThatThrownBy(() -> put(false, "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"3g.20gb\":3}}]}"))
        .isInstanceOf(RestProblem.class)
        .hasMessageContaining("3 × 3g.20gb do not fit");
    long refused = reconciler.plannerRuns();
    ResponseEntity<?> dryRun = put(true, "{\"config\":\"all-balanced\"}");

    assertThat(refused - before).isEqualTo(1);
    assertThat(dryRun.getStatusCode()).isEqualTo(HttpStatus.OK);
    assertThat(((PlanResult) dryRun.getBody()).decisions()).hasSize(2);
    // all-balanced selects only the A100 (a device filter by PCI id)
    assertThat(reconciler.plannerRuns() - refused).isEqualTo(1);
  }

  private ResponseEntity<?> put(boolean dryRun, String body) throws Exception {
    var request = new MockHttpServletRequest("PUT", "/api/v1/layout");
    request.setContentType("application/json");
    request.setContent(body.getBytes(StandardCharsets.UTF_8));
    return controller.setLayout(dryRun, null, request);
  }
}
