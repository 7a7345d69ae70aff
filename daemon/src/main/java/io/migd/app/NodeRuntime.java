package io.migd.app;

import io.migd.devices.AllocationGrace;
import io.migd.devices.KubeletUsage;
import io.migd.execute.ProgressListener;
import io.migd.kubelet.PodResourcesClient;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedNode;
import io.migd.nvml.Nvml;
import io.migd.ownership.ClaimedDevices;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.DeviceOwnership;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.KubeletMode;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.Resolution;
import io.migd.reconcile.StaticDeviceGuard;
import io.migd.reconcile.UsageSource;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the reconcile core over an NVML session for the daemon and the one-shot commands. */
public final class NodeRuntime {
  private static final Logger log = LoggerFactory.getLogger(NodeRuntime.class);

  private NodeRuntime() {}

  /**
   * The reconcile core of a one-shot command and the PodResources client it reads (if any), which
   * {@link #close} closes: a command must not leave its gRPC channel to the kubelet open (issue
   * 17).
   */
  public record OneShot(Reconciler reconciler, AutoCloseable podResources)
      implements AutoCloseable {
    @Override
    public void close() {
      try {
        podResources.close();
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        log.debug("closing the PodResources client: {}", e.toString());
      }
    }
  }

  /**
   * A reconciler for a one-shot command that resolves named configs from {@code configs}. On a
   * kubelet's node (its PodResources socket exists) it also counts the devices running pods hold as
   * in use, so a command never destroys a slice a pod was given; elsewhere NVML processes alone.
   */
  public static OneShot oneShot(
      NvmlSession session,
      GpuModelCatalog catalog,
      MigConfigFile configs,
      MigdProperties properties,
      RebootPolicy reboot) {
    UsageSource processes = Reconciler.processUsage(session.nvml());
    var kubelet = properties.kubelet();
    UsageSource usage = processes;
    AutoCloseable podResources = () -> {};
    if (kubelet.enabled() && Files.exists(kubelet.podResourcesSocket())) {
      var client = new PodResourcesClient(kubelet.podResourcesSocket());
      podResources = client;
      // a one-shot command never called Allocate: no grace to keep
      usage =
          new KubeletUsage(
              processes,
              client,
              new AllocationGrace(Clock.systemUTC()),
              Duration.ZERO,
              kubelet.requirePodResources(),
              Clock.systemUTC());
    }
    var reconciler =
        Reconciler.over(
                session.nvml(),
                catalog,
                configs::config,
                usage,
                ProgressListener.NONE,
                session.reset(),
                reboot)
            .withParallelism(properties.reconcile().parallelism());
    return new OneShot(reconciler, podResources);
  }

  /**
   * The intent's target for each GPU it selects, as the reconcile loop resolves it ({@link
   * Reconciler#resolve}, in the kubelet mode {@code properties} give): for the one-shot readers of
   * the intent ({@code export}, {@code status} without the daemon), so they resolve as the loop
   * does, never a second way.
   */
  public static Map<GpuIndex, GpuTarget> targets(
      Nvml nvml,
      GpuModelCatalog catalog,
      MigConfigFile configs,
      MigdProperties properties,
      Desired desired,
      ObservedNode observed) {
    var reconciler =
        Reconciler.over(
            nvml,
            catalog,
            configs::config,
            ProgressListener.NONE,
            GpuReset.NONE,
            RebootPolicy.DISABLED);
    var kubelet = properties.kubelet();
    if (kubelet.enabled() && kubelet.mode() == KubeletMode.DRA) {
      reconciler =
          reconciler.withOwnership(
              DeviceOwnership.dra(ClaimedDevices.NONE, StaticDeviceGuard.NONE));
    }
    var targets = new LinkedHashMap<GpuIndex, GpuTarget>();
    reconciler
        .resolve(desired, observed)
        .forEach(
            (gpu, resolution) -> {
              if (resolution instanceof Resolution.Target(var target, _)) {
                targets.put(gpu, target);
              }
            });
    return targets;
  }
}
