package io.migd.app;

import io.migd.kubelet.KubeletSurface;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsListener;
import io.migd.mps.MpsPaths;
import io.migd.mps.ProcessMpsControl;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.ProcessUsage;
import io.migd.reconcile.UsageSource;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

/**
 * The MPS control daemons of MPS-shared GPUs and slices (docs/contract.md, MPS), run by the {@code
 * -mps} DaemonSet's supervisor: asked for after each reconcile ({@link io.migd.mps.MpsSync}, among
 * the {@link Surfaces}), told to quit before their slice goes, checked every {@code
 * migd.mps.check-interval}, and the usage that never counts their servers as users.
 */
@Configuration(proxyBeanMethods = false)
@DependsOn({"stateLock", "nvmlSession"})
class MpsConfiguration {
  private static final Logger log = LoggerFactory.getLogger(MpsConfiguration.class);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

  @Bean
  MpsDaemons mpsDaemons(
      MigdProperties properties, GpuModelCatalog catalog, Optional<KubeletSurface> kubeletSurface) {
    // a daemon gone makes its replicas unhealthy on the kubelet surface, when there is one
    MpsListener health = kubeletSurface.<MpsListener>map(k -> k).orElse(MpsListener.NONE);
    var daemons =
        new MpsDaemons(
            new ProcessMpsControl(properties.mps().controlCommand(), COMMAND_TIMEOUT),
            new MpsDaemons.Settings(
                new MpsPaths(properties.mps().root()),
                properties.mps().shmSize().toBytes(),
                properties.mps().startTimeout()),
            health,
            catalog);
    daemons.findRunning();
    return daemons;
  }

  /** NVML's compute processes, MPS servers left out: they use no device for themselves. */
  @Bean
  UsageSource processUsage(NvmlSession session, MpsDaemons daemons) {
    return new ProcessUsage(session.nvml()::processName, daemons::isServer);
  }

  @Bean(destroyMethod = "shutdownNow")
  ScheduledExecutorService mpsSupervision(MpsDaemons daemons, MigdProperties properties) {
    var executor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("mps-supervision").daemon().factory());
    long every = properties.mps().checkInterval().toMillis();
    executor.scheduleWithFixedDelay(
        () -> {
          try {
            daemons.check();
          } catch (RuntimeException e) {
            log.error("mps supervision failed; it runs again", e);
          }
        },
        every,
        every,
        TimeUnit.MILLISECONDS);
    return executor;
  }
}
