package io.migd.rest;

import io.migd.api.rest.LayoutAccepted;
import io.migd.api.rest.LayoutRequest;
import io.migd.api.rest.LayoutStatus;
import io.migd.api.rest.PlanResult;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.plan.Decision;
import io.migd.reconcile.ConfigLookup;
import io.migd.reconcile.Desired;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.ResetInProgressException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SequencedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/layout} (the intent and how far the node is) and {@code PUT /api/v1/layout} (a
 * new intent, or with {@code dryRun=true} only its plan). The body is parsed here, before anything
 * reaches NVML; whether it can apply, and the plan answered, come from one decision of the
 * reconciler, the loop's own, over the node snapshot (never waiting out a GPU reset); the intent
 * service and the loop do the rest.
 */
@RestController
@RequestMapping("/api/v1")
class LayoutController {
  private static final Logger log = LoggerFactory.getLogger(LayoutController.class);

  private final IntentService intents;
  private final ReconcileLoop loop;
  private final Reconciler reconciler;
  private final LayoutProgress progress;
  private final LayoutRequests requests;
  private final RestNode node;

  LayoutController(
      IntentService intents,
      ReconcileLoop loop,
      Reconciler reconciler,
      LayoutProgress progress,
      ConfigLookup configs,
      ConfigFileNow file,
      RestNode node) {
    this.node = node;
    this.intents = intents;
    this.loop = loop;
    this.reconciler = reconciler;
    this.progress = progress;
    this.requests = new LayoutRequests(configs, file);
  }

  @Operation(
      summary = "The intent and how far the node is",
      description =
          "The desired layout, the node's state and reason, the plan with each step's duration, the"
              + " decision per GPU, the step each GPU is executing and the last outcome. The ETag"
              + " is the intent's generation, for If-Match on PUT.")
  @GetMapping(value = "/layout", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<LayoutStatus> layout() {
    Desired desired = intents.current();
    return ResponseEntity.ok()
        .eTag(etag(desired.generation()))
        .body(RestViews.status(desired, progress.snapshot(desired)));
  }

  @Operation(
      summary = "Reshape the node: a config by name or an explicit per-GPU layout",
      description =
          "Accepted layouts get a new generation and the reconcile loop works towards the newest;"
              + " with dryRun=true only the plan and the decision per GPU are answered and nothing"
              + " changes. Bad input is refused before any NVML call.",
      requestBody =
          @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content =
                  @Content(
                      mediaType = MediaType.APPLICATION_JSON_VALUE,
                      schema = @Schema(implementation = LayoutRequest.class))),
      responses = {
        @ApiResponse(
            responseCode = "202",
            description = "accepted: the new generation and its plan",
            content = @Content(schema = @Schema(implementation = LayoutAccepted.class))),
        @ApiResponse(
            responseCode = "200",
            description = "dry run: the plan and the decision per GPU; nothing changed",
            content = @Content(schema = @Schema(implementation = PlanResult.class))),
        @ApiResponse(
            responseCode = "400",
            description = "malformed JSON, wrong types, unknown fields or duplicate keys",
            content =
                @Content(
                    mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class))),
        @ApiResponse(
            responseCode = "412",
            description = "If-Match names a generation that is no longer current",
            content =
                @Content(
                    mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class))),
        @ApiResponse(
            responseCode = "413",
            description = "the body is over 64 KiB",
            content =
                @Content(
                    mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class))),
        @ApiResponse(
            responseCode = "415",
            description = "the body is not JSON",
            content =
                @Content(
                    mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class))),
        @ApiResponse(
            responseCode = "422",
            description =
                "valid JSON that cannot apply: unknown config or profile, GPU out of range, infeasible",
            content =
                @Content(
                    mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
      })
  @PutMapping(
      value = "/layout",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> setLayout(
      @Parameter(description = "answer the plan only, change nothing")
          @RequestParam(name = "dryRun", defaultValue = "false")
          boolean dryRun,
      @Parameter(description = "the generation this change is based on (quoted or bare)")
          @RequestHeader(name = "If-Match", required = false)
          String ifMatch,
      HttpServletRequest http)
      throws IOException {
    LayoutRequest body = LayoutRequests.read(http.getInputStream(), http.getContentLengthLong());
    if (loop.lastOutcome().isEmpty()) {
      throw new RestProblem(
          HttpStatus.SERVICE_UNAVAILABLE,
          "the first reconcile has not ended yet; try again in a moment");
    }
    Desired.Intent intent = requests.intent(body);
    OptionalLong expected = ifMatch(ifMatch);
    Desired now = intents.current();
    checkFresh(expected, now);
    Desired candidate =
        new Desired(
            Desired.Source.REST, intent, now.generation() + 1, now.labelValue(), "", Map.of());
    // the loop's own decision, made once: the check and the answer both come from it
    SequencedMap<GpuIndex, Decision> decisions =
        reconciler.plan(List.of(candidate), observed()).getFirst().decisions();
    if (!dryRun) {
      LayoutRequests.requireApplicable(intent, decisions);
    }
    PlanResult plan = RestViews.planResult(decisions);
    if (dryRun) {
      return ResponseEntity.ok().eTag(etag(now.generation())).body(plan);
    }
    Desired next =
        expected.isPresent()
            ? intents
                .changeIf(expected.getAsLong(), Desired.Source.REST, intent)
                .orElseThrow(() -> stale(expected.getAsLong(), intents.current()))
            : intents.change(Desired.Source.REST, intent);
    loop.trigger();
    log.info("REST intent accepted generation={} intent={}", next.generation(), intent);
    return ResponseEntity.status(HttpStatus.ACCEPTED)
        .eTag(etag(next.generation()))
        .body(new LayoutAccepted(next.generation(), plan.plan(), plan.decisions()));
  }

  /**
   * The node to decide over: the snapshot with its processes read now, or, while a GPU reset holds
   * NVML past {@code migd.nvml.reset-wait}, the snapshot as last observed (a GPU being reset runs
   * nothing): the answer never waits out a reset, and the loop decides again anyway.
   */
  private ObservedNode observed() {
    ObservedNode last = node.snapshot().latest();
    try {
      return node.snapshot().withLiveProcesses(last);
    } catch (ResetInProgressException e) {
      log.info("PUT /api/v1/layout decided over the processes last observed: {}", e.getMessage());
      return last;
    }
  }

  private static void checkFresh(OptionalLong expected, Desired now) {
    if (expected.isPresent() && expected.getAsLong() != now.generation()) {
      throw stale(expected.getAsLong(), now);
    }
  }

  private static RestProblem stale(long expected, Desired now) {
    return new RestProblem(
        HttpStatus.PRECONDITION_FAILED,
        "If-Match names generation "
            + expected
            + ", but the current generation is "
            + now.generation()
            + "; read GET /api/v1/layout and decide again");
  }

  /** The generation If-Match names (quoted, bare or weak); empty for none or {@code *}. */
  static OptionalLong ifMatch(String header) {
    if (header == null || header.strip().equals("*")) {
      return OptionalLong.empty();
    }
    String value = header.strip();
    if (value.startsWith("W/")) {
      value = value.substring(2);
    }
    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
      value = value.substring(1, value.length() - 1);
    }
    try {
      return OptionalLong.of(Long.parseLong(value));
    } catch (NumberFormatException e) {
      // an entity tag migd never gave out matches nothing
      return OptionalLong.of(-1);
    }
  }

  static String etag(long generation) {
    return "\"" + generation + "\"";
  }
}
