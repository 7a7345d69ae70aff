package io.migd.cli;

import io.migd.api.rest.PlanStep;
import io.migd.layout.GpuIndex;
import io.migd.plan.Decision;
import io.migd.plan.Step;
import io.migd.rest.RestViews;

/** The plan and decisions as text, one GPU a paragraph; {@code -o json} is {@link RestViews}. */
final class PlanView {
  private PlanView() {}

  static String describe(GpuIndex gpu, Decision decision) {
    var text =
        new StringBuilder(
            "GPU " + gpu + ": " + RestViews.kind(decision) + ": " + RestViews.reason(decision));
    if (decision instanceof Decision.Change(var plan)) {
      for (Step step : plan.steps()) {
        PlanStep v = RestViews.step(step);
        text.append("\n  ").append(v.action());
        if (v.profile() != null) {
          text.append(' ').append(v.profile());
        }
        if (v.gpuInstancePlacement() != null) {
          text.append(" at ")
              .append(v.gpuInstancePlacement().start())
              .append(':')
              .append(v.gpuInstancePlacement().size())
              .append('/')
              .append(v.placement().start())
              .append(':')
              .append(v.placement().size());
        } else if (v.placement() != null) {
          text.append(" at ")
              .append(v.placement().start())
              .append(':')
              .append(v.placement().size());
        } else if (v.gpuInstanceId() != null) {
          text.append(" at gi ").append(v.gpuInstanceId());
          if (v.computeInstanceId() != null) {
            text.append(" ci ").append(v.computeInstanceId());
          }
        }
      }
    }
    return text.toString();
  }
}
