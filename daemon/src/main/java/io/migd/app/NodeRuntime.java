package io.migd.app;

import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.NodeObserver;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.ProcessUsage;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import java.time.Clock;

/** Builds the reconcile core over an NVML session with plain {@code new}. */
public final class NodeRuntime {
  private NodeRuntime() {}

  /** A reconciler that resolves named configs from {@code configs}. */
  public static Reconciler reconciler(
      NvmlSession session,
      GpuModelCatalog catalog,
      MigConfigFile configs,
      ProgressListener listener,
      RebootPolicy reboot) {
    var nvml = session.nvml();
    return new Reconciler(
        new NodeObserver(nvml, catalog),
        new io.migd.layout.ModelSource(nvml, catalog),
        name -> configs.config(name),
        new ProcessUsage(
            pid -> {
              try {
                return nvml.processName(pid);
              } catch (RuntimeException e) {
                return "pid " + pid;
              }
            }),
        new Executor(nvml, listener),
        listener,
        session.reset(),
        reboot,
        Clock.systemUTC());
  }
}
