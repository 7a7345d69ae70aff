package io.migd.reconcile;

import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import java.time.Clock;

/**
 * The collaborators a {@link Reconciler} is built from, kept so that a copy with other {@link
 * ReconcilerOptions} can be built when the daemon is wired.
 */
record ReconcilerParts(
    NodeObserver observer,
    ModelSource models,
    ConfigLookup configs,
    UsageSource usageSource,
    Executor executor,
    ProgressListener listener,
    GpuReset reset,
    RebootPolicy reboot,
    Clock clock) {}
