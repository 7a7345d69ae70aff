package io.migd.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.migd.cdi.GpuCdiRefresh;
import io.migd.devices.DraTaints;
import io.migd.devices.KubeletUsage;
import io.migd.kubelet.KubeletSurface;
import io.migd.layout.NodeModels;
import io.migd.layout.NodeObserver;
import io.migd.metrics.DeviceMetrics;
import io.migd.metrics.ReconcileMetrics;
import io.migd.mps.MpsDaemons;
import io.migd.node.NodeLabelWatch;
import io.migd.node.NodeStateWriter;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.reconcile.Desired;
import io.migd.reconcile.DeviceOwnership;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.OperandPause;
import io.migd.reconcile.OutcomeListener;
import io.migd.reconcile.PresentGpusIntent;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.ReconcileSettings;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.UsageSource;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

/** Wires the reconcile core of the daemon with plain {@code new}. */
@Configuration(proxyBeanMethods = false)
class ReconcileConfiguration {
  private static final Logger log = LoggerFactory.getLogger(ReconcileConfiguration.class);

  /**
   * The built-in catalogue and the models of this node's MIG GPUs it lacks, as NVML lists their
   * profiles: the generated configs cover every MIG GPU of the node (DESIGN section 2).
   */
  @Bean
  GpuModelCatalog gpuModelCatalog(NvmlSession session) {
    return NodeModels.of(session.nvml(), GpuModelCatalog.builtIn());
  }

  /** The config file as it is now; {@link LiveConfigFile} says what a bad one means. */
  @Bean
  @DependsOn("stateLock")
  LiveConfigFile liveConfigFile(
      MigdProperties properties, GpuModelCatalog catalog, @Value("${NODE_NAME:}") String nodeName) {
    return LiveConfigFile.start(properties.configFile(), catalog, nodeName, properties.stateDir());
  }

  @Bean
  MigConfigFile migConfigFile(LiveConfigFile live) {
    return live.file();
  }

  /** Polls the config file; started once the loop exists, so an edit can trigger it. */
  @Bean(destroyMethod = "close")
  ConfigFilePoll configFilePoll(
      LiveConfigFile live, IntentService intents, ReconcileLoop loop, MigdProperties properties) {
    return new ConfigFilePoll(live, intents, loop::trigger, properties.configFilePoll());
  }

  @Bean
  SmartInitializingSingleton configFilePollStart(ConfigFilePoll poll) {
    return poll::start;
  }

  @Bean(destroyMethod = "close")
  StateLock stateLock(MigdProperties properties) {
    return StateLock.acquire(properties.stateDir());
  }

  /** Only the daemon that holds the state lock may read or write the intent. */
  @Bean
  @DependsOn("stateLock")
  IntentService intentService(
      MigdProperties properties,
      MigConfigFile configs,
      ObjectProvider<NodeLabelWatch> nodeLabelWatch) {
    Optional<IntentService.FileConfig> fileConfig =
        properties.config().isBlank()
            ? Optional.empty()
            : Optional.of(
                new IntentService.FileConfig(
                    properties.config(), LiveConfigFile.digest(configs, properties.config())));
    IntentService intents = new IntentService(new IntentStore(properties.stateDir()), fileConfig);
    NodeLabelWatch watch = nodeLabelWatch.getIfAvailable();
    if (watch != null) {
      // a label changed while migd was down wins before the first reconcile, not after it
      try {
        intents.labelSeen(watch.readLabel());
      } catch (RuntimeException e) {
        log.warn(
            "cannot read node {} at start: {}; the persisted intent applies until the watch sees"
                + " the node",
            watch.nodeName(),
            e.toString());
      }
    }
    return intents;
  }

