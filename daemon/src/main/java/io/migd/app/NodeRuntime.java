package io.migd.app;

import io.migd.devices.AllocationGrace;
import io.migd.devices.KubeletUsage;
import io.migd.execute.ProgressListener;
import io.migd.kubelet.PodResourcesClient;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.UsageSource;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;

/** Builds the reconcile core over an NVML session for the daemon and the one-shot commands. */
public final class NodeRuntime {
  private NodeRuntime() {}

  /**
   * A reconciler for a one-shot command that resolves named configs from {@code configs}. On a
   * kubelet's node (its PodResources socket exists) it also counts the devices running pods hold as
   * in use, so a command never destroys a slice a pod was given; elsewhere NVML processes alone.
   */
  public static Reconciler reconciler(
      NvmlSession session,
      GpuModelCatalog catalog,
      MigConfigFile configs,
      MigdProperties properties,
      RebootPolicy reboot) {
    return Reconciler.over(
            session.nvml(),
            catalog,
            configs::config,
            oneShotUsage(session, properties),
            ProgressListener.NONE,
            session.reset(),
            reboot)
        .withParallelism(properties.reconcile().parallelism());
  }

  private static UsageSource oneShotUsage(NvmlSession session, MigdProperties properties) {
    UsageSource processes = Reconciler.processUsage(session.nvml());
    var kubelet = properties.kubelet();
    if (!kubelet.enabled() || !Files.exists(kubelet.podResourcesSocket())) {
      return processes;
    }
    // a one-shot command never called Allocate: no grace to keep
    return new KubeletUsage(
        processes,
        new PodResourcesClient(kubelet.podResourcesSocket()),
        new AllocationGrace(Clock.systemUTC()),
        Duration.ZERO,
        kubelet.requirePodResources(),
        Clock.systemUTC());
  }
}
