package io.migd.reconcile;

import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * How far the node is towards its intent, for the REST status: which generation the running
 * reconcile works towards, the steps of the last reshape with the time each took, the step each GPU
 * is executing, and the last outcome. Listener calls may come from several threads (GPUs reshape in
 * parallel); every method holds the monitor for a few field updates only.
 */
public final class LayoutProgress implements ProgressListener, OutcomeListener {
  private final LongSupplier nanoTime;

  private long startedGeneration = -1;
  private Desired started;
  private boolean running;
  private boolean planMadeInPass;
  private boolean freshPass;
  private final List<Entry> steps = new ArrayList<>();
  private final Map<GpuIndex, Step> inFlight = new TreeMap<>();
  private Outcome last;

  /** A tracker timing steps with {@link System#nanoTime()}. */
  public LayoutProgress() {
    this(System::nanoTime);
  }

  /** A tracker timing steps with {@code nanoTime}. */
  public LayoutProgress(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** A step of the last reshape; {@code took} is how long it ran, zero until {@code ran}. */
  public record TimedStep(Step step, boolean ran, Duration took) {}

  /**
   * Where the node is for the intent now.
   *
   * @param state the node state's wire name, or {@code pending} while the intent's reconcile has
   *     not started
   * @param reason one sentence saying why
   * @param plan the steps of the last reshape, in the order they were planned
   * @param reshapeEnded whether every step of that reshape ran
   * @param total from the first step's start to the last step's end, once every step ran
   * @param inFlight the step each GPU is executing now
   * @param outcomes the last reconcile's end, none before the first one ended
   */
  public record Snapshot(
      String state,
      String reason,
      List<TimedStep> plan,
      boolean reshapeEnded,
      Duration total,
      List<Step> inFlight,
      List<Outcome> outcomes) {
    /** Copies the lists. */
    public Snapshot {
      plan = List.copyOf(plan);
      inFlight = List.copyOf(inFlight);
      outcomes = List.copyOf(outcomes);
    }

    /** The last reconcile's end, empty before the first one ended. */
    public Optional<Outcome> outcome() {
      return outcomes.stream().findFirst();
    }
  }

  /** A reconcile towards {@code desired} starts now. */
  public synchronized void reconcileStarted(Desired desired) {
    startedGeneration = desired.generation();
    started = desired;
    running = true;
    planMadeInPass = false;
    freshPass = true;
  }

  /**
   * The intent the running (else the last) reconcile works towards, which may be older than the
   * intent now: what a plan's surfaces must name (issue 17: Events named a newer generation than
   * the one being applied). Empty before the first reconcile started.
   */
  public synchronized Optional<Desired> reconciling() {
    return Optional.ofNullable(started);
  }

  @Override
  public synchronized void planMade(GpuIndex gpu, Plan plan) {
    if (freshPass) {
      // the first plan of a pass starts a new reshape; a pass that plans nothing keeps the last
      steps.clear();
      freshPass = false;
    }
    planMadeInPass = true;
    plan.steps().forEach(step -> steps.add(new Entry(step)));
  }

  /** The abandoned plan's steps go: the layout never shows a plan that will not run as the plan. */
  @Override
  public synchronized void planAbandoned(GpuIndex gpu, Plan plan) {
    var abandoned = new ArrayList<>(plan.steps());
    steps.removeIf(e -> e.startNanos < 0 && e.step.gpu().equals(gpu) && abandoned.remove(e.step));
  }

  @Override
  public synchronized void stepStarted(Step step) {
    inFlight.put(step.gpu(), step);
    steps.stream()
        .filter(e -> e.startNanos < 0 && e.step.equals(step))
        .findFirst()
        .ifPresent(e -> e.startNanos = nanoTime.getAsLong());
  }

  @Override
  public synchronized void stepDone(Step step) {
    ended(step);
  }

  @Override
  public synchronized void stepFailed(Step step, NvmlException cause) {
    ended(step);
  }

  private void ended(Step step) {
    inFlight.remove(step.gpu(), step);
    steps.stream()
        .filter(e -> e.startNanos >= 0 && e.endNanos < 0 && e.step.equals(step))
        .findFirst()
        .ifPresent(e -> e.endNanos = nanoTime.getAsLong());
  }

  @Override
  public synchronized void reconciled(Desired desired, Outcome outcome) {
    last = outcome;
    if (desired.generation() == startedGeneration) {
      running = false;
    }
    // a GPU whose executor gave up mid-plan has nothing in flight any more
    inFlight.clear();
  }

  /** The progress towards {@code current}, the intent now. */
  public synchronized Snapshot snapshot(Desired current) {
    String state;
    String reason;
    long generation = current.generation();
    if (last == null && !running || generation > startedGeneration) {
      state = "pending";
      reason = "generation " + generation + " is accepted; its reconcile has not started";
    } else if (running && (last == null || last.generation() != generation || planMadeInPass)) {
      state = GpuResult.State.APPLYING.wireName();
      reason = "reconciling towards generation " + generation;
    } else {
      state = last.state().wireName();
      reason = last.reason();
    }
    var plan = steps.stream().map(Entry::timed).toList();
    Duration total = Duration.ZERO;
    boolean allRan = !steps.isEmpty() && steps.stream().allMatch(e -> e.endNanos >= 0);
    if (allRan) {
      long first = steps.stream().mapToLong(e -> e.startNanos).min().orElseThrow();
      long end = steps.stream().mapToLong(e -> e.endNanos).max().orElseThrow();
      total = Duration.ofNanos(end - first);
    }
    return new Snapshot(
        state,
        reason,
        plan,
        allRan,
        total,
        List.copyOf(inFlight.values()),
        last == null ? List.of() : List.of(last));
  }

  /** One planned step and when it started and ended ({@code -1} until then). */
  private static final class Entry {
    private final Step step;
    private long startNanos = -1;
    private long endNanos = -1;

    Entry(Step step) {
      this.step = step;
    }

    TimedStep timed() {
      return endNanos < 0
          ? new TimedStep(step, false, Duration.ZERO)
          : new TimedStep(step, true, Duration.ofNanos(endNanos - startNanos));
    }
  }
}
