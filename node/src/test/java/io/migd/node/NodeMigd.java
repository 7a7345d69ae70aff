package io.migd.node;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.execute.ProgressListener;
import io.migd.nvml.Nvml;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.ReconcileSettings;
import io.migd.reconcile.Reconciler;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One run of migd on a node, wired as the daemon wires it without Spring: the intent from the state
 * dir and the node label at start, the reconcile loop over the simulated GPUs, the label watch that
 * changes the intent and triggers the loop, and the state written back to the Node. Closing it is
 * migd going down; the GPUs and the state dir stay for the next run.
 */
final class NodeMigd implements AutoCloseable {
  static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  final IntentService intents;
  final ReconcileLoop loop;
  final NodeLabelWatch watch;
  final NodeStateWriter writer;
  private final ExecutorService writes;

  NodeMigd(
      KubernetesClient client,
      String nodeName,
      SimulatedNvml sim,
      Nvml nvml,
      MigConfigFile configs,
      Path stateDir,
      Optional<IntentService.FileConfig> fileConfig) {
    this(
        client,
        nodeName,
        sim,
        nvml,
        configs,
        stateDir,
        fileConfig,
        new ReconcileSettings(Duration.ofHours(1), Duration.ofMillis(50), Duration.ofMillis(500)),
        ProgressListener.NONE);
  }

  /** As the first constructor, telling {@code first} of each plan before migd's surfaces. */
  NodeMigd(
      KubernetesClient client,
      String nodeName,
      SimulatedNvml sim,
      Nvml nvml,
      MigConfigFile configs,
      Path stateDir,
      Optional<IntentService.FileConfig> fileConfig,
      ProgressListener first) {
    this(
        client,
        nodeName,
        sim,
        nvml,
        configs,
        stateDir,
        fileConfig,
        new ReconcileSettings(Duration.ofHours(1), Duration.ofMillis(50), Duration.ofMillis(500)),
        first);
  }

  /**
   * As the constructor above, with the loop's timing given: the fault tests and the fleet need a
   * short resync, which is what brings a state write that failed again once the API server answers.
   */
  NodeMigd(
      KubernetesClient client,
      String nodeName,
      SimulatedNvml sim,
      Nvml nvml,
      MigConfigFile configs,
      Path stateDir,
      Optional<IntentService.FileConfig> fileConfig,
      ReconcileSettings settings) {
    this(
        client,
        nodeName,
        sim,
        nvml,
        configs,
        stateDir,
        fileConfig,
        settings,
        ProgressListener.NONE);
  }

  private NodeMigd(
      KubernetesClient client,
      String nodeName,
      SimulatedNvml sim,
      Nvml nvml,
      MigConfigFile configs,
      Path stateDir,
      Optional<IntentService.FileConfig> fileConfig,
      ReconcileSettings settings,
      ProgressListener first) {
    intents = new IntentService(new IntentStore(stateDir), fileConfig);
    watch = new NodeLabelWatch(client, nodeName, settings.resync());
    intents.labelSeen(watch.readLabel());
    writes = Executors.newSingleThreadExecutor();
    var progress = new LayoutProgress();
    writer =
        new NodeStateWriter(
            client, nodeName, writes, CapacityLabels.Source.OFF, progress::reconciling);
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    Reconciler reconciler =
        Reconciler.over(
            nvml,
            CATALOG,
            configs::config,
            ProgressListener.all(List.of(first, writer)),
            reset,
            RebootPolicy.DISABLED);
    loop =
        new ReconcileLoop(
            reconciler,
            () -> {
              Desired desired = intents.current();
              progress.reconcileStarted(desired);
              return desired;
            },
            settings,
            List.of(progress, writer));
    loop.start();
    watch.start(
        label -> {
          if (intents.labelSeen(label)) {
            loop.trigger();
          }
        });
  }

  @Override
  public void close() {
    watch.close();
    loop.close();
    writes.close();
  }
}
