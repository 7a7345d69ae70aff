package io.migd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.MigMode;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.PciInfo;
import io.migd.plan.Step;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.RebootPolicy;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The reconcile metrics follow the listener calls: steps of GPUs that run at the same time are each
 * counted under their own action, failed steps are not, and outcomes set the counters and the
 * in-sync gauge.
 */
class ReconcileMetricsTest {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final ProfileName ONE_SLICE = ProfileName.parse("1g.10gb");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ReconcileMetrics metrics = new ReconcileMetrics(registry);

  @Test
  void countsEachGpusStepsUnderTheirActionWhenTheyInterleave() {
    Step create0 = new Step.CreateGpuInstance(GPU0, ONE_SLICE, 19, new Placement(0, 1));
    Step enable1 = new Step.EnableMig(GPU1);
    Step destroy1 = new Step.DestroyComputeInstance(GPU1, 7, 0);
    metrics.stepStarted(create0);
    metrics.stepStarted(enable1);
    metrics.stepDone(enable1);
    metrics.stepStarted(destroy1);
    metrics.stepDone(create0);
    metrics.stepFailed(
        destroy1, new NvmlException("nvmlComputeInstanceDestroy", NvmlReturn.IN_USE, ""));

    assertThat(steps("createGpuInstance")).isEqualTo(1);
    assertThat(steps("enableMig")).isEqualTo(1);
    assertThat(steps("destroyComputeInstance")).isZero();
    assertThat(counter(Metric.INSTANCE_CREATIONS_TOTAL.micrometerName(), "gpu")).isEqualTo(1);
    assertThat(counter(Metric.INSTANCE_DESTRUCTIONS_TOTAL.micrometerName(), "compute")).isZero();
  }

  @Test
  void countsOutcomesByNodeStateAndSaysWhetherTheLayoutIsInSync() {
    var desired = Desired.config(Desired.Source.FILE, "all-1g.10gb", 1);
    var blocked = new TreeMap<GpuIndex, GpuResult>();
    blocked.put(GPU0, new GpuResult.InSync());
    blocked.put(GPU1, new GpuResult.Blocked(List.of("ml/trainer-0"), "a pod holds a slice"));
    metrics.timing(() -> desired).get();
    metrics.reconciled(desired, new Outcome(1, blocked, Instant.now()));

    assertThat(outcomes("blocked")).isEqualTo(1);
    assertThat(inSync()).isZero();
    assertThat(registry.get(Metric.RECONCILE_DURATION_SECONDS.micrometerName()).timer().count())
        .isEqualTo(1);

    var success = new TreeMap<GpuIndex, GpuResult>();
    success.put(GPU0, new GpuResult.InSync());
    metrics.reconciled(desired, new Outcome(1, success, Instant.now()));

    assertThat(outcomes("success")).isEqualTo(1);
    assertThat(outcomes("failed")).isZero();
    assertThat(inSync()).isEqualTo(1);
  }

  @Test
  void timesResetsThatResetAndRebootsThatStarted() {
    ObservedGpu gpu =
        new ObservedGpu(
            GPU0,
            "GPU-0",
            "NVIDIA A100-SXM4-40GB",
            new PciInfo("00000000:07:00.0", 0, 7, 0, 0x20B010DE, 0),
            40960,
            true,
            new MigMode(false, true),
            List.of(),
            List.of());
    metrics.timing(g -> new GpuReset.Result.Done("reset")).reset(gpu);
    metrics.timing(g -> new GpuReset.Result.NotDone("refused")).reset(gpu);
    RebootPolicy reboot =
        metrics.timing(
            new RebootPolicy() {
              @Override
              public boolean enabled() {
                return true;
              }

              @Override
              public Request requestReboot(long generation) {
                return generation == 1
                    ? new Request.Started("rebooting")
                    : new Request.AlreadyRequested();
              }
            });
    reboot.requestReboot(1);
    reboot.requestReboot(1 + 1);

    assertThat(steps("resetGpu")).isEqualTo(1);
    assertThat(steps("reboot")).isEqualTo(1);
    assertThat(reboot.enabled()).isTrue();
  }

  private long steps(String action) {
    return registry
        .get(Metric.STEP_DURATION_SECONDS.micrometerName())
        .tag("action", action)
        .timer()
        .count();
  }

  private double counter(String name, String kind) {
    return registry.get(name).tag("kind", kind).counter().count();
  }

  private double outcomes(String outcome) {
    return registry
        .get(Metric.RECONCILE_TOTAL.micrometerName())
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  private double inSync() {
    return registry.get(Metric.LAYOUT_IN_SYNC.micrometerName()).gauge().value();
  }
}
