package io.migd.app;

import io.migd.devices.NodeSharing;
import io.migd.kubelet.KubeletSurface;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsListener;
import io.migd.mps.MpsPaths;
import io.migd.mps.ProcessMpsControl;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.OutcomeListener;
import io.migd.reconcile.ProcessUsage;
import io.migd.reconcile.Reconciler;
import io.migd.reconcile.UsageSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * The MPS control daemons of MPS-shared GPUs and slices (docs/contract.md, MPS): started after each
 * reconcile, told to quit before their slice goes, checked every {@code migd.mps.check-interval}
 * and started again when gone, and the usage that never counts their servers as users.
 */
@Configuration(proxyBeanMethods = false)
@DependsOn({"stateLock", "nvmlSession"})
class MpsConfiguration {
  private static final Logger log = LoggerFactory.getLogger(MpsConfiguration.class);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

  @Bean
  MpsDaemons mpsDaemons(
      MigdProperties properties,
      GpuModelCatalog catalog,
      ObjectProvider<KubeletSurface> kubeletSurface) {
    MpsListener health =
        new MpsListener() {
          @Override
          public void daemonDown(String uuid) {
            kubeletSurface.ifAvailable(s -> s.daemonDown(uuid));
          }

          @Override
          public void daemonUp(String uuid) {
            kubeletSurface.ifAvailable(s -> s.daemonUp(uuid));
          }
        };
    var daemons =
        new MpsDaemons(
            new ProcessMpsControl(properties.mps().controlCommand(), COMMAND_TIMEOUT),
            new MpsPaths(properties.mps().root()),
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

  /** Runs first, so a daemon is up before the kubelet is shown its replicas. */
  @Bean
  @Order(Ordered.HIGHEST_PRECEDENCE)
  OutcomeListener mpsSync(MpsDaemons daemons, ObjectProvider<Reconciler> reconciler) {
    return (desired, outcome) -> {
      if (!outcome.error().isEmpty()) {
        return;
      }
      try {
        var targets = new HashMap<GpuIndex, GpuTarget>();
        reconciler
            .getObject()
            .resolve(desired, outcome.observed())
            .forEach(
                (gpu, resolution) -> {
                  if (resolution instanceof Reconciler.Resolution.Target(var target)) {
                    targets.put(gpu, target);
                  }
                });
        daemons.reconciled(outcome.observed(), NodeSharing.of(targets));
      } catch (RuntimeException e) {
        log.error(
            "mps daemons could not be brought in line with the intent; the next reconcile"
                + " tries again",
            e);
      }
    };
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
