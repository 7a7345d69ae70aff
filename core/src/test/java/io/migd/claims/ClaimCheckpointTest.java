package io.migd.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.layout.GpuIndex;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Device;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ReservedPod;
import io.migd.reconcile.MisconfiguredPathException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

class ClaimCheckpointTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;
  private Path bootId;

  @BeforeEach
  void writeBootId() throws Exception {
    bootId = dir.resolve("boot_id");
    Files.writeString(bootId, "boot-1\n");
  }

  @Test
  void aProcRootWithoutABootIdIsAMisconfiguredPathNamingTheProperty() {
    Path missing = dir.resolve("not-proc/sys/kernel/random/boot_id");

    assertThatThrownBy(() -> ClaimCheckpoint.open(dir, missing))
        .isInstanceOf(MisconfiguredPathException.class)
        .hasMessageStartingWith("migd.dra.proc-root: " + missing + " cannot be read");
  }

  // the checkpoint as the first DRA release wrote it, before claims recorded their pods
  record FirstDevice(
      String name,
      String kind,
      int gpu,
      String gpuUuid,
      int giProfileId,
      int gpuInstanceId,
      int computeInstanceId,
      int placementStart,
      int placementSize,
      String migUuid,
      List<String> requestNames,
      List<String> cdiDeviceIds) {}

  record FirstClaim(
      String uid, String namespace, String name, String state, List<FirstDevice> devices) {}

  record FirstBody(String bootId, List<FirstClaim> claims) {}

  record FirstFile(int formatVersion, String checksum, String bootId, List<FirstClaim> claims) {}

  @Test
  void loadsACheckpointWrittenBeforeClaimsRecordedTheirPods() throws Exception {
    var claims =
        List.of(
            new FirstClaim(
                "c1",
                "ml",
                "train",
                "prepareCompleted",
                List.of(
                    new FirstDevice(
                        "gpu-0-mig-3g-4",
                        "CREATED",
                        0,
                        "GPU-0",
                        9,
                        2,
                        0,
                        4,
                        4,
                        "MIG-1",
                        List.of("req-0"),
                        List.of("k8s.migd.io/claim=c1")))));
    byte[] body =
        JSON.writeValueAsString(new FirstBody("boot-1", claims)).getBytes(StandardCharsets.UTF_8);
    String checksum =
        "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    Files.writeString(
        dir.resolve(ClaimCheckpoint.FILE_NAME),
        JSON.writeValueAsString(new FirstFile(1, checksum, "boot-1", claims)));

    var checkpoint = ClaimCheckpoint.open(dir, bootId);

    assertThat(checkpoint.loaded()).isEqualTo(new ClaimCheckpoint.Loaded.Read(1));
    assertThat(checkpoint.all())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.device().deviceUuid()).isEqualTo("MIG-1");
              assertThat(d.deviceClass()).isEmpty();
              assertThat(d.pods()).isEmpty();
            });
  }

  @Test
  void keepsTheDeviceClassAndPodsOfAClaimAcrossARestart() {
    var pods = List.of(new ReservedPod("ml", "job", "pod-uid", List.of("trainer", "exporter")));
    var claim =
        new CheckpointClaim(
            new ClaimKey("c1", "ml", "train"),
            true,
            List.of(
                new Device(
                    new ClaimDevice.Made(
                        "gpu-0-mig-3g-4",
                        new GpuIndex(0),
                        "GPU-0",
                        new ClaimDevice.MigInstance(2, 0, "MIG-1")),
                    Kind.CREATED,
                    List.of("req-0"),
                    List.of(),
                    "mig.nvidia.com")),
            pods);
    ClaimCheckpoint.open(dir, bootId).put(claim);

    var reopened = ClaimCheckpoint.open(dir, bootId);

    assertThat(reopened.get("c1")).contains(claim);
    assertThat(reopened.all())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.deviceClass()).isEqualTo("mig.nvidia.com");
              assertThat(d.pods()).isEqualTo(pods);
            });
  }
}
