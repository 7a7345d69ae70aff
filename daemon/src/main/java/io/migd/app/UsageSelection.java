package io.migd.app;

import io.migd.devices.KubeletUsage;
import io.migd.reconcile.UsageSource;
import java.util.Optional;

/**
 * Which usage the daemon decides and reports from (docs/contract.md, usage): the kubelet's
 * (PodResources, the allocation grace, and NVML's processes) while the kubelet surface is on, else
 * NVML's processes alone. The reconciler and the REST reads take the same one.
 */
final class UsageSelection {
  private UsageSelection() {}

  /** The daemon's: the kubelet surface's usage when it is on, else {@code processes}. */
  static UsageSource daemon(Optional<KubeletUsage> kubelet, UsageSource processes) {
    return kubelet.<UsageSource>map(k -> k).orElse(processes);
  }
}
