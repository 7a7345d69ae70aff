package io.migd.plan;

import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import java.util.List;

/**
 * What was decided for one GPU. The planner returns the first four, and {@link Failed} when its
 * placement search is cut; the reconciler adds {@link Unmanaged} and {@link Failed} for GPUs it
 * cannot hand to the planner, so every GPU of the node has a decision.
 */
public sealed interface Decision {
  /** The GPU already looks as it should; nothing to do. */
  record InSync() implements Decision {}

  /** The GPU can be brought to the target by running {@code plan}. */
  record Change(Plan plan) implements Decision {}

  /**
   * The change needs a slice (or the whole GPU) that is in use; {@code holders} names the pods and
   * processes, {@code reason} is one sentence for people. Nothing on this GPU is touched.
   */
  record Blocked(List<String> holders, String reason) implements Decision {
    /** Copies the list. */
    public Blocked {
      holders = List.copyOf(holders);
    }
  }

  /**
   * The target cannot exist on this GPU (unknown profile, too many instances, no placement fits,
   * MIG asked of a GPU without it, a different GPU than the intent was made for); {@code reason}
   * names the GPU, its model and what would fit instead.
   */
  record Infeasible(String reason) implements Decision {}

  /** The intent does not select this GPU: migd leaves it as it is and it does not count. */
  record Unmanaged() implements Decision {}

  /**
   * NVML failed while the GPU was observed or decided; {@code reason} names what was being done,
   * the NVML function and the code ({@link NvmlReturn#UNKNOWN} and the exception when migd itself
   * failed). Nothing on this GPU is touched.
   */
  record Failed(NvmlReturn code, String reason) implements Decision {
    /** NVML failed while {@code doing} something for the GPU. */
    public static Failed of(String doing, NvmlException cause) {
      return new Failed(cause.code(), doing + " failed: " + cause.getMessage());
    }

    /**
     * migd itself failed (not NVML) while {@code doing} something for the GPU: a bug, with the code
     * {@link NvmlReturn#UNKNOWN}. Only this GPU fails; the others go on.
     */
    public static Failed unexpected(String doing, RuntimeException cause) {
      return new Failed(NvmlReturn.UNKNOWN, doing + " failed: " + cause);
    }

    /**
     * The placement search reached {@code migd.planner.max-steps} before it found any layout (issue
     * 19): {@code reason} says after how many steps. Not the target's fault, so never {@link
     * Infeasible}; a larger bound may find one. The code is {@link NvmlReturn#UNKNOWN}.
     */
    public static Failed searchCut(String reason) {
      return new Failed(NvmlReturn.UNKNOWN, reason);
    }
  }
}
