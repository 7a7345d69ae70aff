package io.migd.cli;

import io.migd.layout.GpuIndex;
import io.migd.plan.Decision;
import io.migd.plan.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The plan and decisions in the REST shape of {@code GET /api/v1/layout}. */
record PlanView(PlanView.Steps plan, List<PlanView.DecisionView> decisions) {
  record Steps(List<StepView> steps) {}

  record StepView(int gpu, String action, String profile, String placement) {}

  record DecisionView(int gpu, String decision, String reason) {}

  static PlanView of(Map<GpuIndex, Decision> decisions) {
    var steps = new ArrayList<StepView>();
    var views = new ArrayList<DecisionView>();
    decisions.forEach(
        (gpu, decision) -> {
          if (decision instanceof Decision.Change(var plan)) {
            plan.steps().forEach(step -> steps.add(view(step)));
          }
          views.add(new DecisionView(gpu.value(), kind(decision), reason(decision)));
        });
    return new PlanView(new Steps(steps), views);
  }

  static String kind(Decision decision) {
    return switch (decision) {
      case Decision.InSync() -> "inSync";
      case Decision.Change(var plan) -> "change";
      case Decision.Blocked(var holders, var reason) -> "blocked";
      case Decision.Infeasible(var reason) -> "infeasible";
      case Decision.Unmanaged() -> "unmanaged";
      case Decision.Failed(var code, var reason) -> "failed";
    };
  }

  static String reason(Decision decision) {
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

  static StepView view(Step step) {
    return switch (step) {
      case Step.EnableMig(var gpu) -> new StepView(gpu.value(), "enableMig", "", "");
      case Step.DisableMig(var gpu) -> new StepView(gpu.value(), "disableMig", "", "");
      case Step.DestroyComputeInstance(var gpu, var giId, var ciId) ->
          new StepView(gpu.value(), "destroyComputeInstance", "", "gi " + giId + " ci " + ciId);
      case Step.DestroyGpuInstance(var gpu, var giId) ->
          new StepView(gpu.value(), "destroyGpuInstance", "", "gi " + giId);
      case Step.CreateGpuInstance(var gpu, var profile, var id, var at) ->
          new StepView(gpu.value(), "createGpuInstance", profile.toString(), at.toString());
      case Step.CreateComputeInstance(var gpu, var giAt, var profile, var id, var at) ->
          new StepView(gpu.value(), "createComputeInstance", profile.toString(), giAt + "/" + at);
    };
  }

  static String describe(GpuIndex gpu, Decision decision) {
    var text = new StringBuilder("GPU " + gpu + ": " + kind(decision) + ": " + reason(decision));
    if (decision instanceof Decision.Change(var plan)) {
      for (Step step : plan.steps()) {
        StepView v = view(step);
        text.append("\n  ").append(v.action());
        if (!v.profile().isEmpty()) {
          text.append(' ').append(v.profile());
        }
        if (!v.placement().isEmpty()) {
          text.append(" at ").append(v.placement());
        }
      }
    }
    return text.toString();
  }
}
