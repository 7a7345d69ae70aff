package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.migd.api.dra.health.v1alpha1.NodeWatchResourcesResponse;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourceResponse;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourceResponse;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.ownership.ClaimKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** migd's DRA plugin against a kubelet played over real unix sockets, through the v1 API. */
class DraPluginIT {
  static final Duration WITHIN = Duration.ofSeconds(10);

  @TempDir Path dir;

  private final ScriptedClaims claims = new ScriptedClaims();
  private final List<AutoCloseable> open = new ArrayList<>();
  private HealthPublisher health;
  private DraPlugin plugin;

  @BeforeEach
  void start() {
    health = new HealthPublisher(Duration.ofMillis(200));
    open.add(health);
    plugin = DraPlugin.start(settings(), claims, health);
    open.add(plugin);
  }

  @AfterEach
  void closeAll() throws Exception {
    for (var c : open.reversed()) {
      c.close();
    }
  }

  @Test
  void registersAsTheDriverWithTheDraSocketAndEveryVersion() throws Exception {
    var registrationSocket = dir.resolve("plugins_registry/gpu.nvidia.com-reg.sock");
    assertThat(registrationSocket).exists();
    assertThat(plugin.registered()).isFalse();

    var registered = register();

    assertThat(registered.info().getType()).isEqualTo("DRAPlugin");
    assertThat(registered.info().getName()).isEqualTo("gpu.nvidia.com");
    assertThat(registered.info().getEndpoint())
        .isEqualTo(dir.resolve("plugins/gpu.nvidia.com/dra.sock").toString());
    assertThat(registered.info().getSupportedVersionsList())
        .containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin", "v1alpha1.DRAResourceHealth");
    assertThat(registered.version()).isEqualTo("v1.DRAPlugin");
    assertThat(plugin.registered()).isTrue();
  }