  /**
   * The daemon's surfaces, in their one order ({@link Surfaces#of}); the kubelet and Node ones only
   * when switched on.
   */
  @Bean
  Surfaces surfaces(
      MpsDaemons mpsDaemons,
      NodeSnapshot snapshot,
      Optional<GpuCdiRefresh> draCdi,
      Optional<DraNode> draNode,
      Optional<KubeletSurface> kubeletSurface,
      Optional<NodeStateWriter> nodeStateWriter,
      LayoutProgress layoutProgress,
      ReconcileMetrics metrics,
      Optional<DeviceMetrics> deviceMetrics,
      IntentService intents,
      ApplicationEventPublisher events,
      MeterRegistry registry) {
    return Surfaces.of(
        mpsDaemons,
        snapshot,
        draCdi.map(OutcomeListener.class::cast),
        draNode.map(OutcomeListener.class::cast),
        kubeletSurface,
        nodeStateWriter,
        layoutProgress,
        metrics,
        deviceMetrics,
        intents,
        events,
        registry);
  }

  /** Nothing touches the GPUs before this daemon holds the state lock. */
  @Bean
  @DependsOn("stateLock")
  Reconciler reconciler(
      NvmlSession session,
      GpuModelCatalog catalog,
      NodeConfigs configs,
      MigdProperties properties,
      Optional<KubeletUsage> kubeletUsage,
      UsageSource processUsage,
      Optional<KubeletSurface> kubeletSurface,
      Surfaces surfaces,
      ReconcileMetrics metrics,
      NodeObserver observer,
      Optional<DeviceOwnership> draOwnership,
      Optional<DraTaints> draTaints,
      Optional<OperandPause> operandPause) {
    GpuReset reset = kubeletSurface.map(k -> k.watching(session.reset())).orElse(session.reset());
    if (draTaints.isPresent()) {
      reset = draTaints.get().watching(reset);
    }
    return Reconciler.overConcurrent(
            observer,
            session.nvml(),
            catalog,
            configs,
            UsageSelection.daemon(kubeletUsage, processUsage),
            surfaces.progress(),
            metrics.timing(reset),
            metrics.timing(new CommandReboot(properties)))
        .withParallelism(properties.reconcile().parallelism())
        .withPlannerBound(properties.planner().bound())
        .withOperandPause(operandPause.orElseGet(OperandPause::off))
        .withOwnership(draOwnership.orElse(DeviceOwnership.DEVICE_PLUGIN));
  }

  /**
   * How far the node is towards its intent, for {@code GET /api/v1/layout}: told of every plan,
   * step and outcome.
   */
  @Bean
  LayoutProgress layoutProgress() {
    return new LayoutProgress();
  }

  @Bean(destroyMethod = "close")
  ReconcileLoop reconcileLoop(
      Reconciler reconciler,
      IntentService intents,
      MigdProperties properties,
      Surfaces surfaces,
      LayoutProgress progress,
      ReconcileMetrics metrics,
      NodeObserver observer) {
    Supplier<Desired> started = metrics.timing(new PresentGpusIntent(intents, observer));
    return new ReconcileLoop(
        reconciler,
        () -> {
          Desired desired = started.get();
          progress.reconcileStarted(desired);
          return desired;
        },
        new ReconcileSettings(
            properties.reconcile().resync(),
            Duration.ofSeconds(1),
            properties.reconcile().maxBackoff(),
            properties.health().livenessTimeout()),
        surfaces.outcomes());
  }

  /** The loop starts once the web server listens, so probes answer before the kubelet is served. */
  @Bean
  LoopStart loopStart(ReconcileLoop loop) {
    return new LoopStart(loop);
  }

  /** Readiness after the first outcome, liveness from the loop (docs/contract.md, health). */
  @Bean(destroyMethod = "close")
  LoopAvailability loopAvailability(
      ReconcileLoop loop,
      ApplicationEventPublisher events,
      ApplicationAvailability availability,
      MigdProperties properties) {
    return new LoopAvailability(loop, events, availability, properties.health().livenessTimeout());
  }

  /** The last reconcile in /actuator/health; out of service until the first one ended. */
  @Bean
  HealthIndicator reconcileHealthIndicator(ReconcileLoop loop) {
    return () ->
        loop.lastOutcome()
            .map(
                o ->
                    Health.up()
                        .withDetail("state", o.state().wireName())
                        .withDetail("generation", o.generation())
                        .withDetail("reason", o.reason())
                        .build())
            .orElseGet(() -> Health.outOfService().withDetail("reason", "first reconcile").build());
  }
}
