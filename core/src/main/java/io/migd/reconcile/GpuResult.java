package io.migd.reconcile;

import io.migd.nvml.NvmlReturn;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import java.time.Duration;
import java.util.List;

/** How one GPU ended a reconcile. Surfaces read these; none of them re-derives it. */
public sealed interface GpuResult {
  /** One sentence for people: what happened and why. */
  String reason();

  /** The state this result puts the GPU in. */
  State state();

  /** Per-GPU states, worst last (DESIGN.md section 1). */
  enum State {
    SUCCESS,
    APPLYING,
    REBOOTING,
    BLOCKED,
    FAILED,
    INFEASIBLE;

    /** The node's label and REST name of the state. */
    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Where it ranks: failed and infeasible rank together as the worst. */
    int severity() {
      return this == INFEASIBLE ? FAILED.ordinal() : ordinal();
    }
  }

  /** The GPU already looked as it should. */
  record InSync() implements GpuResult {
    @Override
    public String reason() {
      return "matches the desired layout";
    }

    @Override
    public State state() {
      return State.SUCCESS;
    }
  }

  /** The plan ran and the GPU now looks as it should. */
  record Applied(Plan plan, Duration duration) implements GpuResult {
    @Override
    public String reason() {
      return "applied " + plan.steps().size() + " steps in " + duration.toMillis() + " ms";
    }

    @Override
    public State state() {
      return State.SUCCESS;
    }
  }

  /** The change needs something in use; nothing on this GPU was touched. */
  record Blocked(List<String> holders, String reason) implements GpuResult {
    /** Copies the list. */
    public Blocked {
      holders = List.copyOf(holders);
    }

    @Override
    public State state() {
      return State.BLOCKED;
    }
  }

  /**
   * A MIG mode change was asked for and stays pending until whatever holds the GPU lets go; migd
   * retries.
   */
  record AwaitingModeChange(List<String> holders, String reason) implements GpuResult {
    /** Copies the list. */
    public AwaitingModeChange {
      holders = List.copyOf(holders);
    }

    @Override
    public State state() {
      return State.BLOCKED;
    }
  }

  /** Only a reboot applies the pending MIG mode, and migd asked for one. */
  record Rebooting(String reason) implements GpuResult {
    @Override
    public State state() {
      return State.REBOOTING;
    }
  }

  /** The change is under way (the layout did not match yet after the run); migd goes on. */
  record Applying(String reason) implements GpuResult {
    @Override
    public State state() {
      return State.APPLYING;
    }
  }

  /** The target cannot exist on this GPU. */
  record Infeasible(String reason) implements GpuResult {
    @Override
    public State state() {
      return State.INFEASIBLE;
    }
  }

  /**
   * A step failed; {@code code} is what NVML answered ({@link NvmlReturn#NO_PERMISSION} means migd
   * does not run as root) and {@code reason} names the step, the NVML function and the code.
   */
  record Failed(Step step, NvmlReturn code, String reason) implements GpuResult {
    @Override
    public State state() {
      return State.FAILED;
    }
  }
}
