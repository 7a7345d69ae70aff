package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.migd.devices.DeviceHealth;
import io.migd.devices.DraTaints;
import io.migd.devices.MigStrategy;
import io.migd.kubelet.KubeletSurface;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.metrics.ReconcileMetrics;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsListener;
import io.migd.mps.MpsPaths;
import io.migd.mps.ProcessMpsControl;
import io.migd.ownership.ClaimedDevices;
import io.migd.plan.Decision;
import io.migd.pool.Facts;
import io.migd.pool.GpuFacts;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSurface;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Sharing;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.ResetsInProgress;
import io.migd.reconcile.Resolution;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's surfaces: one explicit order, each listener counted on its own when it throws. */
class SurfacesTest {
  @TempDir Path dir;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ReconcileMetrics metrics = new ReconcileMetrics(registry);

  private MpsDaemons mps() {
    return new MpsDaemons(
        new ProcessMpsControl(List.of("true"), Duration.ofSeconds(5)),
        MpsDaemons.Settings.under(new MpsPaths(dir.resolve("mps"))),
        MpsListener.NONE,
        GpuModelCatalog.builtIn());
  }

  private Surfaces surfaces(Optional<KubeletSurface> kubelet, Runnable onReady) {
    return Surfaces.of(
        mps(),
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

  /**
   * In dra mode the pool is built over the node snapshot, so the snapshot must take an outcome
   * before the pool does: the outcome told through the surfaces as the daemon orders them, the pool
   * publishes what that outcome observed (a pool told first would build over the previous outcome's
   * observation, and publish the whole GPU the plan just split).
   */
  @Test
  void inDraModeThePoolIsBuiltOverTheSnapshotOfTheSameOutcome() {
    GpuFacts h100 = Facts.of("H100-SXM5-80GB", 0);
    // no NVML: the snapshot only takes outcomes here
    var snapshot =
        new NodeSnapshot(null, null, new ResetsInProgress(Clock.systemUTC()), Duration.ZERO);
    var pool =
        new PoolSurface(
            new PoolSurface.Settings("gpu.nvidia.com", "node-a"),
            gpu -> h100,
            snapshot::latest,
            ClaimedDevices.NONE,
            new DraTaints(),
            publication -> {});
    pool.publishing(new PoolSurface.Publishing(true, false));
    var surfaces =
        Surfaces.of(
            mps(),
            snapshot,
            Optional.empty(),
            Optional.of(pool),
            Optional.empty(),
            Optional.empty(),
            new LayoutProgress(),
            metrics,
            Optional.empty(),
            new IntentService(new IntentStore(dir), Optional.empty()),
            event -> {},
            registry);

    surfaces.outcomes().tell(Desired.none(), outcome(1, Facts.migOff(h100)));
    assertThat(pool.current().devices()).extracting(PoolDevice::name).containsExactly("gpu-0");
    surfaces
        .outcomes()
        .tell(Desired.none(), outcome(2, Facts.migOn(h100, Facts.instance(h100, 1, "1g.10gb", 0))));

    assertThat(pool.current().devices())
        .extracting(PoolDevice::name)
        .containsExactly("gpu-0-mig-1g10gb-19-0");
  }

  /** An outcome of a reconcile that left GPU 0 unselected, as observed. */
  private static Outcome outcome(long generation, ObservedGpu gpu) {
    var gpus = new TreeMap<GpuIndex, Outcome.Gpu>();
    gpus.put(
        gpu.index(),
        new Outcome.Gpu(
            new Resolution.Unselected(new Sharing.TimeSliced(1), Map.of()),
            new Decision.Unmanaged(),
            new GpuResult.Unmanaged()));
    return new Outcome(generation, gpus, new ObservedNode(List.of(gpu)), "", Instant.EPOCH);
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
