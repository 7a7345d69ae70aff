package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the operations on a {@link ChaosNode}, keeps what the runner has asked for (the newest
 * intent, the holders), and checks after each operation what must hold at any moment: nothing held
 * is destroyed, migd lives unless killed, liveness holds, no answer is a 5xx other than an allowed
 * 503.
 */
final class ChaosRun {
  /** Label and REST intents closer than this are both acceptable as the newest. */
  private static final long AMBIGUOUS_NANOS = Duration.ofSeconds(10).toNanos();

  private final ChaosNode node;
  private final NodeCatalog catalog;
  private final ChaosReport report;
  private final ChaosSettings settings;
  private final Holders holders;
  private Intent label;
  private Intent rest;

  /** When the label watch may have been cut: API outages and migd restarts, with time to resume. */
  private final List<long[]> disruptions = new ArrayList<>();

  ChaosRun(
      ChaosNode node,
      NodeCatalog catalog,
      ChaosReport report,
      ChaosSettings settings,
      String firstConfig) {
    this.node = node;
    this.catalog = catalog;
    this.report = report;
    this.settings = settings;
    this.holders = new Holders(node.nvmlSim, node.state, node.podResources);
    this.label = labelIntent(firstConfig);
  }

  /** Runs one operation; returns how it ended, for the trace. */
  String execute(int step, Op op) throws InterruptedException {
    String outcome =
        switch (op) {
          case Op.PutLayout put -> put(step, put);
          case Op.Label(var config) -> label(config);
          case Op.Attach(var gpu, var which, var pid) ->
              holders.attach(node.nvml(), gpu, which, pid);
          case Op.Detach(var which) -> holders.detach(which);
          case Op.StartPod(var which, var pod) -> holders.startPod(node.kubelet(), which, pod);
          case Op.EndPod(var which) -> holders.endPod(which);
          case Op.Xid(var gpu, var which, var code) -> xid(gpu, which, code);
          case Op.KubeletRestart() -> {
            node.restartKubelet();
            yield "restarted";
          }
          case Op.ApiOutage(var seconds) -> {
            node.api.failFor(Duration.ofSeconds(seconds).toNanos());
            disrupted(Duration.ofSeconds(seconds + 10));
            yield "500 for " + seconds + " s";
          }
          case Op.Kill(var faults) -> kill(faults);
          case Op.Hostile(var kind) -> hostile(step, kind);
          case Op.Settle() -> settle(step);
        };
    report.operation(op.line().split("\t")[0], outcome.replaceAll("[0-9]+ ms", "").strip());
    return outcome;
  }

