package io.migd.bench.chaos;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run counted: operations by kind and how each ended, faults injected, kills survived,
 * invariant violations (each with the seed and the step), converge times and resource samples.
 */
final class ChaosReport {
  /** An invariant that did not hold, at a step of the run of a seed. */
  record Violation(long seed, int step, String invariant, String detail) {
    @Override
    public String toString() {
      return "VIOLATION seed=" + seed + " step=" + step + " " + invariant + ": " + detail;
    }
  }

  private final long seed;
  private final Map<String, Map<String, Integer>> outcomes = new TreeMap<>();
  private final Map<String, Integer> faults = new TreeMap<>();
  private final List<Violation> violations = new ArrayList<>();
  private final List<Duration> convergeTimes = new ArrayList<>();
  private final List<ResourceSample> samples = new ArrayList<>();
  private int kills;
  private int killFaults;
  private final Map<String, Integer> sharings = new TreeMap<>();
  private int steps;

  ChaosReport(long seed) {
    this.seed = seed;
  }

  synchronized void operation(String kind, String outcome) {
    steps++;
    outcomes.computeIfAbsent(kind, k -> new TreeMap<>()).merge(outcome, 1, Integer::sum);
  }

  /** (DRA) A claim was prepared with {@code sharing} ({@link ChaosSharing}). */
  synchronized void preparedWith(String sharing) {
    sharings.merge(sharing, 1, Integer::sum);
  }

  synchronized void fault(String kind) {
    faults.merge(kind, 1, Integer::sum);
  }

  synchronized void killSurvived(boolean byFault) {
    if (byFault) {
      killFaults++;
    } else {
      kills++;
    }
  }

  synchronized void violation(int step, String invariant, String detail) {
    var v = new Violation(seed, step, invariant, detail);
    violations.add(v);
    System.out.println(v);
  }

  synchronized void converged(Duration time) {
    convergeTimes.add(time);
  }

  synchronized void sample(ResourceSample sample) {
    samples.add(sample);
    System.out.println(sample);
  }

  synchronized List<Violation> violations() {
    return List.copyOf(violations);
  }

  synchronized int killsSurvived() {
    return kills + killFaults;
  }

  /** How the operations of {@code kind} ended, by outcome. */
  synchronized Map<String, Integer> outcomes(String kind) {
    return Map.copyOf(outcomes.getOrDefault(kind, Map.of()));
  }

  synchronized List<Duration> convergeTimes() {
    return List.copyOf(convergeTimes);
  }

  synchronized void print(PrintStream out, Duration elapsed) {
    out.printf("chaos seed=%d: %d operations in %d s%n", seed, steps, elapsed.toSeconds());
    out.println("operations by kind (outcome x count):");
    outcomes.forEach((kind, by) -> out.printf("  %-16s %s%n", kind, by));
    if (!sharings.isEmpty()) {
      out.println("claims prepared by sharing: " + sharings);
    }
    out.println("NVML faults injected (by kind): " + faults);
    out.printf(
        "kills survived: %d SIGKILL by the runner, %d by an NVML KILL fault%n", kills, killFaults);
    var sorted = convergeTimes.stream().sorted().toList();
    if (sorted.isEmpty()) {
      out.println("converge time after the faults stopped: no settle ran");
    } else {
      out.printf(
          "converge time after the faults stopped (%d settles): p50 %d ms, p99 %d ms, max %d ms%n",
          sorted.size(),
          percentile(sorted, 0.50).toMillis(),
          percentile(sorted, 0.99).toMillis(),
          sorted.getLast().toMillis());
    }
    ResourceSample.summary(samples).forEach(out::println);
    out.println("invariant violations: " + violations.size());
    violations.forEach(v -> out.println("  " + v));
  }

  private static Duration percentile(List<Duration> sorted, double p) {
    int i = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }
}
