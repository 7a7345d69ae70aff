package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * The end of one reconcile: a result per GPU of the node ({@link GpuResult.Unmanaged} for a GPU the
 * intent does not select), and the node state derived from the others (the worst, in the order
 * failed/infeasible > blocked > rebooting > applying > success; success when no GPU counts).
 */
public record Outcome(
    long generation,
    SequencedMap<GpuIndex, GpuResult> results,
    ObservedNode observed,
    String error,
    Instant at) {
  /** Copies the results in GPU order. */
  public Outcome {
    results = Collections.unmodifiableSequencedMap(new TreeMap<>(results));
    java.util.Objects.requireNonNull(observed);
    java.util.Objects.requireNonNull(error);
  }

  /**
   * A reconcile that ended with a result per GPU, and the GPUs as it last observed them (after
   * their plans ran; a GPU NVML failed on is missing).
   */
  public Outcome(
      long generation,
      SequencedMap<GpuIndex, GpuResult> results,
      ObservedNode observed,
      Instant at) {
    this(generation, results, observed, "", at);
  }

  /** A reconcile that ended with a result per GPU; nothing observed is kept. */
  public Outcome(long generation, SequencedMap<GpuIndex, GpuResult> results, Instant at) {
    this(generation, results, new ObservedNode(List.of()), "", at);
  }

  /** A reconcile that could not even list the GPUs (NVML failed, for instance). */
  public static Outcome failed(long generation, String error, Instant at) {
    return new Outcome(generation, new TreeMap<>(), new ObservedNode(List.of()), error, at);
  }

  /** The node's state. */
  public GpuResult.State state() {
    if (!error.isEmpty()) {
      return GpuResult.State.FAILED;
    }
    return results.values().stream()
        .map(GpuResult::state)
        .filter(GpuResult.State::counts)
        .max(Comparator.comparingInt(GpuResult.State::severity))
        .orElse(GpuResult.State.SUCCESS);
  }

  /** Whether every selected GPU looks as it should. */
  public boolean succeeded() {
    return state() == GpuResult.State.SUCCESS;
  }

  /** One sentence: the worst GPU's reason, or that all is well. */
  public String reason() {
    if (!error.isEmpty()) {
      return error;
    }
    return results.entrySet().stream()
        .filter(e -> e.getValue().state().counts())
        .filter(e -> e.getValue().state() != GpuResult.State.SUCCESS)
        .max(Comparator.comparingInt(e -> e.getValue().state().severity()))
        .map(
            e ->
                e.getValue().reason().startsWith("GPU ")
                    ? e.getValue().reason()
                    : "GPU " + e.getKey() + ": " + e.getValue().reason())
        .orElse("every GPU matches the desired layout");
  }
}
