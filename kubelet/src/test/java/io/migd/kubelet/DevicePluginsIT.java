package io.migd.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.AllocateResponse;
import io.migd.api.deviceplugin.v1beta1.CDIDevice;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerPreferredAllocationRequest;
import io.migd.api.deviceplugin.v1beta1.ListAndWatchResponse;
import io.migd.api.deviceplugin.v1beta1.PreStartContainerRequest;
import io.migd.api.deviceplugin.v1beta1.PreStartContainerResponse;
import io.migd.api.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The device plugin against a fake kubelet, over real unix sockets. */
class DevicePluginsIT {
  static final String MIG_1G = "nvidia.com/mig-1g.10gb";
  static final String MIG_3G = "nvidia.com/mig-3g.40gb";
  static final String GPU = "nvidia.com/gpu";

  static final String MIG_A = "MIG-4b8c8d0a-0f0e-5a54-9f43-5a1b2c3d4e5f";
  static final String MIG_B = "MIG-9e2f1a3b-7c6d-5e4f-8a9b-0c1d2e3f4a5b";
  static final String MIG_C = "MIG-1a2b3c4d-5e6f-5a7b-8c9d-0e1f2a3b4c5d";
  static final String MIG_BIG = "MIG-77aa88bb-99cc-5dde-8eff-001122334455";
  static final String GPU_X = "GPU-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  static final String GPU_Y = "GPU-a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90";

