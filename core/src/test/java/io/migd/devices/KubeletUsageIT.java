package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.profiles.ProfileName;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.ProcessUsage;
import io.migd.reconcile.Reconciler;
import io.migd.sim.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The reconciler on a simulated two-GPU node with the kubelet's usage: a slice or GPU a pod holds,
 * or one Allocate handed out within the grace, is not destroyed, and the other GPU goes ahead.
 */
class KubeletUsageIT {
  private static final String TWO_A100 = "A100-SXM4-40GB,A100-SXM4-40GB";
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);
  private static final Duration GRACE = Duration.ofMinutes(5);
  private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
  private static final String ONE_G = "nvidia.com/mig-1g.5gb";
  private static SimNode node;

  private final AtomicReference<List<PodDevice>> pods = new AtomicReference<>(List.of());
  private final AtomicReference<RuntimeException> podResourcesDown = new AtomicReference<>();
  private final MutableClock clock = new MutableClock(T0);
  private final AllocationGrace grace = new AllocationGrace(clock);
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @BeforeAll
  static void start() {
    node = SimNode.start(TWO_A100);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @BeforeEach
  void captureLogs() {
    logs.start();
    ((Logger) LoggerFactory.getLogger(KubeletUsage.class)).addAppender(logs);
  }

  @AfterEach
  void releaseLogs() {
    ((Logger) LoggerFactory.getLogger(KubeletUsage.class)).detachAppender(logs);
  }

  private KubeletUsage usage(boolean requirePodResources) {
    PodAllocations allocations =
        () -> {
          RuntimeException down = podResourcesDown.get();
          if (down != null) {
            throw down;
          }
          return pods.get();
        };
    return new KubeletUsage(
        new ProcessUsage(node.nvml::processName),
        allocations,
        grace,
        GRACE,
        requirePodResources,
        clock);
  }

  private static GpuTarget sevenOnes(GpuIndex gpu) {
    return GpuTarget.mig(
        gpu, Collections.nCopies(7, GpuInstanceSpec.whole(ProfileName.parse("1g.5gb"))));
  }

  private static GpuTarget oneSeven(GpuIndex gpu) {
    return GpuTarget.mig(gpu, List.of(GpuInstanceSpec.whole(ProfileName.parse("7g.40gb"))));
  }

  private static LiveComputeInstance aSliceOf(ObservedGpu gpu) {
    return gpu.gpuInstances().getFirst().computeInstances().getFirst();
  }

  private static List<String> uuidsOn(GpuIndex gpu) {
    return node.observe().gpus().get(gpu.value()).gpuInstances().stream()
        .flatMap(gi -> gi.computeInstances().stream())
        .map(LiveComputeInstance::uuid)
        .toList();
  }

  private static void assertBlockedBy(Outcome outcome, GpuIndex gpu, String holder) {
    GpuResult result = outcome.results().get(gpu);
    assertThat(result).as("%s", result).isInstanceOf(GpuResult.Blocked.class);
    assertThat(result.reason()).contains(holder);
    assertThat(((GpuResult.Blocked) result).holders()).contains(holder);
  }

  private static void assertSuccess(Outcome outcome, GpuIndex gpu) {
    assertThat(outcome.results().get(gpu).state())
        .as("%s", outcome.results().get(gpu))
        .isEqualTo(GpuResult.State.SUCCESS);
  }

  @Test
  void aSliceAPodHoldsBlocksItsGpusReshapeAndTheOtherGpuIsReshaped() {
    node.reset(TWO_A100);
    ObservedNode before = node.shape(sevenOnes(GPU0), sevenOnes(GPU1));
    String held = aSliceOf(before.gpus().get(0)).uuid();
    pods.set(List.of(new PodDevice(ONE_G, held, "ml", "trainer-0", "main")));
    Reconciler reconciler = node.reconciler(usage(false), clock);

    Outcome outcome = node.reconcile(reconciler, oneSeven(GPU0), oneSeven(GPU1));

    assertBlockedBy(outcome, GPU0, "pod ml/trainer-0 (container main)");
    assertThat(uuidsOn(GPU0)).contains(held);
    assertSuccess(outcome, GPU1);
    assertThat(outcome.state()).isEqualTo(GpuResult.State.BLOCKED);

    pods.set(List.of());
    assertSuccess(node.reconcile(reconciler, oneSeven(GPU0), oneSeven(GPU1)), GPU0);
    assertThat(uuidsOn(GPU0)).hasSize(1).doesNotContain(held);
  }

  @Test
  void aWholeGpuAPodHoldsBlocksEnablingMigOnIt() {
    node.reset(TWO_A100);
    String gpu0 = node.observe().gpus().get(0).uuid();
    pods.set(List.of(new PodDevice(ResourceNames.GPU, gpu0 + "::1", "web", "infer-1", "server")));

    Outcome outcome =
        node.reconcile(node.reconciler(usage(false), clock), sevenOnes(GPU0), sevenOnes(GPU1));

    assertBlockedBy(outcome, GPU0, "pod web/infer-1 (container server)");
    assertThat(outcome.results().get(GPU0).reason()).contains("enabling MIG needs the GPU free");
    assertThat(node.observe().gpus().get(0).migMode().current()).isFalse();
    assertSuccess(outcome, GPU1);
  }

  @Test
  void aSliceAllocatedButNotListedIsKeptForTheGraceAndReshapedAfterIt() {
    node.reset(TWO_A100);
    ObservedNode before = node.shape(sevenOnes(GPU0), sevenOnes(GPU1));
    String allocated = aSliceOf(before.gpus().get(0)).uuid();
    grace.allocated(ONE_G, List.of(allocated));
    clock.advance(Duration.ofSeconds(12));
    Reconciler reconciler = node.reconciler(usage(false), clock);

    Outcome within = node.reconcile(reconciler, oneSeven(GPU0), oneSeven(GPU1));

    assertBlockedBy(
        within,
        GPU0,
        "a pod not listed by the kubelet yet (device " + allocated + " allocated 12s ago)");
    assertThat(uuidsOn(GPU0)).contains(allocated);
    assertSuccess(within, GPU1);

    clock.advance(GRACE.minusSeconds(13));
    assertThat(node.reconcile(reconciler, oneSeven(GPU0)).results().get(GPU0))
        .isInstanceOf(GpuResult.Blocked.class);

    clock.advance(Duration.ofSeconds(1));
    Outcome after = node.reconcile(reconciler, oneSeven(GPU0));
    assertSuccess(after, GPU0);
    assertThat(uuidsOn(GPU0)).hasSize(1).doesNotContain(allocated);
  }

  @Test
  void withoutPodResourcesItDecidesFromProcessesAndSaysSoOnce() {
    node.reset(TWO_A100);
    ObservedNode before = node.shape(sevenOnes(GPU0), sevenOnes(GPU1));
    var listed =
        List.of(new PodDevice(ONE_G, aSliceOf(before.gpus().get(0)).uuid(), "a", "b", "c"));
    pods.set(listed);
    KubeletUsage usage = usage(false);
    Reconciler reconciler = node.reconciler(usage, clock);
    usage.usage(before);
    podResourcesDown.set(
        new PodAllocations.Unavailable("connection refused", new IllegalStateException()));

    node.reconcile(reconciler, sevenOnes(GPU0), sevenOnes(GPU1));
    node.reconcile(reconciler, sevenOnes(GPU0), sevenOnes(GPU1));
    Outcome outcome = node.reconcile(reconciler, oneSeven(GPU0), oneSeven(GPU1));

    assertSuccess(outcome, GPU0);
    assertSuccess(outcome, GPU1);
    assertThat(usage.lastPods()).isEqualTo(listed);
    assertThat(messages(Level.WARN))
        .containsExactly(
            "cannot read PodResources: connection refused; deciding from NVML processes only");

    podResourcesDown.set(null);
    pods.set(List.of());
    node.reconcile(reconciler, oneSeven(GPU0), oneSeven(GPU1));
    node.reconcile(reconciler, oneSeven(GPU0), oneSeven(GPU1));
    assertThat(messages(Level.INFO))
        .hasSize(1)
        .allMatch(m -> m.contains("PodResources answers again"));
    assertThat(usage.lastPods()).isEmpty();
  }

  @Test
  void whenPodResourcesIsRequiredNothingAdvertisedIsDestroyedWhileItIsDown() {
    node.reset(TWO_A100);
    node.shape(sevenOnes(GPU0));
    podResourcesDown.set(
        new PodAllocations.Unavailable("connection refused", new IllegalStateException()));
    var sliceUuids = uuidsOn(GPU0);

    Outcome outcome =
        node.reconcile(node.reconciler(usage(true), clock), oneSeven(GPU0), sevenOnes(GPU1));

    assertBlockedBy(outcome, GPU0, KubeletUsage.UNREACHABLE_HOLDER);
    assertBlockedBy(outcome, GPU1, KubeletUsage.UNREACHABLE_HOLDER);
    assertThat(uuidsOn(GPU0)).isEqualTo(sliceUuids).hasSize(7);
    assertThat(node.observe().gpus().get(1).migMode().current()).isFalse();
  }

  private List<String> messages(Level level) {
    return logs.list.stream()
        .filter(e -> e.getLevel() == level)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }
}
