package io.migd.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.migd.cdi.GpuCdiSpec;
import io.migd.devices.AllocationGrace;
import io.migd.devices.DeviceHealth;
import io.migd.devices.Inventory;
import io.migd.devices.KubeletUsage;
import io.migd.devices.MigStrategy;
import io.migd.devices.SysfsNumaNodes;
import io.migd.devices.XidWatcher;
import io.migd.execute.Backoff;
import io.migd.kubelet.DevicePluginSettings;
import io.migd.kubelet.DevicePlugins;
import io.migd.kubelet.KubeletSurface;
import io.migd.kubelet.PodResourcesClient;
import io.migd.metrics.DeviceMetrics;
import io.migd.mps.MpsPaths;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.UsageSource;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

/**
 * The kubelet surface (docs/contract.md, kubelet): device plugin servers, PodResources usage, XID
 * health and the device metrics. Off with {@code migd.kubelet.enabled=false}, and in {@code
 * migd.kubelet.mode=dra}, where migd is the node's DRA driver instead.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "migd.kubelet.enabled", matchIfMissing = true)
@Conditional(OnKubeletMode.DevicePlugin.class)
@DependsOn({"stateLock", "nvmlSession"})
class KubeletConfiguration {
  private static final Logger log = LoggerFactory.getLogger(KubeletConfiguration.class);

  @Bean
  DeviceHealth deviceHealth() {
    return new DeviceHealth();
  }

  @Bean
  AllocationGrace allocationGrace() {
    return new AllocationGrace(Clock.systemUTC());
  }

  @Bean(destroyMethod = "close")
  PodResourcesClient podResourcesClient(MigdProperties properties) {
    return new PodResourcesClient(properties.kubelet().podResourcesSocket());
  }

  @Bean
  KubeletUsage kubeletUsage(
      UsageSource processUsage,
      PodResourcesClient podResources,
      AllocationGrace grace,
      MigdProperties properties) {
    return new KubeletUsage(
        processUsage,
        podResources,
        grace,
        properties.kubelet().allocationGrace(),
        properties.kubelet().requirePodResources(),
        Clock.systemUTC());
  }

  @Bean(destroyMethod = "close")
  DevicePlugins devicePlugins(MigdProperties properties, AllocationGrace grace) {
    return new DevicePlugins(
        new DevicePluginSettings(
            properties.kubelet().devicePluginDir(),
            properties.cdi().enabled(),
            Duration.ofSeconds(10),
            new MpsPaths(properties.mps().root())),
        grace);
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  KubeletSurface kubeletSurface(
      NvmlSession session,
      DevicePlugins plugins,
      DeviceHealth health,
      MigdProperties properties,
      MigStrategy strategy,
      Optional<GpuCdiSpec> cdi) {
    return new KubeletSurface(
        publisher(plugins, properties),
        health,
        cdi.<KubeletSurface.CdiRefresh>map(spec -> spec::generate)
            .orElse(KubeletSurface.CdiRefresh.NONE),
        KubeletSurface.nvmlAnswers(session.nvml()),
        new KubeletSurface.Settings(
            strategy,
            properties.health().recoveryPeriod(),
            healthCheckInterval(properties.health().recoveryPeriod()),
            new SysfsNumaNodes(properties.sysfsRoot())),
        Clock.systemUTC());
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  XidWatcher xidWatcher(NvmlSession session, KubeletSurface surface, NodeSnapshot snapshot) {
    return new XidWatcher(
        session.nvml(),
        XidWatcher.Sink.all(List.of(surface, xid -> snapshot.observeAgain(xid.gpu()))),
        new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30)));
  }

  @Bean
  DeviceMetrics deviceMetrics(MeterRegistry registry, KubeletSurface surface, KubeletUsage usage) {
    return new DeviceMetrics(registry, surface, usage);
  }

  /** A tenth of the recovery period, between 1 s and 30 s. */
  static Duration healthCheckInterval(Duration recoveryPeriod) {
    Duration tenth = recoveryPeriod.dividedBy(10);
    if (tenth.compareTo(Duration.ofSeconds(1)) < 0) {
      return Duration.ofSeconds(1);
    }
    return tenth.compareTo(Duration.ofSeconds(30)) > 0 ? Duration.ofSeconds(30) : tenth;
  }

  private static Consumer<Inventory> publisher(DevicePlugins plugins, MigdProperties properties) {
    var dir = properties.kubelet().devicePluginDir();
    if (!Files.isDirectory(dir)) {
      log.warn(
          "the device plugin directory {} does not exist: migd serves no kubelet (mount the"
              + " kubelet's directory, set migd.kubelet.device-plugin-dir, or"
              + " migd.kubelet.enabled=false to silence this)",
          dir);
      return inventory -> {};
    }
    return plugins::publish;
  }
}
