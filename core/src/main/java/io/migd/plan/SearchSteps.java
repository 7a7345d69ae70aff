package io.migd.plan;

/**
 * The search nodes one GPU decision has used, against its {@link PlannerBound}. One decision runs
 * on one thread; a counter is never shared between decisions.
 */
final class SearchSteps {
  private final long max;
  private long used;

  SearchSteps(PlannerBound bound) {
    this.max = bound.maxSteps();
  }

  /** Takes one step; false (and nothing taken) once the bound is reached. */
  boolean take() {
    if (used >= max) {
      return false;
    }
    used++;
    return true;
  }

  /** Whether the bound was reached: a search that saw this may not have seen everything. */
  boolean cut() {
    return used >= max;
  }

  /** The steps taken so far. */
  long used() {
    return used;
  }

  /** {@code "placement search cut after N steps"}, the reason a cut search gives. */
  String cutReason() {
    return "placement search cut after " + used + " steps";
  }
}
