package io.migd.reconcile;

import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Decision;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** How one GPU ended a reconcile. Surfaces read these; none of them re-derives it. */
public sealed interface GpuResult {
  /** One sentence for people: what happened and why. */
  String reason();

  /** The state this result puts the GPU in. */
  State state();

  /**
   * The result of a decision that runs no plan.
   *
   * @throws IllegalArgumentException for a {@link Decision.Change}, whose result comes from running
   *     it
   */
  static GpuResult of(Decision decision) {
    return switch (decision) {
      case Decision.InSync() -> new InSync();
      case Decision.Infeasible(var reason) -> new Infeasible(reason);
      case Decision.Blocked(var holders, var reason) -> new Blocked(holders, reason);
      case Decision.Unmanaged() -> new Unmanaged();
      case Decision.Failed(var code, var reason) -> new Failed(null, code, reason);
      case Decision.Change _ ->
          throw new IllegalArgumentException("a change has a result only once it ran");
    };
  }

  /** Per-GPU states, worst last; {@code UNMANAGED} does not count toward the node's state. */
  enum State {
    UNMANAGED,
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

    /** Whether the node's state counts this GPU (every GPU the intent selects). */
    boolean counts() {
      return this != UNMANAGED;
    }
  }

  /** The intent does not select this GPU; migd leaves it as it is. */
  record Unmanaged() implements GpuResult {
    @Override
    public String reason() {
      return "not selected by the intent; migd leaves it as it is";
    }

    @Override
    public State state() {
      return State.UNMANAGED;
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
   * The GPU failed; {@code code} is what NVML answered ({@link NvmlReturn#NO_PERMISSION} means migd
   * does not run as root) and {@code reason} names the step or the stage, the NVML function and the
   * code. {@code step} is the step that failed, or null when no step was running (observing,
   * deciding or verifying the GPU).
   */
  record Failed(Step step, NvmlReturn code, String reason) implements GpuResult {
    /** Checks the code and reason are there. */
    public Failed {
      Objects.requireNonNull(code);
      Objects.requireNonNull(reason);
    }

    /** NVML failed while {@code doing} something to the GPU outside a step. */
    public static Failed nvml(String doing, NvmlException cause) {
      var failed = Decision.Failed.of(doing, cause);
      return new Failed(null, failed.code(), failed.reason());
    }

    /**
     * migd itself failed while {@code doing} something to the GPU: {@link
     * Decision.Failed#unexpected}.
     */
    public static Failed unexpected(String doing, RuntimeException cause) {
      var failed = Decision.Failed.unexpected(doing, cause);
      return new Failed(null, failed.code(), failed.reason());
    }

    @Override
    public State state() {
      return State.FAILED;
    }
  }
}