  @Test
  void logsARefusedRegistrationWithTheKubeletsError() throws Exception {
    var logged = capture(RegistrationService.class);

    FakeDraKubelet.notify(plugin.settings().registrationSocket(), false, "version not known");

    assertThat(plugin.registered()).isFalse();
    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains("kubelet refused the DRA plugin", "error=version not known"));
  }

  @Test
  void preparesAndUnpreparesAClaimWithItsDevicesAndShare() throws Exception {
    var dra = v1(register());

    var prepared =
        dra.nodePrepareResources(
            prepare(claim("ns", "u1", "train"), claim("ns", "u2", "shared-a")));

    assertThat(prepared.getClaimsMap()).containsOnlyKeys("u1", "u2");
    var device = prepared.getClaimsOrThrow("u1").getDevices(0);
    assertThat(prepared.getClaimsOrThrow("u1").getError()).isEmpty();
    assertThat(device.getPoolName()).isEqualTo(ScriptedClaims.POOL);
    assertThat(device.getDeviceName()).isEqualTo(ScriptedClaims.DEVICE);
    assertThat(device.getRequestNamesList()).containsExactly("gpu");
    assertThat(device.getCdiDeviceIdsList()).isEqualTo(ScriptedClaims.cdiIds("u1"));
    assertThat(device.hasShareId()).isFalse();
    assertThat(prepared.getClaimsOrThrow("u2").getDevices(0).getShareId())
        .isEqualTo(ScriptedClaims.SHARE);
    assertThat(claims.prepareCalls)
        .containsExactly(
            List.of(new ClaimKey("u1", "ns", "train"), new ClaimKey("u2", "ns", "shared-a")));

    var unprepared = dra.nodeUnprepareResources(unprepare(claim("ns", "u1", "train")));

    assertThat(unprepared.getClaimsMap())
        .containsExactlyEntriesOf(Map.of("u1", NodeUnprepareResourceResponse.getDefaultInstance()));
  }

  @Test
  void answersEveryClaimWhenTheDriverLeavesOneOutOrFailsIt() throws Exception {
    var dra = v1(register());

    var prepared =
        dra.nodePrepareResources(
            prepare(
                claim("ns", "u1", "train"),
                claim("ns", "u2", "omit-b"),
                claim("ns", "u3", "fail-c"),
                claim("ns", "u1", "train")));

    assertThat(prepared.getClaimsMap()).containsOnlyKeys("u1", "u2", "u3");
    assertThat(prepared.getClaimsOrThrow("u1").getError()).isEmpty();
    assertThat(prepared.getClaimsOrThrow("u2").getError())
        .isEqualTo("preparing claim ns/omit-b (uid u2) gave no answer; the kubelet will retry it");
    assertThat(prepared.getClaimsOrThrow("u3").getError())
        .isEqualTo("no free placement for fail-c");
    assertThat(claims.prepareCalls.getFirst()).hasSize(3);

    var unprepared =
        dra.nodeUnprepareResources(
            unprepare(
                claim("ns", "u1", "train"),
                claim("ns", "u2", "omit-b"),
                claim("ns", "u3", "fail-c")));

    assertThat(unprepared.getClaimsMap()).containsOnlyKeys("u1", "u2", "u3");
    assertThat(unprepared.getClaimsOrThrow("u1").getError()).isEmpty();
    assertThat(unprepared.getClaimsOrThrow("u2").getError())
        .isEqualTo(
            "unpreparing claim ns/omit-b (uid u2) gave no answer; the kubelet will retry it");
    assertThat(unprepared.getClaimsOrThrow("u3").getError())
        .isEqualTo("process 4242 uses " + ScriptedClaims.DEVICE);
  }

  @Test
  void answersEveryClaimWithTheReasonWhenTheDriverThrows() throws Exception {
    var dra = v1(register());

    var prepared =
        dra.nodePrepareResources(prepare(claim("ns", "u1", "train"), claim("ns", "u2", "throw-b")));

    assertThat(prepared.getClaimsMap().values())
        .extracting(NodePrepareResourceResponse::getError)
        .containsExactlyInAnyOrder(
            "preparing claim ns/train (uid u1) failed: NVML is gone",
            "preparing claim ns/throw-b (uid u2) failed: NVML is gone");

    var unprepared = dra.nodeUnprepareResources(unprepare(claim("ns", "u2", "throw-b")));

    assertThat(unprepared.getClaimsOrThrow("u2").getError())
        .isEqualTo("unpreparing claim ns/throw-b (uid u2) failed: NVML is gone");
  }

  @Test
  void refusesACallWithAClaimWithoutItsUid() throws Exception {
    var dra = v1(register());

    assertThatThrownBy(
            () ->
                dra.nodePrepareResources(prepare(claim("ns", "u1", "train"), claim("ns", "", "b"))))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).contains("uid=\"\"", "name=\"b\"");
            });
    assertThat(claims.prepareCalls).isEmpty();
  }

  @Test
  void registersAgainWhenTheKubeletDeletesTheRegistrationSocket() throws Exception {
    register();
    var registrationSocket = plugin.settings().registrationSocket();

    Files.delete(registrationSocket);

    await().atMost(WITHIN).until(() -> Files.exists(registrationSocket));
    var again = FakeDraKubelet.register(registrationSocket);
    open.add(again);
    assertThat(plugin.registered()).isTrue();
    assertThat(v1(again).nodePrepareResources(prepare(claim("ns", "u1", "train"))).getClaimsMap())
        .containsKey("u1");
  }

  @Test
  void servesTheDraSocketAgainWhenItIsDeleted() throws Exception {
    Files.delete(plugin.settings().draSocket());

    // the kubelet registers again when it sees the registration socket created anew, and a
    // registration caught while the old one stops is retried
    await()
        .atMost(WITHIN)
        .ignoreExceptions()
        .until(
            () ->
                v1(register())
                    .nodePrepareResources(prepare(claim("ns", "u1", "train")))
                    .containsClaims("u1"));
    assertThat(plugin.settings().draSocket()).exists();
  }

  @Test
  void streamsTheHealthListAtOnceOnChangeAndAgainWithoutChange() throws Exception {
    health.publish(List.of(DeviceHealth.healthy("node-a", "gpu-0")));
    var received = register().watchHealth();

    await().atMost(WITHIN).until(() -> !received.isEmpty());
    assertThat(devices(received.getFirst())).containsExactly("node-a/gpu-0 HEALTHY 30 ");

    health.publish(
        List.of(new DeviceHealth("node-a", "gpu-0", DeviceHealth.Health.UNHEALTHY, "XID 79")));

    await()
        .atMost(WITHIN)
        .until(
            () -> devices(received.getLast()).equals(List.of("node-a/gpu-0 UNHEALTHY 30 XID 79")));
    int seen = received.size();
    await().atMost(WITHIN).until(() -> received.size() >= seen + 2);
    assertThat(received.subList(seen - 1, received.size()))
        .extracting(DraPluginIT::devices)
        .containsOnly(List.of("node-a/gpu-0 UNHEALTHY 30 XID 79"));
    assertThat(received.getLast().getDevices(0).getLastUpdatedTime())
        .isGreaterThanOrEqualTo(received.getFirst().getDevices(0).getLastUpdatedTime());
  }

  private DraPluginSettings settings() {
    return new DraPluginSettings(
        "gpu.nvidia.com",
        dir.resolve("plugins_registry"),
        dir.resolve("plugins/gpu.nvidia.com"),
        Duration.ofMillis(100));
  }

  private FakeDraKubelet.Plugin register() throws InterruptedException {
    var registered = FakeDraKubelet.register(plugin.settings().registrationSocket());
    open.add(registered);
    return registered;
  }

  private static DRAPluginGrpc.DRAPluginBlockingStub v1(FakeDraKubelet.Plugin plugin) {
    return DRAPluginGrpc.newBlockingStub(plugin.channel())
        .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS);
  }

  private static Claim claim(String namespace, String uid, String name) {
    return Claim.newBuilder().setNamespace(namespace).setUid(uid).setName(name).build();
  }

  private static NodePrepareResourcesRequest prepare(Claim... claims) {
    return NodePrepareResourcesRequest.newBuilder().addAllClaims(List.of(claims)).build();
  }

  private static NodeUnprepareResourcesRequest unprepare(Claim... claims) {
    return NodeUnprepareResourcesRequest.newBuilder().addAllClaims(List.of(claims)).build();
  }

  private static List<String> devices(NodeWatchResourcesResponse message) {
    return message.getDevicesList().stream()
        .map(
            device ->
                device.getDevice().getPoolName()
                    + "/"
                    + device.getDevice().getDeviceName()
                    + " "
                    + device.getHealth()
                    + " "
                    + device.getHealthCheckTimeoutSeconds()
                    + " "
                    + device.getMessage())
        .toList();
  }

  private ListAppender<ILoggingEvent> capture(Class<?> source) {
    var logger = (Logger) LoggerFactory.getLogger(source);
    var appender = new ListAppender<ILoggingEvent>();
    appender.start();
    logger.addAppender(appender);
    open.add(() -> logger.detachAppender(appender));
    return appender;
  }
}