  private String put(int step, Op.PutLayout put) {
    Optional<String> base = node.migd.base();
    if (base.isEmpty()) {
      return "migd down";
    }
    var request =
        HttpRequest.newBuilder(
                URI.create(base.get() + "/api/v1/layout" + (put.dryRun() ? "?dryRun=true" : "")))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(put.body()));
    if (put.staleIfMatch()) {
      long current = rest == null ? 0 : rest.generation();
      request.header("If-Match", "\"" + Math.max(0, current - 1) + "\"");
    }
    Optional<HttpResponse<String>> answer = node.migd.send(request.build());
    if (answer.isEmpty()) {
      return "no answer";
    }
    int status = answer.get().statusCode();
    checkStatus(step, "PUT /api/v1/layout " + put.body(), answer.get());
    if (status == 202) {
      JsonNode body = GpuTarget.tree(put.body());
      long generation = GpuTarget.tree(answer.get().body()).path("generation").asLong();
      Map<Integer, GpuTarget> targets =
          body.has("config")
              ? catalog.configs().get(body.path("config").asText())
              : GpuTarget.gpusOf(body);
      String labelNow = label == null ? "" : label.config();
      rest =
          new Intent(
              "rest",
              body.path("config").asText(null),
              generation,
              targets,
              System.nanoTime(),
              labelNow);
    }
    return "HTTP " + status;
  }

  private String label(String config) {
    if (label != null && label.config().equals(config)) {
      return "unchanged";
    }
    try {
      node.client
          .nodes()
          .withName(ChaosNode.NODE)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"labels\":{\""
                  + ChaosNode.CONFIG_LABEL
                  + "\":\""
                  + config
                  + "\"}}}");
    } catch (RuntimeException e) {
      return "API server refused";
    }
    label = labelIntent(config);
    return "set";
  }

  private Intent labelIntent(String config) {
    return new Intent("label", config, 0, catalog.configs().get(config), System.nanoTime(), config);
  }

  private String xid(int gpu, int which, int code) {
    NvmlView.Gpu g = node.nvml().gpus().get(gpu);
    var args = new ArrayList<>(List.of("xid", "--gpu", Integer.toString(gpu)));
    if (g.migCurrent() && !g.instances().isEmpty()) {
      args.addAll(
          List.of("--gi", Integer.toString(g.instances().get(which % g.instances().size()).id())));
    }
    args.addAll(List.of("--xid", Integer.toString(code)));
    try {
      NvmlView.run(node.nvmlSim, node.state, args.toArray(String[]::new));
      return "injected";
    } catch (NvmlView.SimRefused e) {
      return "refused";
    }
  }

  private String kill(String faults) {
    node.migd.kill();
    disrupted(Duration.ofSeconds(60));
    report.killSurvived(false);
    if (!faults.isEmpty()) {
      report.fault(faultKind(faults));
    }
    node.migd.start(faults);
    return faults.isEmpty() ? "restarted" : "restarted with faults";
  }

  private static String faultKind(String faults) {
    if (faults.endsWith("=KILL")) {
      return "KILL mid-reshape";
    }
    if (faults.contains("GPU_IS_LOST")) {
      return faults.contains("#") ? "transient GPU_IS_LOST" : "persistent GPU_IS_LOST";
    }
    return faults.contains("#") ? "transient" : "persistent";
  }

  private String hostile(int step, int kind) {
    Optional<String> base = node.migd.base();
    if (base.isEmpty()) {
      return "migd down";
    }
    Optional<HttpResponse<String>> answer =
        node.migd.send(HostileRequests.request(kind, base.get()));
    answer.ifPresent(a -> checkStatus(step, "hostile request: " + HostileRequests.name(kind), a));
    return HostileRequests.name(kind)
        + ": "
        + answer.map(a -> "HTTP " + a.statusCode()).orElse("no answer");
  }

  /** No 5xx, except a 503 while the first reconcile has not ended or NVML fails (faults on). */
  private void checkStatus(int step, String what, HttpResponse<String> answer) {
    int status = answer.statusCode();
    MigdDaemon.Life life = node.migd.life();
    boolean allowed503 = !life.ready || !life.faults.isEmpty();
    if (status >= 500 && (status != 503 || !allowed503)) {
      report.violation(
          step,
          "no 5xx except an allowed 503",
          what + " answered " + status + ": " + answer.body());
    }
  }

  /**
   * What must hold at any moment: nothing held destroyed; migd alive unless the runner or a KILL
   * fault ended it (then it starts again); liveness UP once ready.
   */
  void check(int step) {
    holders
        .destroyedWhileHeld(node.nvml())
        .forEach(p -> report.violation(step, "a slice in use is never destroyed", p));
    MigdDaemon.Life life = node.migd.life();
    if (!life.process.isAlive()) {
      int exit = life.process.exitValue();
      if (life.faults.endsWith("=KILL") && exit == 137) {
        report.killSurvived(true);
      } else {
        report.violation(
            step,
            "migd runs until killed",
            "life " + life.number + " exited " + exit + ":\n" + life.tail(30));
      }
      disrupted(Duration.ofSeconds(60));
      node.migd.start("");
      return;
    }
    if (!life.ready) {
      life.ready =
          node.migd.get("/actuator/health/readiness").map(r -> r.statusCode() == 200).orElse(false);
      return;
    }
    Optional<HttpResponse<String>> liveness = node.migd.get("/actuator/health/liveness");
    if (life.process.isAlive() && liveness.map(r -> r.statusCode() != 200).orElse(true)) {
      report.violation(
          step,
          "liveness holds while a GPU can be reconciled",
          liveness
              .map(r -> "HTTP " + r.statusCode() + " " + r.body())
              .orElse("no answer within 20 s"));
    }
  }

  /**
   * Faults stop, pods end, processes exit; then the node must converge to the newest intent within
   * the bound, and be at rest as {@link SettleCheck} says.
   */
  private String settle(int step) throws InterruptedException {
    node.api.end();
    holders.releaseAll();
    MigdDaemon.Life life = node.migd.life();
    if (!life.faults.isEmpty() || !life.process.isAlive()) {
      kill("");
    }
    if (!node.migd.awaitReady(settings.settleTimeout())) {
      report.violation(
          step,
          "migd becomes ready",
          "not ready within " + settings.settleTimeout() + ":\n" + node.migd.life().tail(30));
      return "not ready";
    }
    long start = System.nanoTime();
    long deadline = start + settings.settleTimeout().toNanos();
    List<String> differences = SettleCheck.differences(node, newest());
    while (!differences.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(250);
      differences = SettleCheck.differences(node, newest());
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    if (!differences.isEmpty()) {
      report.violation(
          step,
          "the node converges to the newest intent",
          "not within " + settings.settleTimeout() + ": " + differences);
      return "did not converge";
    }
    report.converged(took);
    if (took.compareTo(settings.convergeBound()) > 0) {
      report.violation(
          step,
          "converges within the bound",
          "took " + took.toMillis() + " ms, bound " + settings.convergeBound().toMillis() + " ms");
    }
    return "converged in " + took.toMillis() + " ms";
  }

  private void disrupted(Duration resumeWithin) {
    long now = System.nanoTime();
    disruptions.add(new long[] {now, now + resumeWithin.toNanos()});
  }

  /**
   * The intents that may count as the newest. A label set before a REST intent may reach migd after
   * it (close together, or the watch was cut in between): migd then takes the label as the newer,
   * as the contract lets it, so both count. A label set back to the value the REST intent was
   * recorded with is no new intent.
   */
  private List<Intent> newest() {
    if (rest == null) {
      return List.of(label);
    }
    if (label.atNanos() - rest.atNanos() > 0) {
      return label.config().equals(rest.labelThen()) ? List.of(rest, label) : List.of(label);
    }
    boolean close = rest.atNanos() - label.atNanos() < AMBIGUOUS_NANOS;
    boolean cut =
        disruptions.stream().anyMatch(d -> d[1] - label.atNanos() > 0 && rest.atNanos() - d[0] > 0);
    return close || cut ? List.of(rest, label) : List.of(rest);
  }
}
