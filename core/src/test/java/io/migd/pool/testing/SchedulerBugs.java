package io.migd.pool.testing;

/**
 * Known bugs of released kube-schedulers that {@link TestAllocator} can reproduce, so a test can
 * show what migd does when a cluster runs such a version. Without any, it behaves as Kubernetes
 * 1.36.2 and later.
 */
public enum SchedulerBugs {
  /**
   * Kubernetes 1.35.0 to 1.36.1 (kubernetes#139034): when a later scheduling cycle rebuilds the
   * available shared counters it counts only exclusively allocated devices, not devices with
   * committed shares, so a device overlapping a shared device in use (the whole GPU, or another
   * placement) can be allocated beside it.
   */
  SHARES_IGNORED_IN_COUNTERS
}
