package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.api.dra.v1beta1.Claim;
import io.migd.api.dra.v1beta1.DRAPluginGrpc;
import io.migd.api.dra.v1beta1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1beta1.NodeUnprepareResourcesRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A kubelet that knows only v1beta1 (1.33) gets the same answers as a v1 kubelet, share aside. */
class DraV1beta1IT {
  @TempDir Path dir;

  private final ScriptedClaims claims = new ScriptedClaims();
  private HealthPublisher health;
  private DraPlugin plugin;
  private FakeDraKubelet.Plugin registered;
  private DRAPluginGrpc.DRAPluginBlockingStub dra;

  @BeforeEach
  void start() throws InterruptedException {
    health = new HealthPublisher(HealthPublisher.RESEND);
    plugin =
        DraPlugin.start(
            new DraPluginSettings(
                "gpu.nvidia.com",
                dir.resolve("plugins_registry"),
                dir.resolve("plugins/gpu.nvidia.com"),
                Duration.ofSeconds(1)),
            claims,
            health);
    registered = FakeDraKubelet.register(plugin.settings().registrationSocket());
    dra =
        DRAPluginGrpc.newBlockingStub(registered.channel())
            .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws InterruptedException {
    registered.close();
    plugin.close();
    health.close();
  }

  @Test
  void preparesTheSameDevicesWithoutTheShare() {
    var prepared =
        dra.nodePrepareResources(
            NodePrepareResourcesRequest.newBuilder()
                .addClaims(claim("u1", "train"))
                .addClaims(claim("u2", "shared-a"))
                .build());

    assertThat(prepared.getClaimsMap()).containsOnlyKeys("u1", "u2");
    for (var uid : List.of("u1", "u2")) {
      var answer = prepared.getClaimsOrThrow(uid);
      assertThat(answer.getError()).isEmpty();
      var device = answer.getDevices(0);
      assertThat(device.getPoolName()).isEqualTo(ScriptedClaims.POOL);
      assertThat(device.getDeviceName()).isEqualTo(ScriptedClaims.DEVICE);
      assertThat(device.getRequestNamesList()).containsExactly("gpu");
      assertThat(device.getCdiDeviceIdsList()).isEqualTo(ScriptedClaims.cdiIds(uid));
      // field 5 (share_id) would arrive here as an unknown field
      assertThat(device.getUnknownFields().asMap()).isEmpty();
    }
  }

  @Test
  void answersEveryClaimWhenTheDriverLeavesOneOutOrThrows() {
    var prepared =
        dra.nodePrepareResources(
            NodePrepareResourcesRequest.newBuilder()
                .addClaims(claim("u1", "train"))
                .addClaims(claim("u2", "omit-b"))
                .build());

    assertThat(prepared.getClaimsOrThrow("u1").getDevicesCount()).isOne();
    assertThat(prepared.getClaimsOrThrow("u2").getError())
        .isEqualTo("preparing claim ns/omit-b (uid u2) gave no answer; the kubelet will retry it");

    var unprepared =
        dra.nodeUnprepareResources(
            NodeUnprepareResourcesRequest.newBuilder()
                .addClaims(claim("u1", "train"))
                .addClaims(claim("u3", "throw-c"))
                .build());

    assertThat(unprepared.getClaimsMap()).containsOnlyKeys("u1", "u3");
    assertThat(unprepared.getClaimsOrThrow("u1").getError())
        .isEqualTo("unpreparing claim ns/train (uid u1) failed: NVML is gone");
    assertThat(unprepared.getClaimsOrThrow("u3").getError())
        .isEqualTo("unpreparing claim ns/throw-c (uid u3) failed: NVML is gone");
  }

  private static Claim claim(String uid, String name) {
    return Claim.newBuilder().setNamespace("ns").setUid(uid).setName(name).build();
  }
}
