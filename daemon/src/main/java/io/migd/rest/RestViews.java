package io.migd.rest;

import io.migd.api.rest.DesiredLayout;
import io.migd.api.rest.GpuDecision;
import io.migd.api.rest.GpuLayout;
import io.migd.api.rest.GpuStatus;
import io.migd.api.rest.LayoutStatus;
import io.migd.api.rest.PlanResult;
import io.migd.api.rest.PlanStep;
import io.migd.api.rest.PlanSteps;
import io.migd.api.rest.ReconcileOutcome;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimedDevice;
import io.migd.plan.Decision;
import io.migd.plan.Step;
import io.migd.plan.StepAction;
import io.migd.profiles.Placement;
import io.migd.profiles.Sharing;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one mapping from the core's values to the REST records: {@code PUT /api/v1/layout}'s plan,
 * {@code GET /api/v1/layout} and {@code migd plan -o json} all go through it.
 */
public final class RestViews {
  private RestViews() {}

  /** The plan and decisions of every GPU, as a dry run answers them. */
  public static PlanResult planResult(Map<GpuIndex, Decision> decisions) {
    var steps = new ArrayList<PlanStep>();
    var views = new ArrayList<GpuDecision>();
    decisions.forEach(
        (gpu, decision) -> {
          if (decision instanceof Decision.Change(var plan)) {
            plan.steps().forEach(step -> steps.add(step(step)));
          }
          views.add(decision(gpu, decision));
        });
    return new PlanResult(new PlanSteps(steps, null), views);
  }

  /** One GPU's decision. */
  public static GpuDecision decision(GpuIndex gpu, Decision decision) {
    List<String> holders =
        decision instanceof Decision.Blocked(var names, var reason) ? names : List.of();
    return new GpuDecision(gpu.value(), kind(decision), reason(decision), holders, null);
  }

  /** The decision's wire name. */
  public static String kind(Decision decision) {
    return switch (decision) {
      case Decision.InSync() -> "inSync";
      case Decision.Change _ -> "change";
      case Decision.Blocked _ -> "blocked";
      case Decision.Infeasible _ -> "infeasible";
      case Decision.Unmanaged() -> "unmanaged";
      case Decision.Failed _ -> "failed";
    };
  }

  /** The decision in one sentence. */
  public static String reason(Decision decision) {
    return switch (decision) {
      case Decision.InSync() -> "matches the desired layout";
      case Decision.Change(var plan) ->
          plan.steps().size()
              + " steps, "
              + plan.gpuInstancesDestroyed()
              + " GPU instances destroyed";
      case Decision.Blocked(var holders, var reason) -> reason;
      case Decision.Infeasible(var reason) -> reason;
      case Decision.Unmanaged() -> "not selected by the config; migd leaves it as it is";
      case Decision.Failed(var code, var reason) -> reason;
    };
  }

  /** One step; ids only for instances that exist, never predicted. */
  public static PlanStep step(Step step) {
    return switch (step) {
      case Step.EnableMig(var gpu) ->
          new PlanStep(
              gpu.value(), StepAction.of(step).label(), null, null, null, null, null, null);
      case Step.DisableMig(var gpu) ->
          new PlanStep(
              gpu.value(), StepAction.of(step).label(), null, null, null, null, null, null);
      case Step.DestroyComputeInstance(var gpu, var giId, var ciId) ->
          new PlanStep(
              gpu.value(), StepAction.of(step).label(), null, null, null, giId, ciId, null);
      case Step.DestroyGpuInstance(var gpu, var giId) ->
          new PlanStep(
              gpu.value(), StepAction.of(step).label(), null, null, null, giId, null, null);
      case Step.CreateGpuInstance(var gpu, var profile, var id, var at) ->
          new PlanStep(
              gpu.value(),
              StepAction.of(step).label(),
              profile.toString(),
              placement(at),
              null,
              null,
              null,
              null);
      case Step.CreateComputeInstance(var gpu, var giAt, var profile, var id, var at) ->
          new PlanStep(
              gpu.value(),
              StepAction.of(step).label(),
              profile.toString(),
              placement(at),
              placement(giAt),
              null,
              null,
              null);
    };
  }

