package io.migd.app;

import io.migd.devices.KubeletUsage;
import io.migd.execute.ProgressListener;
import io.migd.kubelet.KubeletSurface;
import io.migd.metrics.ReconcileMetrics;
import io.migd.mps.MpsDaemons;
import io.migd.node.NodeLabelWatch;
import io.migd.node.NodeStateWriter;
import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigWriter;
import io.migd.reconcile.ConfigLookup;
import io.migd.reconcile.Desired;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.OutcomeListener;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.ReconcileSettings;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.UsageSource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

/** Wires the reconcile core of the daemon with plain {@code new}. */
@Configuration(proxyBeanMethods = false)
class ReconcileConfiguration {
  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(ReconcileConfiguration.class);

  @Bean
  GpuModelCatalog gpuModelCatalog() {
    return GpuModelCatalog.builtIn();
  }

  /**
   * The config file as read at start. Standalone, a file that cannot be read or parsed stops the
   * start (exit 2). On a Kubernetes node ({@code NODE_NAME} set) migd starts anyway, so the kubelet
   * keeps its device plugin, and every GPU a named config would select ends {@code failed} with the
   * file's problem, which the Node's state shows.
   */
  record LoadedConfigFile(MigConfigFile file, Optional<String> problem) implements ConfigLookup {
    @Override
    public Optional<io.migd.profiles.MigConfig> config(String name) {
      return file.config(name);
    }
  }

  @Bean
  LoadedConfigFile loadedConfigFile(
      MigdProperties properties, GpuModelCatalog catalog, @Value("${NODE_NAME:}") String nodeName) {
    try {
      return new LoadedConfigFile(
          ConfigFiles.load(properties.configFile(), catalog), Optional.empty());
    } catch (ConfigFileException e) {
      if (nodeName.isBlank()) {
        throw e;
      }
      log.error(
          "{}; node {} reports it as failed until the file is fixed and migd restarted",
          e.getMessage(),
          nodeName.strip());
      // one line: the node's reason is an annotation, and parser messages span several
      String problem = e.getMessage().strip().replaceAll("\\s+", " ");
      return new LoadedConfigFile(MigConfigFile.of(List.of()), Optional.of(problem));
    }
  }

  @Bean
  MigConfigFile migConfigFile(LoadedConfigFile loaded) {
    return loaded.file();
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
                    properties.config(), digest(configs, properties.config())));
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

  /** A digest of the named config's content, so an edit under the same name is a new generation. */
  static String digest(MigConfigFile configs, String name) {
    String content =
        configs
            .config(name)
            .map(c -> MigConfigWriter.write(MigConfigFile.of(java.util.List.of(c))))
            .orElse("");
    try {
      byte[] hash =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(hash, 0, 12);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /** Nothing touches the GPUs before this daemon holds the state lock. */
  @Bean
  @DependsOn("stateLock")
  Reconciler reconciler(
      NvmlSession session,
      GpuModelCatalog catalog,
      LoadedConfigFile configs,
      MigdProperties properties,
      ObjectProvider<KubeletUsage> kubeletUsage,
      ObjectProvider<KubeletSurface> kubeletSurface,
      ObjectProvider<NodeStateWriter> nodeStateWriter,
      LayoutProgress layoutProgress,
      ReconcileMetrics metrics,
      MpsDaemons mpsDaemons,
      UsageSource processUsage) {
    KubeletSurface surface = kubeletSurface.getIfAvailable();
    KubeletUsage usage = kubeletUsage.getIfAvailable();
    var progress = new java.util.ArrayList<ProgressListener>();
    // quit goes to an MPS daemon before the plan destroys its slice
    progress.add(mpsDaemons);
    kubeletSurface.ifAvailable(progress::add);
    nodeStateWriter.ifAvailable(progress::add);
    progress.add(layoutProgress);
    progress.add(metrics);
    return Reconciler.over(
            session.nvml(),
            catalog,
            configs,
            usage == null ? processUsage : usage,
            ProgressListener.all(progress),
            metrics.timing(surface == null ? session.reset() : surface.watching(session.reset())),
            metrics.timing(new CommandReboot(properties)))
        .withParallelism(properties.reconcile().parallelism());
  }

  /**
   * How far the node is towards its intent, for {@code GET /api/v1/layout}: told of every plan,
   * step and outcome.
   */
  @Bean
  LayoutProgress layoutProgress() {
    return new LayoutProgress();
  }

  /**
   * Records which GPUs an intent was first resolved against, so a swapped GPU is never reshaped.
   */
  @Bean
  OutcomeListener gpuUuidRecorder(IntentService intents, NvmlSession session) {
    return (desired, outcome) -> {
      if (!desired.gpuUuids().isEmpty() || outcome.results().isEmpty()) {
        return;
      }
      var uuids = new java.util.TreeMap<Integer, String>();
      outcome
          .results()
          .keySet()
          .forEach(
              gpu ->
                  uuids.put(
                      gpu.value(), session.nvml().uuid(session.nvml().deviceByIndex(gpu.value()))));
      intents.recordUuids(desired.generation(), uuids);
    };
  }

  @Bean(destroyMethod = "close")
  ReconcileLoop reconcileLoop(
      Reconciler reconciler,
      IntentService intents,
      MigdProperties properties,
      List<OutcomeListener> listeners,
      LayoutProgress progress,
      ReconcileMetrics metrics) {
    Supplier<Desired> started = metrics.timing(intents::current);
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
        listeners);
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

  /** Tells Spring Boot the node is ready to serve once the first reconcile has ended. */
  @Bean
  OutcomeListener readinessPublisher(ApplicationEventPublisher events) {
    return (desired, outcome) ->
        AvailabilityChangeEvent.publish(events, outcome, ReadinessState.ACCEPTING_TRAFFIC);
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
