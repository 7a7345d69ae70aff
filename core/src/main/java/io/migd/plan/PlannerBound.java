package io.migd.plan;

/**
 * How far the placement search may go for one GPU decision ({@code migd.planner.max-steps}, DESIGN
 * section 13): a count of search nodes, the same on every machine, so a decision never depends on
 * how fast the machine is or how loaded.
 *
 * <p>At the bound the planner plans with the best layout it has found so far; when it has found
 * none, the decision is {@link Decision.Failed} with "placement search cut after N steps".
 *
 * @param maxSteps search nodes per GPU decision, at least 1
 */
public record PlannerBound(long maxSteps) {
  /**
   * The default: the real catalogue's hardest decision (every target of every MIG model, from an
   * empty GPU and from every maximal layout with an instance in use) takes at most 700 steps, so
   * this leaves a margin of over 250 times, while the pathological model of issue 19 (20 profiles
   * sharing every placement) reaches it in about 50 ms (bench/README.md).
   */
  public static final PlannerBound DEFAULT = new PlannerBound(200_000);

  /** Validates the bound. */
  public PlannerBound {
    if (maxSteps < 1) {
      throw new IllegalArgumentException(
          "migd.planner.max-steps is " + maxSteps + "; give 1 or more");
    }
  }
}