  static final Duration WITHIN = Duration.ofSeconds(5);

  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<List<String>> heard = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (var c : open.reversed()) {
      c.close();
    }
  }

  @Test
  void servesNothingBeforeTheFirstPublishThenRegistersEveryResource() {
    var kubelet = kubelet();
    var plugins = plugins(false);

    assertThat(files()).containsExactly("kubelet.sock");
    assertThat(plugins.servedResources()).isEmpty();
    assertThat(kubelet.requests()).isEmpty();

    plugins.publish(node());

    await().atMost(WITHIN).until(() -> kubelet.registeredResources().size() == 3);
    assertThat(kubelet.registrations())
        .extracting(r -> r.request().getResourceName(), r -> r.request().getEndpoint())
        .containsExactlyInAnyOrder(
            tuple(GPU, "migd-gpu.sock"),
            tuple(MIG_1G, "migd-mig-1g.10gb.sock"),
            tuple(MIG_3G, "migd-mig-3g.40gb.sock"));
    assertThat(kubelet.registrations())
        .allSatisfy(
            r -> {
              assertThat(r.request().getVersion()).isEqualTo("v1beta1");
              assertThat(r.request().getOptions().getGetPreferredAllocationAvailable()).isTrue();
              assertThat(r.options().getGetPreferredAllocationAvailable()).isTrue();
              assertThat(r.options().getPreStartRequired()).isFalse();
            });
    await()
        .atMost(WITHIN)
        .until(
            () ->
                kubelet.latest(GPU).isPresent()
                    && kubelet.latest(MIG_1G).isPresent()
                    && kubelet.latest(MIG_3G).isPresent());
    assertThat(health(kubelet.latest(MIG_1G).orElseThrow()))
        .containsExactly(
            Map.entry(MIG_C, "Healthy"),
            Map.entry(MIG_A, "Healthy"),
            Map.entry(MIG_B, "Unhealthy"));
    assertThat(health(kubelet.latest(GPU).orElseThrow()))
        .containsExactly(
            Map.entry(GPU_X + "::0", "Healthy"),
            Map.entry(GPU_X + "::1", "Healthy"),
            Map.entry(GPU_Y + "::0", "Healthy"),
            Map.entry(GPU_Y + "::1", "Healthy"));
    assertThat(kubelet.ids(MIG_3G)).containsExactly(MIG_BIG);
    assertThat(files())
        .containsExactlyInAnyOrder(
            "kubelet.sock", "migd-gpu.sock", "migd-mig-1g.10gb.sock", "migd-mig-3g.40gb.sock");
  }

  @Test
  void keepsAResourceThatDisappearsRegisteredWithNoDevicesAndRegistersNewOnes() {
    var kubelet = kubelet();
    var plugins = plugins(false);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.ids(MIG_3G).equals(List.of(MIG_BIG)));

    var reshaped = new TreeMap<String, List<Device>>();
    reshaped.put(MIG_1G, List.of(mig(MIG_A, 0, 1, true)));
    reshaped.put(GPU, gpuReplicas());
    plugins.publish(new Inventory(reshaped, List.of()));

    await().atMost(WITHIN).until(() -> kubelet.ids(MIG_3G).isEmpty());
    await().atMost(WITHIN).until(() -> kubelet.ids(MIG_1G).equals(List.of(MIG_A)));
    assertThat(kubelet.streaming(MIG_3G)).isTrue();
    assertThat(plugins.servedResources()).containsExactly(GPU, MIG_1G, MIG_3G);
    assertThat(files()).contains("migd-mig-3g.40gb.sock");

    reshaped.put("nvidia.com/mig-2g.20gb", List.of(mig(MIG_C, 1, 3, true)));
    plugins.publish(new Inventory(reshaped, List.of()));

    await()
        .atMost(WITHIN)
        .until(() -> kubelet.ids("nvidia.com/mig-2g.20gb").equals(List.of(MIG_C)));
    assertThat(kubelet.registeredResources())
        .containsExactlyInAnyOrder(GPU, MIG_1G, MIG_3G, "nvidia.com/mig-2g.20gb");
    assertThat(kubelet.ids(MIG_3G)).isEmpty();
  }

  @Test
  void retriesWhileKubeletSocketIsAbsentWarningOncePerResource() {
    var logs = capture(KubeletRegistration.class);
    var plugins = plugins(false);
    plugins.publish(node());

    await().atMost(WITHIN).until(() -> count(logs, Level.DEBUG) >= 6);
    var kubelet = kubelet();

    await().atMost(WITHIN).until(() -> kubelet.registeredResources().size() == 3);
    await().atMost(WITHIN).until(() -> kubelet.ids(MIG_3G).equals(List.of(MIG_BIG)));
    await().atMost(WITHIN).until(() -> count(logs, Level.INFO) >= 3);
    // the new kubelet.sock started a fresh registration; the retries in flight were cancelled,
    // so no resource registers twice
    await()
        .during(Duration.ofMillis(1200))
        .atMost(WITHIN)
        .until(() -> kubelet.requests().size() == 3);
    assertThat(messages(logs, Level.WARN))
        .hasSize(3)
        .anySatisfy(m -> assertThat(m).contains("resource=" + MIG_1G))
        .anySatisfy(m -> assertThat(m).contains("resource=" + MIG_3G))
        .anySatisfy(m -> assertThat(m).contains("resource=" + GPU));
  }

  @Test
  void retriesARefusedRegistrationWarningOncePerResource() {
    var logs = capture(KubeletRegistration.class);
    var kubelet = kubelet();
    kubelet.refuseNext(6);
    var plugins = plugins(false);
    plugins.publish(node());

    await().atMost(WITHIN).until(() -> kubelet.registeredResources().size() == 3);
    await().atMost(WITHIN).until(() -> count(logs, Level.INFO) == 3);

    assertThat(kubelet.requests()).hasSize(9);
    assertThat(messages(logs, Level.INFO))
        .allSatisfy(
            m ->
                assertThat(m)
                    .matches("registered resource=\\S+ endpoint=migd-\\S+\\.sock attempts=\\d+"))
        .extracting(m -> Integer.parseInt(m.substring(m.lastIndexOf('=') + 1)))
        .satisfies(attempts -> assertThat(attempts.stream().mapToInt(i -> i).sum()).isEqualTo(9));
    assertThat(messages(logs, Level.WARN)).hasSize(3);
  }

  @Test
  void registersEveryResourceAgainAfterAKubeletRestart() throws InterruptedException {
    var kubelet = kubelet();
    var plugins = plugins(false);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().size() == 3);

    open.remove(kubelet);
    kubelet.close();
    FakeKubelet.deleteEveryFile(dir);
    long restartedAt = System.nanoTime();
    var restarted = FakeKubelet.start(dir);
    open.add(restarted);

    await()
        .atMost(WITHIN)
        .until(
            () ->
                restarted.registeredResources().size() == 3
                    && Stream.of(GPU, MIG_1G, MIG_3G).allMatch(restarted::streaming));
    var took = Duration.ofNanos(System.nanoTime() - restartedAt);
    System.out.printf(
        "re-registration after a kubelet restart: %d ms from the new kubelet.sock to %d resources"
            + " registered and streaming%n",
        took.toMillis(), restarted.registeredResources().size());
    assertThat(restarted.ids(MIG_3G)).containsExactly(MIG_BIG);
    assertThat(files())
        .containsExactlyInAnyOrder(
            "kubelet.sock", "migd-gpu.sock", "migd-mig-1g.10gb.sock", "migd-mig-3g.40gb.sock");

    plugins.publish(new Inventory(new TreeMap<>(Map.of(GPU, gpuReplicas())), List.of()));
    await().atMost(WITHIN).until(() -> restarted.ids(MIG_3G).isEmpty());
    assertThat(
            restarted
                .plugin(GPU)
                .allocate(request(List.of(GPU_X + "::1")))
                .getContainerResponses(0)
                .getEnvsMap())
        .containsEntry("NVIDIA_VISIBLE_DEVICES", GPU_X);
  }

  @Test
  void replacesAStaleSocketFileAndDeletesItsSocketsWhenClosed() throws Exception {
    var kubelet = kubelet();
    Files.writeString(dir.resolve("migd-gpu.sock"), "left by an earlier run");
    var plugins = plugins(false);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.ids(GPU).size() == 4 && kubelet.streaming(GPU));

    open.remove(plugins);
    plugins.close();

    assertThat(files()).containsExactly("kubelet.sock");
    await().atMost(WITHIN).until(() -> !kubelet.streaming(GPU) && !kubelet.streaming(MIG_1G));
  }

  @Test
  void logsInventoryNotesWhenTheyChange() {
    var logs = capture(DevicePlugins.class);
    var plugins = plugins(false);
    var note = "MIG slices are not advertised: strategy single needs one slice profile per node";

    plugins.publish(new Inventory(node().resources(), List.of(note)));
    plugins.publish(new Inventory(node().resources(), List.of(note)));
    plugins.publish(node());
    plugins.publish(new Inventory(node().resources(), List.of(note)));

    assertThat(messages(logs, Level.INFO)).filteredOn(m -> m.contains(note)).hasSize(2);
  }

  @Test
  void allocatesMigSlicesWithEachParentOnceAndTellsTheListener() {
    var kubelet = kubelet();
    var plugins = plugins(true);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(MIG_1G));

    AllocateResponse answer =
        kubelet.plugin(MIG_1G).allocate(request(List.of(MIG_B, MIG_A), List.of(MIG_C)));

    assertThat(answer.getContainerResponsesList()).hasSize(2);
    assertThat(answer.getContainerResponses(0).getEnvsMap())
        .containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", MIG_B + "," + MIG_A));
    assertThat(answer.getContainerResponses(0).getCdiDevicesList())
        .extracting(CDIDevice::getName)
        .containsExactly("nvidia.com/gpu=" + MIG_B, "nvidia.com/gpu=" + MIG_A);
    assertThat(answer.getContainerResponses(1).getEnvsMap())
        .containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", MIG_C));
    assertThat(heard).containsExactly(List.of(MIG_1G, MIG_B, MIG_A), List.of(MIG_1G, MIG_C));
  }

  @Test
  void allocatesReplicasAsTheirGpusWithoutCdiNamesWhenCdiIsOff() {
    var kubelet = kubelet();
    var plugins = plugins(false);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(GPU));

    AllocateResponse answer =
        kubelet.plugin(GPU).allocate(request(List.of(GPU_Y + "::1", GPU_X + "::0", GPU_Y + "::0")));

    assertThat(answer.getContainerResponses(0).getEnvsMap())
        .containsExactly(Map.entry("NVIDIA_VISIBLE_DEVICES", GPU_Y + "," + GPU_X));
    assertThat(answer.getContainerResponses(0).getCdiDevicesList()).isEmpty();
    assertThat(heard).containsExactly(List.of(GPU, GPU_Y + "::1", GPU_X + "::0", GPU_Y + "::0"));
  }

  @Test
  void refusesAnAllocationOfADeviceNotAdvertisedUnderTheResource() {
    var kubelet = kubelet();
    var plugins = plugins(true);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(MIG_1G));

    assertThatThrownBy(
            () -> kubelet.plugin(MIG_1G).allocate(request(List.of(MIG_A), List.of(MIG_BIG))))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo("device \"" + MIG_BIG + "\" is not advertised under " + MIG_1G);
            });
    assertThat(heard).isEmpty();
  }

  @Test
  void prefersReplicasSpreadOverGpus() {
    var kubelet = kubelet();
    var plugins = plugins(false);
    plugins.publish(node());
    await().atMost(WITHIN).until(() -> kubelet.registeredResources().contains(GPU));
    var all = List.of(GPU_X + "::0", GPU_X + "::1", GPU_Y + "::0", GPU_Y + "::1");

    var answer =
        kubelet
            .plugin(GPU)
            .getPreferredAllocation(
                PreferredAllocationRequest.newBuilder()
                    .addContainerRequests(
                        ContainerPreferredAllocationRequest.newBuilder()
                            .addAllAvailableDeviceIDs(all)
                            .setAllocationSize(2))
                    .addContainerRequests(
                        ContainerPreferredAllocationRequest.newBuilder()
                            .addAllAvailableDeviceIDs(all)
                            .addMustIncludeDeviceIDs(GPU_Y + "::1")
                            .setAllocationSize(2))
                    .build());

    assertThat(answer.getContainerResponses(0).getDeviceIDsList())
        .containsExactly(GPU_X + "::0", GPU_Y + "::0");
    assertThat(answer.getContainerResponses(1).getDeviceIDsList())
        .containsExactly(GPU_Y + "::1", GPU_X + "::0");
    assertThat(
            kubelet
                .plugin(GPU)
                .preStartContainer(
                    PreStartContainerRequest.newBuilder().addDevicesIds(all.get(0)).build()))
        .isEqualTo(PreStartContainerResponse.getDefaultInstance());
  }

  private FakeKubelet kubelet() {
    var kubelet = FakeKubelet.start(dir);
    open.add(kubelet);
    return kubelet;
  }

  private DevicePlugins plugins(boolean cdi) {
    var plugins =
        new DevicePlugins(
            new DevicePluginSettings(dir, cdi, Duration.ofMillis(400)),
            (resource, ids) -> {
              var entry = new ArrayList<String>();
              entry.add(resource);
              entry.addAll(ids);
              heard.add(entry);
            });
    open.add(plugins);
    return plugins;
  }

  private List<String> files() {
    try (var files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Three resources: slices on two GPUs (one unhealthy), a big slice, and time-sliced GPUs. */
  static Inventory node() {
    var resources = new TreeMap<String, List<Device>>();
    resources.put(
        MIG_1G, List.of(mig(MIG_A, 0, 1, true), mig(MIG_B, 0, 2, false), mig(MIG_C, 1, 1, true)));
    resources.put(MIG_3G, List.of(mig(MIG_BIG, 1, 2, true)));
    resources.put(GPU, gpuReplicas());
    return new Inventory(resources, List.of());
  }

  static Device mig(String uuid, int gpu, int gi, boolean healthy) {
    return new Device(uuid, uuid, new GpuIndex(gpu), gi, 0, healthy);
  }

  static List<Device> gpuReplicas() {
    var replicas = new ArrayList<Device>();
    for (var gpu : List.of(Map.entry(GPU_X, 2), Map.entry(GPU_Y, 3))) {
      for (int n = 0; n < 2; n++) {
        replicas.add(
            new Device(
                gpu.getKey() + "::" + n,
                gpu.getKey(),
                new GpuIndex(gpu.getValue()),
                Usage.WHOLE_GPU,
                Usage.ALL_COMPUTE_INSTANCES,
                true));
      }
    }
    return replicas;
  }

  @SafeVarargs
  static AllocateRequest request(List<String>... containers) {
    var request = AllocateRequest.newBuilder();
    for (var ids : containers) {
      request.addContainerRequests(ContainerAllocateRequest.newBuilder().addAllDevicesIds(ids));
    }
    return request.build();
  }

  static List<Map.Entry<String, String>> health(ListAndWatchResponse list) {
    return list.getDevicesList().stream().map(d -> Map.entry(d.getID(), d.getHealth())).toList();
  }

  private static long count(LogCapture logs, Level level) {
    return messages(logs, level).size();
  }

  private static List<String> messages(LogCapture logs, Level level) {
    return logs.events.stream()
        .filter(e -> e.getLevel() == level)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  private LogCapture capture(Class<?> source) {
    var logger = (Logger) LoggerFactory.getLogger(source);
    var appender = new LogCapture();
    appender.start();
    logger.addAppender(appender);
    open.add(() -> logger.detachAppender(appender));
    return appender;
  }

  /** Collects log events; readable while threads log. */
  static final class LogCapture extends AppenderBase<ILoggingEvent> {
    final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();

    @Override
    protected void append(ILoggingEvent event) {
      events.add(event);
    }
  }
}