  private static io.migd.api.rest.Placement placement(Placement at) {
    return new io.migd.api.rest.Placement(at.start(), at.size());
  }

  /** The intent as {@code GET /api/v1/layout} shows it. */
  public static DesiredLayout desired(Desired desired) {
    return switch (desired.intent()) {
      case Desired.Intent.Nothing() ->
          new DesiredLayout(desired.source().wireName(), null, null, desired.generation());
      case Desired.Intent.NamedConfig(var name) ->
          new DesiredLayout(desired.source().wireName(), name, null, desired.generation());
      case Desired.Intent.Layout(var gpus) ->
          new DesiredLayout(
              desired.source().wireName(),
              null,
              gpus.stream().map(RestViews::layout).toList(),
              desired.generation());
    };
  }

  /** A GPU target in the shape {@code PUT} takes. */
  public static GpuLayout layout(GpuTarget target) {
    Boolean shares = target.shares() ? true : null;
    if (target.dynamic()) {
      return new GpuLayout(target.gpu().value(), true, null, null, null, null, true, shares);
    }
    if (target.shares()) {
      return new GpuLayout(target.gpu().value(), false, null, null, null, null, null, shares);
    }
    if (!target.migEnabled()) {
      return switch (target.sharing()) {
        case Sharing.TimeSliced(var n, _) ->
            new GpuLayout(
                target.gpu().value(), false, null, n == 1 ? null : new GpuLayout.TimeSlicing(n));
        case Sharing.Mps(var n, _) ->
            new GpuLayout(target.gpu().value(), false, null, null, new GpuLayout.Mps(n), null);
      };
    }
    var devices = new LinkedHashMap<String, Integer>();
    for (GpuInstanceSpec spec : target.gpuInstances()) {
      if (spec.isWhole()) {
        devices.merge(spec.profile().toString(), 1, Integer::sum);
      } else {
        for (int slices : spec.computeInstanceSlices()) {
          devices.merge(spec.profile().computeInstance(slices).toString(), 1, Integer::sum);
        }
      }
    }
    var sharing = new LinkedHashMap<String, GpuLayout.SliceSharing>();
    target
        .sliceSharing()
        .forEach(
            (profile, shared) ->
                sharing.put(
                    profile.toString(),
                    switch (shared) {
                      case Sharing.TimeSliced(var n, _) ->
                          new GpuLayout.SliceSharing(new GpuLayout.TimeSlicing(n), null);
                      case Sharing.Mps(var n, _) ->
                          new GpuLayout.SliceSharing(null, new GpuLayout.Mps(n));
                    }));
    return new GpuLayout(
        target.gpu().value(), true, devices, null, null, sharing.isEmpty() ? null : sharing);
  }

  /** {@code GET /api/v1/layout}'s answer. */
  public static LayoutStatus status(Desired desired, LayoutProgress.Snapshot progress) {
    var steps = new ArrayList<PlanStep>();
    for (LayoutProgress.TimedStep timed : progress.plan()) {
      PlanStep view = step(timed.step());
      steps.add(timed.ran() ? view.took(timed.took().toMillis()) : view);
    }
    var decisions = new ArrayList<GpuDecision>();
    progress
        .outcome()
        .ifPresent(
            outcome ->
                outcome
                    .gpus()
                    .forEach(
                        (gpu, entry) ->
                            decisions.add(result(gpu, entry.result(), entry.reason()))));
    return new LayoutStatus(
        desired(desired),
        progress.state(),
        progress.reason(),
        new PlanSteps(steps, progress.reshapeEnded() ? progress.total().toMillis() : null),
        decisions,
        progress.inFlight().stream().map(RestViews::step).toList(),
        progress.outcome().map(RestViews::outcome).orElse(null));
  }

