package io.migd.execute;

import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Step;

/** How running one GPU's plan ended. */
public sealed interface Execution {
  /** Every step ran. */
  record Completed() implements Execution {}

  /**
   * A MIG mode change was accepted but did not take effect; the rest of the plan did not run.
   * {@code activation} is {@code IN_USE} (something holds the GPU) or {@code RESET_REQUIRED}.
   */
  record ModeChangePending(Step step, NvmlReturn activation) implements Execution {}

  /** A step failed; what this run had half-made was undone. */
  record StepFailed(Step step, NvmlException cause) implements Execution {}
}
