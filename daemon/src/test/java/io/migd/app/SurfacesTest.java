package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.migd.devices.DeviceHealth;
import io.migd.devices.MigStrategy;
import io.migd.kubelet.KubeletSurface;
import io.migd.layout.GpuIndex;
import io.migd.metrics.ReconcileMetrics;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsListener;
import io.migd.mps.MpsPaths;
import io.migd.mps.ProcessMpsControl;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.Outcome;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's surfaces: one explicit order, each listener counted on its own when it throws. */
class SurfacesTest {
  @TempDir Path dir;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ReconcileMetrics metrics = new ReconcileMetrics(registry);

  private Surfaces surfaces(Optional<KubeletSurface> kubelet, Runnable onReady) {
    var mps =
        new MpsDaemons(
            new ProcessMpsControl(List.of("true"), Duration.ofSeconds(5)),
            new MpsPaths(dir.resolve("mps")),
            MpsListener.NONE,
            GpuModelCatalog.builtIn());
    return Surfaces.of(
        mps,
        (desired, outcome) -> {},
        Optional.empty(),
        Optional.empty(),
        kubelet,
        Optional.empty(),
        new LayoutProgress(),
        metrics,
        Optional.empty(),
        new IntentService(new IntentStore(dir), Optional.empty()),
        event -> onReady.run(),
        registry);
  }

  private static KubeletSurface kubelet() {
    return new KubeletSurface(
        inventory -> {},
        new DeviceHealth(),
        KubeletSurface.CdiRefresh.NONE,
        device -> true,
        new KubeletSurface.Settings(
            MigStrategy.MIXED, Duration.ofMinutes(5), Duration.ofMinutes(1)),
        Clock.systemUTC());
  }

  @Test
  void mpsComesFirstAndReadinessLastAndTheKubeletOnlyWhenOn() {
    try (var kubelet = kubelet()) {
      var on = surfaces(Optional.of(kubelet), () -> {});
      assertThat(on.outcomeOrder())
          .containsExactly(
              "mps-daemons",
              "node-snapshot",
              "kubelet",
              "layout-progress",
              "reconcile-metrics",
              "gpu-uuids",
              "readiness");
      assertThat(on.progressOrder())
          .containsExactly("mps-daemons", "kubelet", "layout-progress", "reconcile-metrics");
    }
    var off = surfaces(Optional.empty(), () -> {});
    assertThat(off.outcomeOrder()).doesNotContain("kubelet");
    assertThat(off.progressOrder()).doesNotContain("kubelet");
  }

  @Test
  void aListenerThatThrowsIsCountedByNameAndTheOthersAreTold() {
    var surfaces =
        surfaces(
            Optional.empty(),
            () -> {
              throw new IllegalStateException("readiness cannot be published");
            });
    assertThat(failures("readiness")).isZero();
    assertThat(failures("mps-daemons")).isZero();

    var results = new TreeMap<GpuIndex, GpuResult>();
    results.put(new GpuIndex(0), new GpuResult.InSync());
    boolean allTook =
        surfaces.outcomes().tell(Desired.none(), new Outcome(1, results, Instant.EPOCH));

    assertThat(allTook).isFalse();
    assertThat(failures("readiness")).isEqualTo(1);
    assertThat(failures("reconcile-metrics")).isZero();
    assertThat(registry.get("migd.reconcile").tag("outcome", "success").counter().count())
        .as("the metrics, told before readiness threw")
        .isEqualTo(1);
  }

  private double failures(String listener) {
    return registry.get("migd.listener.failures").tag("listener", listener).counter().count();
  }
}
