package io.migd.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.migd.execute.ProgressListener;
import io.migd.execute.ProgressListeners;
import io.migd.kubelet.KubeletSurface;
import io.migd.metrics.DeviceMetrics;
import io.migd.metrics.ListenerFailureMetrics;
import io.migd.metrics.ReconcileMetrics;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsSync;
import io.migd.node.NodeStateWriter;
import io.migd.reconcile.GpuUuidRecorder;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.OutcomeListener;
import io.migd.reconcile.OutcomeListeners;
import io.migd.reconcile.Reconciler;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Everything the reconcile tells, in one explicit order, each listener failing on its own (logged
 * with its name, counted in {@code migd_listener_failures_total}): {@code progress} goes to the
 * reconciler, {@code outcomes} to the loop. The kubelet and Node surfaces are absent when switched
 * off.
 */
record Surfaces(ProgressListeners progress, OutcomeListeners outcomes) {
  /**
   * The daemon's surfaces. Progress: the MPS daemons first (quit reaches a daemon before its slice
   * is withdrawn and destroyed), then the kubelet, the Node, the layout progress and the metrics.
   * The progress composite is for {@link Reconciler#overConcurrent}: the GPUs' threads tell the MPS
   * daemons at once, so one GPU's {@code quit} holds up no other GPU; every other progress listener
   * takes one event at a time. Outcomes: the MPS daemons first (a daemon is up before the kubelet
   * is shown its replicas), the node snapshot (what {@code GET /api/v1/gpus} and the scrape read),
   * in dra mode the GPUs' CDI spec (a claim's spec copies its common edits) and the pool (built
   * over that snapshot), then the kubelet, the Node, the layout progress, the metrics, the UUID
   * recorder, and readiness last, once every other surface shows the outcome.
   */
  static Surfaces of(
      MpsDaemons mps,
      OutcomeListener snapshot,
      Optional<OutcomeListener> draCdi,
      Optional<OutcomeListener> draPool,
      Optional<KubeletSurface> kubelet,
      Optional<NodeStateWriter> node,
      LayoutProgress layout,
      ReconcileMetrics metrics,
      Optional<DeviceMetrics> devices,
      IntentService intents,
      ApplicationEventPublisher events,
      MeterRegistry registry) {
    var progress = new ArrayList<ProgressListeners.Named>();
    progress.add(new ProgressListeners.Named("mps-daemons", mps));
    kubelet.ifPresent(k -> progress.add(oneAtATime("kubelet", k)));
    node.ifPresent(n -> progress.add(oneAtATime("node-state", n)));
    progress.add(oneAtATime("layout-progress", layout));
    progress.add(oneAtATime("reconcile-metrics", metrics));

    var outcomes = new ArrayList<OutcomeListeners.Named>();
    outcomes.add(new OutcomeListeners.Named("mps-daemons", new MpsSync(mps)));
    outcomes.add(new OutcomeListeners.Named("node-snapshot", snapshot));
    draCdi.ifPresent(c -> outcomes.add(new OutcomeListeners.Named("cdi-spec", c)));
    draPool.ifPresent(d -> outcomes.add(new OutcomeListeners.Named("dra-pool", d)));
    kubelet.ifPresent(k -> outcomes.add(new OutcomeListeners.Named("kubelet", k)));
    node.ifPresent(n -> outcomes.add(new OutcomeListeners.Named("node-state", n)));
    outcomes.add(new OutcomeListeners.Named("layout-progress", layout));
    outcomes.add(new OutcomeListeners.Named("reconcile-metrics", metrics));
    devices.ifPresent(d -> outcomes.add(new OutcomeListeners.Named("device-metrics", d)));
    outcomes.add(new OutcomeListeners.Named("gpu-uuids", new GpuUuidRecorder(intents)));
    outcomes.add(new OutcomeListeners.Named("readiness", new ReadinessPublisher(events)));

    var names = new LinkedHashSet<String>();
    progress.forEach(p -> names.add(p.name()));
    outcomes.forEach(o -> names.add(o.name()));
    var failures = new ListenerFailureMetrics(registry, names);
    return new Surfaces(
        new ProgressListeners(progress, failures), new OutcomeListeners(outcomes, failures));
  }

  private static ProgressListeners.Named oneAtATime(String name, ProgressListener listener) {
    return new ProgressListeners.Named(name, ProgressListener.oneAtATime(listener));
  }

  /** The names of the outcome listeners, in order. */
  List<String> outcomeOrder() {
    return outcomes.names();
  }

  /** The names of the progress listeners, in order. */
  List<String> progressOrder() {
    return progress.names();
  }
}
