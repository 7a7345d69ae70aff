package io.migd.plan;

import java.util.List;

/** The steps that take one GPU from what is to what should be, in the order to run them. */
public record Plan(List<Step> steps) {
  /** Copies the list. */
  public Plan {
    steps = List.copyOf(steps);
  }

  /** How many GPU instances the plan destroys. */
  public long gpuInstancesDestroyed() {
    return steps.stream().filter(s -> s instanceof Step.DestroyGpuInstance).count();
  }
}
