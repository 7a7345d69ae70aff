package io.migd.reconcile;

import io.migd.layout.GpuTarget;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.util.Map;
import java.util.Objects;

/**
 * What the intent means for one GPU of the node, as a reconcile resolved it: a target, why there
 * can be none, or nothing (the intent does not select the GPU). The {@link Outcome} carries it for
 * every GPU, so the surfaces read the sharing and the layout the reconcile worked towards instead
 * of resolving the intent again.
 */
public sealed interface Resolution {
  /**
   * The GPU should look like this, shared as the target says; {@code note} says whether the GPU
   * replaced the one the intent was resolved against before ({@link Desired#replaced}) and where
   * its sharing departs from NVIDIA's device-plugin config of the node (its config item's own
   * sharing wins), empty when neither applies.
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
   * could not be resolved for it (its decision then says why). migd leaves its layout as it is;
   * NVIDIA's device-plugin config of the node may still share it: the whole GPU ({@code sharing})
   * and the slices of each profile it holds ({@code sliceSharing}).
   */
  record Unselected(Sharing sharing, Map<ProfileName, Sharing> sliceSharing) implements Resolution {
    /** Copies the map. */
    public Unselected {
      Objects.requireNonNull(sharing);
      sliceSharing = Map.copyOf(sliceSharing);
    }

    /** Not shared. */
    public Unselected() {
      this(new Sharing.TimeSliced(1), Map.of());
    }
  }
}
