package io.migd.app;

import io.migd.execute.ProgressListener;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;

/** Builds the reconcile core over an NVML session for the daemon and the one-shot commands. */
public final class NodeRuntime {
  private NodeRuntime() {}

  /** A reconciler that resolves named configs from {@code configs}. */
  public static Reconciler reconciler(
      NvmlSession session,
      GpuModelCatalog catalog,
      MigConfigFile configs,
      ProgressListener listener,
      RebootPolicy reboot) {
    return Reconciler.over(
        session.nvml(), catalog, configs::config, listener, session.reset(), reboot);
  }
}
