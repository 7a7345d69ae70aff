package io.migd.bench.chaos;

import io.grpc.StatusRuntimeException;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.dra.FakeDraKubelet;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The kubelet's NodePrepareResources and NodeUnprepareResources calls for one claim, with the rules
 * their answers follow: an answer per claim (the whole call fails only while migd is down) and an
 * error that is a sentence.
 */
final class DraCalls {
  private final ChaosNode node;
  private final ChaosReport report;

  DraCalls(ChaosNode node, ChaosReport report) {
    this.node = node;
    this.report = report;
  }

  /** Prepares {@code claim}; empty on success, else the outcome to count. */
  Optional<String> prepare(int step, FakeDraKubelet.Plugin plugin, DraClaims.Known claim) {
    return call(
        step,
        "prepare",
        "NodePrepareResources of " + claim.name(),
        () ->
            stub(plugin)
                .nodePrepareResources(
                    NodePrepareResourcesRequest.newBuilder().addClaims(grpcClaim(claim)).build())
                .getClaimsOrThrow(claim.uid())
                .getError());
  }

  /** Unprepares {@code claim}; empty on success, else the outcome to count. */
  Optional<String> unprepare(int step, FakeDraKubelet.Plugin plugin, DraClaims.Known claim) {
    return call(
        step,
        "unprepare",
        "NodeUnprepareResources of " + claim.name(),
        () ->
            stub(plugin)
                .nodeUnprepareResources(
                    NodeUnprepareResourcesRequest.newBuilder().addClaims(grpcClaim(claim)).build())
                .getClaimsOrThrow(claim.uid())
                .getError());
  }

  private Optional<String> call(int step, String what, String call, Supplier<String> error) {
    MigdDaemon.Life life = node.migd.life();
    String answer;
    try {
      answer = error.get();
    } catch (StatusRuntimeException | IllegalArgumentException e) {
      return Optional.of(callFailed(step, life, call, e));
    }
    if (!answer.isEmpty()) {
      checkSentence(step, what, answer);
      return Optional.of("error: " + shape(answer));
    }
    return Optional.empty();
  }

  /**
   * A call that failed as a whole: allowed only when migd went down (a {@code KILL} fault); the
   * claim stays known, in doubt.
   */
  private String callFailed(int step, MigdDaemon.Life life, String what, RuntimeException failure) {
    boolean down;
    try {
      down = life.process.waitFor(5, TimeUnit.SECONDS) || life.killed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      down = true;
    }
    String status =
        failure instanceof StatusRuntimeException s
            ? s.getStatus().getCode().toString()
            : failure.getMessage();
    if (!down) {
      report.violation(
          step,
          "a prepare or unprepare answers per claim",
          what + " failed as a whole while migd runs: " + failure);
    }
    return "call failed (" + status + (down ? ", migd down)" : ")");
  }

  private void checkSentence(int step, String what, String error) {
    if (error.isBlank() || error.strip().length() < 10 || !error.contains(" ")) {
      report.violation(
          step, "a failed claim's answer is a sentence", what + " answered \"" + error + "\"");
    }
  }

  /** An error sentence without its numbers and names, to count outcomes by kind. */
  private static String shape(String error) {
    String shaped =
        error
            .replaceAll("[A-Za-z]*-[0-9a-f]{8}-[0-9a-f-]+", "ID")
            .replaceAll("gpu-[0-9a-z-]+", "DEVICE")
            .replaceAll("[0-9]+", "N");
    return shaped.length() > 90 ? shaped.substring(0, 90) + "..." : shaped;
  }

  private static Claim grpcClaim(DraClaims.Known claim) {
    return Claim.newBuilder()
        .setNamespace(ClaimObjects.NAMESPACE)
        .setName(claim.name())
        .setUid(claim.uid())
        .build();
  }

  private static DRAPluginGrpc.DRAPluginBlockingStub stub(FakeDraKubelet.Plugin plugin) {
    return DRAPluginGrpc.newBlockingStub(plugin.channel())
        .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS);
  }
}
