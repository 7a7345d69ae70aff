package io.migd.ownership;

import io.migd.layout.GpuIndex;
import java.util.List;

/**
 * Which prepared claims own which devices, read from the checkpoint: the pool (free placements,
 * UUIDs of prepared dynamic devices), the reconcile (a dynamic GPU's instances belong to claims)
 * and the REST surface read it. Implementations answer from memory, without I/O.
 */
public interface ClaimedDevices {
  /** No claim prepared: device-plugin mode, and tests. */
  ClaimedDevices NONE = List::of;

  /** Every claim, started or completed, in the order they were first recorded. */
  List<CheckpointClaim> claims();

  /** Every device a claim owns (not its admin-access ones), in claim then device order. */
  default List<ClaimedDevice> all() {
    return claims().stream()
        .flatMap(
            c ->
                c.devices().stream()
                    .filter(d -> d.kind().owned())
                    .map(d -> new ClaimedDevice(c, d)))
        .toList();
  }

  /** The devices prepared claims own on one GPU. */
  default List<ClaimedDevice> on(GpuIndex gpu) {
    return all().stream().filter(d -> d.gpu().equals(gpu)).toList();
  }
}
