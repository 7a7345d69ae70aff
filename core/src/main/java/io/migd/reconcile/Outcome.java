package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.plan.Decision;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * The end of one reconcile, the one source every surface reads: for each GPU of the node what the
 * intent asked of it, what was decided and how it ended ({@link GpuResult.Unmanaged} for a GPU the
 * intent does not select), the GPUs as the reconcile last observed them, and the node state derived
 * from the results (the worst, in the order failed/infeasible > blocked > rebooting > applying >
 * success; success when no GPU counts).
 *
 * @param gpus per GPU, in index order
 * @param observed the GPUs after their plans ran; a GPU NVML failed on is missing
 * @param error empty, or why the reconcile could not even list the GPUs
 */
public record Outcome(
    long generation,
    SequencedMap<GpuIndex, Gpu> gpus,
    ObservedNode observed,
    String error,
    Instant at) {

  /**
   * What the reconcile made of one GPU.
   *
   * @param resolution what the intent asks of it (its target and sharing, or why none)
   * @param decision what was decided from what was observed first
   * @param result how it ended
   * @param turningStatic whether the GPU turns from dynamic to static while claims are still
   *     prepared on it (DRA mode): its unprepared devices are withdrawn, and it stays blocked until
   *     no claim is prepared on it
   */
  public record Gpu(
      Resolution resolution, Decision decision, GpuResult result, boolean turningStatic) {
    /** Checks every part is there. */
    public Gpu {
      Objects.requireNonNull(resolution);
      Objects.requireNonNull(decision);
      Objects.requireNonNull(result);
    }

    /**
     * Why the GPU is in its state: its result's reason, and its target's note (a replaced GPU,
     * sharing that departs from the device-plugin config: {@link Resolution.Target#note}).
     */
    public String reason() {
      return resolution instanceof Resolution.Target(_, var note) && !note.isEmpty()
          ? result.reason() + "; " + note
          : result.reason();
    }

    /** A GPU that is not turning from dynamic to static. */
    public Gpu(Resolution resolution, Decision decision, GpuResult result) {
      this(resolution, decision, result, false);
    }

    /**
     * Whether the GPU is dynamic (DRA mode): it publishes every profile at every placement and
     * claims make its instances. Every other GPU is static, unselected ones included. The DRA
     * surface reads this, never the intent.
     */
    public boolean dynamic() {
      return resolution instanceof Resolution.Target(var target, _) && target.dynamic();
    }

    /**
     * Whether the intent asks for the GPU's devices to be published with shareable twins as well
     * (DRA mode, DESIGN section 14); the pool publishes them only where the cluster's gates allow.
     */
    public boolean shares() {
      return resolution instanceof Resolution.Target(var target, _) && target.shares();
    }
  }

  /** Copies the GPUs in index order. */
  public Outcome {
    gpus = Collections.unmodifiableSequencedMap(new TreeMap<>(gpus));
    Objects.requireNonNull(observed);
    Objects.requireNonNull(error);
  }

  /**
   * An outcome known only by its GPUs' results, as a test or a replay builds it: no GPU resolved to
   * a target ({@link Resolution.Unselected}, decided {@link Decision.Unmanaged}), nothing observed.
   */
  public Outcome(long generation, SequencedMap<GpuIndex, GpuResult> results, Instant at) {
    this(generation, resultsOnly(results), new ObservedNode(List.of()), "", at);
  }

  private static SequencedMap<GpuIndex, Gpu> resultsOnly(
      SequencedMap<GpuIndex, GpuResult> results) {
    var gpus = new LinkedHashMap<GpuIndex, Gpu>();
    results.forEach(
        (gpu, result) ->
            gpus.put(gpu, new Gpu(new Resolution.Unselected(), new Decision.Unmanaged(), result)));
    return gpus;
  }

  /** A reconcile that could not even list the GPUs (NVML failed, for instance). */
  public static Outcome failed(long generation, String error, Instant at) {
    return new Outcome(generation, new TreeMap<>(), new ObservedNode(List.of()), error, at);
  }

  /** How each GPU ended, in index order. */
  public SequencedMap<GpuIndex, GpuResult> results() {
    var results = new LinkedHashMap<GpuIndex, GpuResult>();
    gpus.forEach((gpu, entry) -> results.put(gpu, entry.result()));
    return Collections.unmodifiableSequencedMap(results);
  }

  /**
   * The target of every GPU the intent resolved to one (its layout and sharing), in index order;
   * GPUs it does not select, or cannot apply to, are absent.
   */
  public SequencedMap<GpuIndex, GpuTarget> targets() {
    var targets = new LinkedHashMap<GpuIndex, GpuTarget>();
    gpus.forEach(
        (gpu, entry) -> {
          if (entry.resolution() instanceof Resolution.Target(var target, _)) {
            targets.put(gpu, target);
          }
        });
    return Collections.unmodifiableSequencedMap(targets);
  }

  /** Whether the GPU is dynamic ({@link Gpu#dynamic}); false for a GPU the outcome lacks. */
  public boolean dynamic(GpuIndex gpu) {
    Gpu entry = gpus.get(gpu);
    return entry != null && entry.dynamic();
  }

  /** Whether the GPU asks for shareable twins ({@link Gpu#shares}); false for one it lacks. */
  public boolean shares(GpuIndex gpu) {
    Gpu entry = gpus.get(gpu);
    return entry != null && entry.shares();
  }

  /** A GPU as the reconcile last observed it; empty when NVML failed on it. */
  public Optional<ObservedGpu> observed(GpuIndex gpu) {
    return observed.gpus().stream().filter(g -> g.index().equals(gpu)).findFirst();
  }

  /**
   * Whether every GPU with a result was observed after the reconcile (and the GPUs could be
   * listed), so what the outcome shows of the node is complete.
   */
  public boolean observedEveryGpu() {
    return error.isEmpty() && gpus.keySet().stream().allMatch(gpu -> observed(gpu).isPresent());
  }

  /** The node's state. */
  public GpuResult.State state() {
    if (!error.isEmpty()) {
      return GpuResult.State.FAILED;
    }
    return gpus.values().stream()
        .map(g -> g.result().state())
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
    return results().entrySet().stream()
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
