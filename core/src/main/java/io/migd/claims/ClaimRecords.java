package io.migd.claims;

import io.migd.layout.GpuIndex;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ClaimedDevice;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint as the claims side writes it: every record written through is told to the {@link
 * ClaimEvents} right after it is written, with the GPUs it is on, so the node snapshot observes
 * them again and the pool is rebuilt from the record just written (a prepare's last record is its
 * completed one: the pool built after it has the new instance owned by the claim and the GPU's free
 * placements). A listener that throws is logged and changes no answer.
 */
final class ClaimRecords {
  private static final Logger log = LoggerFactory.getLogger(ClaimRecords.class);

  private final ClaimCheckpoint checkpoint;
  private final ClaimEvents events;

  ClaimRecords(ClaimCheckpoint checkpoint, ClaimEvents events) {
    this.checkpoint = checkpoint;
    this.events = events;
  }

  ClaimCheckpoint checkpoint() {
    return checkpoint;
  }

  /** Records the claim in memory only ({@link ClaimCheckpoint#hold}). */
  void hold(CheckpointClaim claim) {
    checkpoint.hold(claim);
  }

  /** Records the claim, writes it through, then tells the listener its GPUs changed. */
  void put(CheckpointClaim claim) {
    checkpoint.put(claim);
    touched(gpus(claim));
  }

  /** Forgets the claim, writes that through, then tells the listener its GPUs changed. */
  void remove(CheckpointClaim claim) {
    checkpoint.remove(claim.claim().uid());
    touched(gpus(claim));
  }

  /** Tells the listener NVML changed on these GPUs without a record changing (a sweep). */
  void touched(Collection<GpuIndex> gpus) {
    tell(() -> events.touched(Set.copyOf(gpus)));
  }

  /** Tells the listener what a prepare took. */
  void prepared(ClaimKey claim, ClaimEvents.PrepareKind kind, Duration took) {
    tell(() -> events.prepared(claim, kind, took));
  }

  /** What the claims other than {@code key} own on a GPU (every claim's when it is null). */
  List<ClaimedDevice> others(ClaimKey key, GpuIndex gpu) {
    return checkpoint.on(gpu).stream().filter(d -> key == null || !d.key().equals(key)).toList();
  }

  private static Set<GpuIndex> gpus(CheckpointClaim claim) {
    var gpus = new TreeSet<GpuIndex>();
    claim.devices().forEach(d -> gpus.add(d.gpu()));
    return gpus;
  }

  private static void tell(Runnable told) {
    try {
      told.run();
    } catch (RuntimeException e) {
      log.warn("a listener of prepares and unprepares failed", e);
    }
  }
}
