package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.profiles.ProfileName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which slices and GPUs pods hold, located on the simulated node by the UUIDs NVML reports. */
class PodUsageIT {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final Instant NOW = Instant.parse("2025-06-01T10:00:00Z");
  private static SimNode node;
  private static ObservedNode observed;
  private static LiveGpuInstance gi;
  private static LiveComputeInstance ci;
  private static String t4;

  @BeforeAll
  static void start() {
    node = SimNode.start("A100-SXM4-40GB,T4");
    observed =
        node.shape(
            GpuTarget.mig(
                GPU0, List.of(new GpuInstanceSpec(ProfileName.parse("3g.20gb"), List.of(1, 2)))),
            GpuTarget.whole(GPU1, 2));
    gi = observed.gpus().getFirst().gpuInstances().getFirst();
    ci = gi.computeInstances().getFirst();
    t4 = observed.gpus().get(1).uuid();
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @Test
  void aPodHoldsTheComputeInstanceOfItsMigDeviceAndTheGpuOfItsReplicas() {
    var pods =
        List.of(
            new PodDevice("nvidia.com/mig-1c.3g.20gb", ci.uuid(), "ml", "trainer-0", "main"),
            new PodDevice("nvidia.com/gpu", t4 + "::0", "web", "infer-1", "server"),
            new PodDevice("nvidia.com/gpu", t4 + "::1", "web", "infer-1", "server"),
            new PodDevice("nvidia.com/gpu", "GPU-not-on-this-node", "x", "y", "z"));

    Usage usage = PodUsage.of(observed, pods, Map.of(), NOW);

    assertThat(usage.holders())
        .containsOnly(
            Map.entry(
                new Usage.SliceKey(GPU0, gi.id(), ci.id()),
                List.of("pod ml/trainer-0 (container main)")),
            Map.entry(
                new Usage.SliceKey(GPU1, Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES),
                List.of("pod web/infer-1 (container server)")));
  }

  @Test
  void aDeviceAllocatedButNotListedYetIsHeldByAPodToCome() {
    var pods = List.of(new PodDevice("nvidia.com/gpu", t4 + "::0", "web", "infer-1", "server"));
    var recent =
        Map.of(
            t4 + "::0",
            NOW.minusSeconds(30),
            ci.uuid(),
            NOW.minus(Duration.ofSeconds(12)),
            "MIG-gone",
            NOW.minusSeconds(1));

    Usage usage = PodUsage.of(observed, pods, recent, NOW);

    assertThat(usage.holdersOf(GPU0, gi.id(), ci.id()))
        .containsExactly(
            "a pod not listed by the kubelet yet (device " + ci.uuid() + " allocated 12s ago)");
    assertThat(usage.holdersOf(GPU1)).containsExactly("pod web/infer-1 (container server)");
    assertThat(usage.holders()).hasSize(2);
  }
}
