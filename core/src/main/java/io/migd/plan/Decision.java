package io.migd.plan;

import java.util.List;

/** What the planner decided for one GPU. */
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
}
