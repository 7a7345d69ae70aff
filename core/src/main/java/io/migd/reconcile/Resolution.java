package io.migd.reconcile;

import io.migd.layout.GpuTarget;
import java.util.Objects;

/**
 * What the intent means for one GPU of the node, as a reconcile resolved it: a target, why there
 * can be none, or nothing (the intent does not select the GPU). The {@link Outcome} carries it for
 * every GPU, so the surfaces read the sharing and the layout the reconcile worked towards instead
 * of resolving the intent again.
 */
public sealed interface Resolution {
  /**
   * The GPU should look like this, shared as the target says; {@code note} says where its sharing
   * departs from NVIDIA's device-plugin config of the node (its config item's own sharing wins),
   * empty otherwise.
   */
  record Target(GpuTarget target, String note) implements Resolution {
    /** Checks both are there. */
    public Target {
      Objects.requireNonNull(target);
      Objects.requireNonNull(note);
    }

    /** A target without a note. */
    public Target(GpuTarget target) {
      this(target, "");
    }
  }

  /**
   * The intent names this GPU but cannot apply to it (a config the file lacks, a GPU the node
   * lacks, a GPU other than the one the intent was made for); {@code reason} says which.
   */
  record Unreachable(String reason) implements Resolution {}

  /**
   * The intent selects nothing on this GPU, or the GPU could not be observed so a named config
   * could not be resolved for it (its decision then says why).
   */
  record Unselected() implements Resolution {}
}
