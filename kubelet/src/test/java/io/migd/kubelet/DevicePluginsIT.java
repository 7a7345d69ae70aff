package io.migd.kubelet;

import static io.migd.kubelet.SampleNode.GPU;
import static io.migd.kubelet.SampleNode.GPU_X;
import static io.migd.kubelet.SampleNode.GPU_Y;
import static io.migd.kubelet.SampleNode.MIG_1G;
import static io.migd.kubelet.SampleNode.MIG_3G;
import static io.migd.kubelet.SampleNode.MIG_A;
import static io.migd.kubelet.SampleNode.MIG_B;
import static io.migd.kubelet.SampleNode.MIG_BIG;
import static io.migd.kubelet.SampleNode.MIG_C;
import static io.migd.kubelet.SampleNode.gpuReplicas;
import static io.migd.kubelet.SampleNode.mig;
import static io.migd.kubelet.SampleNode.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.migd.api.deviceplugin.v1beta1.ListAndWatchResponse;
import io.migd.api.deviceplugin.v1beta1.RegisterRequest;
import io.migd.devices.AllocationListener;
import io.migd.devices.Device;
import io.migd.devices.Inventory;
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

  static final Duration WITHIN = Duration.ofSeconds(30);

  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();

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
    // so once no registration is tried any more, no resource has registered twice
    await().atMost(WITHIN).until(() -> !plugins.registering());
    assertThat(kubelet.requests())
        .extracting(RegisterRequest::getResourceName)
        .containsExactlyInAnyOrder(GPU, MIG_1G, MIG_3G);
    assertThat(messages(logs, Level.WARN))
        .hasSize(3)
        .anySatisfy(m -> assertThat(m).contains("resource=" + MIG_1G))
        .anySatisfy(m -> assertThat(m).contains("resource=" + MIG_3G))
        .anySatisfy(m -> assertThat(m).contains("resource=" + GPU));
  }

  @Test
  void aNewerRegistrationOfAResourceStillFailingAddsNoSecondWarning() throws Exception {
    var logs = capture(KubeletRegistration.class);
    try (var registration = new KubeletRegistration(dir.resolve("kubelet.sock"), WITHIN)) {
      registration.register(GPU, "migd-gpu.sock");
      await().atMost(WITHIN).until(() -> count(logs, Level.DEBUG) >= 1);
      // kubelet.sock re-created but not answering yet: a newer registration, failing again
      registration.register(GPU, "migd-gpu.sock");
      await().atMost(WITHIN).until(() -> count(logs, Level.DEBUG) >= 3);
    }
    assertThat(messages(logs, Level.WARN))
        .singleElement()
        .satisfies(m -> assertThat(m).contains("resource=" + GPU));
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
        .pollInterval(Duration.ofMillis(5))
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
                .allocate(DevicePluginServiceIT.request(List.of(GPU_X + "::1")))
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

    assertThat(messages(logs, Level.WARN)).filteredOn(m -> m.contains(note)).hasSize(2);
  }

  private FakeKubelet kubelet() {
    var kubelet = FakeKubelet.start(dir);
    open.add(kubelet);
    return kubelet;
  }

  private DevicePlugins plugins(boolean cdi) {
    var plugins =
        new DevicePlugins(
            new DevicePluginSettings(dir, cdi, Duration.ofMillis(400)), AllocationListener.NONE);
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