  private static ReconcileOutcome outcome(Outcome outcome) {
    return new ReconcileOutcome(
        outcome.generation(),
        outcome.state().wireName(),
        outcome.reason(),
        outcome.at().toString());
  }

  /** How one GPU ended its last reconcile, as a decision with the state it left the GPU in. */
  public static GpuDecision result(GpuIndex gpu, GpuResult result) {
    return result(gpu, result, result.reason());
  }

  /** As {@link #result(GpuIndex, GpuResult)}, with the reason the outcome gives the GPU. */
  public static GpuDecision result(GpuIndex gpu, GpuResult result, String reason) {
    String kind =
        switch (result) {
          case GpuResult.InSync() -> "inSync";
          case GpuResult.Applied _, GpuResult.Applying _, GpuResult.Rebooting _ -> "change";
          case GpuResult.Blocked _, GpuResult.AwaitingModeChange _ -> "blocked";
          case GpuResult.Infeasible _ -> "infeasible";
          case GpuResult.Failed _ -> "failed";
          case GpuResult.Unmanaged() -> "unmanaged";
        };
    List<String> holders =
        switch (result) {
          case GpuResult.Blocked(var names, _) -> names;
          case GpuResult.AwaitingModeChange(var names, _) -> names;
          case GpuResult.InSync _,
              GpuResult.Applied _,
              GpuResult.Applying _,
              GpuResult.Rebooting _,
              GpuResult.Infeasible _,
              GpuResult.Failed _,
              GpuResult.Unmanaged _ ->
              List.of();
        };
    return new GpuDecision(gpu.value(), kind, reason, holders, result.state().wireName());
  }

  /** One GPU as {@code GET /api/v1/gpus} shows it, no slice owned by a claim. */
  public static GpuStatus gpu(ObservedGpu gpu, Usage usage, int replicas) {
    return gpu(gpu, usage, replicas, List.of());
  }

  /**
   * One GPU as {@code GET /api/v1/gpus} shows it, each slice with the prepared claim that owns it
   * (dra mode); a claimed slice is in use.
   */
  public static GpuStatus gpu(
      ObservedGpu gpu, Usage usage, int replicas, List<ClaimedDevice> claimed) {
    var slices = new ArrayList<GpuStatus.Slice>();
    for (LiveGpuInstance gi : gpu.gpuInstances()) {
      for (LiveComputeInstance ci : gi.computeInstances()) {
        List<String> holders = usage.holdersOf(gpu.index(), gi.id(), ci.id());
        GpuStatus.Claim claim =
            claimed.stream()
                .filter(
                    d ->
                        d.device() instanceof ClaimDevice.Made(var _, var _, var _, var mig)
                            ? mig.gpuInstanceId() == gi.id() && mig.computeInstanceId() == ci.id()
                            : d.device().owns(gi))
                .findFirst()
                .map(
                    d ->
                        new GpuStatus.Claim(
                            d.key().namespace(),
                            d.key().name(),
                            d.key().uid(),
                            d.deviceName(),
                            d.completed(),
                            d.pods().stream()
                                .map(
                                    p ->
                                        new GpuStatus.ReservedPod(
                                            p.namespace(), p.name(), p.uid(), p.containers()))
                                .toList()))
                .orElse(null);
        slices.add(
            new GpuStatus.Slice(
                gi.id(),
                ci.id(),
                ci.profile().toString(),
                placement(gi.placement()),
                ci.uuid(),
                !holders.isEmpty() || claim != null,
                holders,
                claim));
      }
    }
    return new GpuStatus(
        gpu.index().value(),
        gpu.uuid(),
        gpu.name(),
        gpu.pci().busId(),
        gpu.pci().deviceIdHex(),
        String.format("0x%08X", gpu.pci().subsystemId()),
        gpu.memoryMiB(),
        gpu.migCapable(),
        new GpuStatus.MigMode(gpu.migMode().current(), gpu.migMode().pending()),
        slices,
        replicas,
        null);
  }
}
