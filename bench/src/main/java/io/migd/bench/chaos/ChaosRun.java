package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Runs the operations on a {@link ChaosNode}, keeps what the runner has asked for (the newest
 * intent, the holders), and checks after each operation what must hold at any moment: nothing held
 * is destroyed, migd lives unless killed, liveness holds, no answer is a 5xx other than an allowed
 * 503.
 */
final class ChaosRun {
  private final ChaosNode node;
  private final ChaosReport report;
  private final ChaosSettings settings;
  private final Holders holders;
  private final IntentLedger intents;
  private final NodeCatalog catalog;
  private final DraClaims claims;

  ChaosRun(
      ChaosNode node,
      NodeCatalog catalog,
      ChaosReport report,
      ChaosSettings settings,
      String firstConfig) {
    this.node = node;
    this.report = report;
    this.settings = settings;
    this.holders = new Holders(node.nvmlSim, node.state, node.podResources);
    this.intents = new IntentLedger(catalog, firstConfig);
    this.catalog = catalog;
    this.claims = new DraClaims(node, report);
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
          case Op.Prepare(var request, var claim) -> claims.prepare(step, request, claim);
          case Op.Unprepare(var which) -> claims.unprepare(step, which);
          case Op.KubeletRestart() -> kubeletRestart();
          case Op.ApiOutage(var seconds) -> {
            node.api.failFor(Duration.ofSeconds(seconds).toNanos());
            intents.disrupted(Duration.ofSeconds(seconds + 10));
            yield "500 for " + seconds + " s";
          }
          case Op.Kill(var faults) -> kill(step, faults);
          case Op.Hostile(var kind) -> hostile(step, kind);
          case Op.Settle() -> node.dra ? draSettle(step) : settle(step);
        };
    report.operation(op.line().split("\t")[0], outcome.replaceAll("[0-9]+ ms", "").strip());
    return outcome;
  }

  private String kubeletRestart() throws InterruptedException {
    if (!node.dra) {
      node.restartKubelet();
      return "restarted";
    }
    try {
      node.removeRegistration();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "registration socket removed";
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
      request.header("If-Match", "\"" + Math.max(0, intents.restGeneration() - 1) + "\"");
    }
    Optional<HttpResponse<String>> answer = node.migd.send(request.build());
    if (answer.isEmpty()) {
      return "no answer";
    }
    int status = answer.get().statusCode();
    checkStatus(step, "PUT /api/v1/layout " + put.body(), answer.get());
    if (status == 202) {
      JsonNode body = GpuTarget.tree(put.body());
      intents.restAccepted(
          GpuTarget.tree(answer.get().body()).path("generation").asLong(),
          body.path("config").asText(null),
          GpuTarget.gpusOf(body));
    }
    return "HTTP " + status;
  }

  private String label(String config) {
    if (intents.labelValue().equals(config)) {
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
    intents.labelSet(config);
    return "set";
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

  /**
   * Kills migd once its current life is ready (a life killed while it starts never reconciles, and
   * its faults never fire), then starts the next with {@code faults}.
   */
  private String kill(int step, String faults) throws InterruptedException {
    node.migd.awaitReady(settings.settleTimeout());
    if (!endedByItself(step)) {
      node.migd.kill();
      report.killSurvived(false);
    }
    intents.disrupted(Duration.ofSeconds(60));
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
    if (endedByItself(step)) {
      intents.disrupted(Duration.ofSeconds(60));
      node.migd.start("");
      return;
    }
    MigdDaemon.Life life = node.migd.life();
    if (!life.ready) {
      life.ready =
          node.migd.get("/actuator/health/readiness").map(r -> r.statusCode() == 200).orElse(false);
      return;
    }
    if (node.dra && life.process.isAlive()) {
      claims.check(step);
      claims.checkPool(step);
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
   * Whether the current life ended without the runner killing it: by its NVML {@code KILL} fault
   * (counted), or otherwise (a violation).
   */
  private boolean endedByItself(int step) {
    MigdDaemon.Life life = node.migd.life();
    if (life.process.isAlive() || life.killed) {
      return false;
    }
    life.killed = true;
    int exit = life.process.exitValue();
    if (life.faults.endsWith("=KILL") && exit == 137) {
      report.killSurvived(true);
    } else {
      report.violation(
          step,
          "migd runs until killed",
          "life " + life.number + " exited " + exit + ":\n" + life.tail(30));
    }
    return true;
  }

  /**
   * The faults stop (API server answers, migd restarted without NVML faults), pods end, processes
   * exit; false (a violation) when migd does not become ready.
   */
  private boolean faultsStopped(int step) throws InterruptedException {
    node.api.end();
    holders.releaseAll();
    MigdDaemon.Life life = node.migd.life();
    if (!life.faults.isEmpty() || !life.process.isAlive()) {
      kill(step, "");
    }
    if (!node.migd.awaitReady(settings.settleTimeout())) {
      report.violation(
          step,
          "migd becomes ready",
          "not ready within " + settings.settleTimeout() + ":\n" + node.migd.life().tail(30));
      return false;
    }
    return true;
  }

  /**
   * DRA mode's settle: faults stop and processes exit; the claims in doubt are unprepared, and of
   * the prepared ones every other is kept when the newest intent is {@code all-dynamic} (none when
   * it is static: its GPUs stay blocked while claims hold them); then the node must converge
   * ({@link SettleCheck#draDifferences}) within the bound, and a fresh claim of every profile the
   * pool still fits must prepare and unprepare.
   */
  private String draSettle(int step) throws InterruptedException {
    if (!faultsStopped(step)) {
      return "not ready";
    }
    long deadline = System.nanoTime() + settings.settleTimeout().toNanos();
    List<Intent> newest = intents.newest();
    boolean dynamic = newest.stream().allMatch(i -> OpGenerator.ALL_DYNAMIC.equals(i.config()));
    Optional<List<DraClaims.Known>> kept = claims.unprepareAllBut(step, dynamic, deadline);
    if (kept.isEmpty()) {
      return "a claim did not unprepare";
    }
    Optional<Duration> took =
        converged(
            step,
            System.nanoTime(),
            deadline,
            () -> SettleCheck.draDifferences(node, newest, kept.get()));
    if (took.isEmpty()) {
      return "did not converge";
    }
    claims.probe(step, probes());
    return "converged in " + took.get().toMillis() + " ms, " + kept.get().size() + " claims kept";
  }

  /** One request of every profile the node's GPUs have, and a whole GPU. */
  private List<String> probes() {
    var requests = new TreeSet<String>();
    catalog.gpus().forEach(g -> g.profiles().forEach(p -> requests.add("profile=" + p)));
    requests.add("type=gpu");
    return List.copyOf(requests);
  }

  /**
   * Faults stop, pods end, processes exit; then the node must converge to the newest intent within
   * the bound of migd being ready and the last allocation's grace being over, and be at rest as
   * {@link SettleCheck} says.
   */
  private String settle(int step) throws InterruptedException {
    if (!faultsStopped(step)) {
      return "not ready";
    }
    // the clock starts once migd is ready and the last Allocate's grace is over: until then the
    // slice it handed out counts as in use, as the contract says, and may block the newest intent
    long graceOver = holders.lastAllocateNanos() + ChaosNode.ALLOCATION_GRACE.toNanos();
    long start = Math.max(System.nanoTime(), graceOver);
    long deadline = start + settings.settleTimeout().toNanos();
    Optional<Duration> took =
        converged(step, start, deadline, () -> SettleCheck.differences(node, intents.newest()));
    return took.isEmpty() ? "did not converge" : "converged in " + took.get().toMillis() + " ms";
  }

  /**
   * Waits until {@code differences} finds none or {@code deadline} passes; reports the time from
   * {@code start} (a violation past the bound) and returns it, or reports the differences left and
   * returns empty.
   */
  private Optional<Duration> converged(
      int step, long start, long deadline, Supplier<List<String>> differences)
      throws InterruptedException {
    List<String> left = differences.get();
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(250);
      left = differences.get();
    }
    Duration took = Duration.ofNanos(Math.max(0, System.nanoTime() - start));
    if (!left.isEmpty()) {
      report.violation(
          step,
          "the node converges to the newest intent",
          "not within " + settings.settleTimeout() + ": " + left);
      return Optional.empty();
    }
    report.converged(took);
    if (took.compareTo(settings.convergeBound()) > 0) {
      report.violation(
          step,
          "converges within the bound",
          "took " + took.toMillis() + " ms, bound " + settings.convergeBound().toMillis() + " ms");
    }
    return Optional.of(took);
  }
}
