package io.migd.claims;

import static io.migd.claims.ClaimsRig.failure;
import static io.migd.claims.ClaimsRig.prepared;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimKey;
import io.migd.pool.Allocation;
import io.migd.pool.PoolDevice;
import io.migd.sharing.ClaimSharing;
import io.migd.sharing.ClientEdits;
import io.migd.sharing.DeviceSharing;
import io.migd.sharing.SharedDevice;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shares of a twin (DESIGN section 14, Fractions) prepared and unprepared against the simulated
 * NVML on an H100 (GPU 0, Hopper: MIG follows the claims): the first share of a placement makes its
 * instance and the others join it, each answered with its own CDI device and share ID; the last
 * share's unprepare gives the instance back; an exclusive device allocated over a shared one, or a
 * share over a device another claim holds, fails its claim and is reported.
 */
class ClaimSharesIT {
  private static final long GIB = 1L << 30;

  @TempDir Path dir;
  private ClaimsRig rig;
  private final List<String> applied = new CopyOnWriteArrayList<>();
  private final List<String> released = new CopyOnWriteArrayList<>();
  private final List<String> overlaps = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    rig = ClaimsRig.start(dir, "H100-SXM5-80GB");
    rig.sharing =
        new ClaimSharing() {
          @Override
          public ClientEdits apply(String claimUid, SharedDevice device, List<String> uuids) {
            if (device.sharing() instanceof DeviceSharing.Share share) {
              applied.add(claimUid + " " + device.uuid() + " " + share);
              return new ClientEdits(
                  Map.of("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "" + share.computePercent()),
                  List.of());
            }
            return ClientEdits.NONE;
          }

          @Override
          public void release(String claimUid) {
            released.add(claimUid);
          }
        };
    rig.events =
        new ClaimEvents() {
          @Override
          public void shareOverlap(ClaimKey claim, String sentence) {
            overlaps.add(sentence);
          }
        };
    rig.preparer.close();
    rig.preparer = rig.newPreparer();
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  /** Publishes the twin of {@code device} (the rig's pool has every placement and the GPU). */
  private String twin(String device) {
    PoolDevice exclusive = rig.pool().device(device).orElseThrow();
    String name = device + "-shared";
    rig.extra.add(
        new PoolDevice(
            name,
            new TreeMap<>(),
            new TreeMap<>(),
            List.of(),
            List.of(),
            exclusive.origin(),
            new Allocation.Shared(new TreeMap<>())));
    return name;
  }

  private ClaimKey share(String uid, String twin, String shareId, long memory, long compute) {
    var result =
        result("req-0", twin, Optional.of(shareId), Map.of("memory", memory, "compute", compute));
    return rig.allocate(uid, List.of(result), List.of());
  }

  @Test
  void sharesOfAPlacementJoinOneInstanceAndTheLastUnprepareGivesItBack() {
    String twin = twin(rig.deviceAt(0, "1g.10gb", 0));

    var first = prepared(rig.prepare(share("a", twin, "share-a", 4 * GIB, 20)));
    var second = prepared(rig.prepare(share("b", twin, "share-b", 10 * GIB, 50)));

    assertThat(rig.instances(0)).hasSize(1);
    CheckpointClaim.Device a = first.devices().getFirst();
    CheckpointClaim.Device b = second.devices().getFirst();
    assertThat(b.device().deviceUuid()).isEqualTo(a.device().deviceUuid()).isNotEmpty();
    assertThat(a.share()).contains(new CheckpointClaim.Share("share-a", 4 * GIB, 20));
    assertThat(b.share()).contains(new CheckpointClaim.Share("share-b", 10 * GIB, 50));
    assertThat(a.cdiDeviceIds()).containsExactly("k8s.migd.io/claim=a-" + twin + "-share-a");
    assertThat(b.cdiDeviceIds()).containsExactly("k8s.migd.io/claim=b-" + twin + "-share-b");
    assertThat(applied)
        .containsExactly(
            "a "
                + a.device().deviceUuid()
                + " Share[shareId=share-a, memoryMib=4096, computePercent=20]",
            "b "
                + a.device().deviceUuid()
                + " Share[shareId=share-b, memoryMib=10240, computePercent=50]");

    assertThat(rig.unprepare(ClaimsRig.key("a"))).isInstanceOf(UnprepareAnswer.Unprepared.class);
    assertThat(rig.instances(0)).hasSize(1);
    assertThat(rig.unprepare(ClaimsRig.key("b"))).isInstanceOf(UnprepareAnswer.Unprepared.class);
    assertThat(rig.instances(0)).isEmpty();
    assertThat(released).containsExactly("a", "b");
  }

  @Test
  void sharesOfTheWholeGpuJoinItOnceMigIsOff() {
    String twin = twin("gpu-0");

    prepared(rig.prepare(share("a", twin, "share-a", GIB, 3)));
    var second = prepared(rig.prepare(share("b", twin, "share-b", 2 * GIB, 3)));

    assertThat(rig.nvml.migMode(rig.nvml.deviceByIndex(0)).current()).isFalse();
    assertThat(second.devices().getFirst().device().deviceUuid())
        .isEqualTo(rig.nvml.uuid(rig.nvml.deviceByIndex(0)));
  }

  @Test
  void anExclusiveDeviceAllocatedOverASharedOneFailsAndIsReported() {
    String slice = rig.deviceAt(0, "1g.10gb", 0);
    prepared(rig.prepare(share("a", twin(slice), "share-a", GIB, 20)));

    String error = failure(rig.prepare(rig.allocate("x", rig.deviceAt(0, "2g.20gb", 0))));

    assertThat(error)
        .contains("device " + rig.deviceAt(0, "2g.20gb", 0))
        .contains("was allocated over shared device " + slice + "-shared")
        .contains("claim default/claim-a")
        .contains("is kube-scheduler older than 1.36.2?");
    assertThat(overlaps).singleElement().isEqualTo(error);
    assertThat(rig.instances(0)).hasSize(1);
  }

  @Test
  void aShareAllocatedOverAnExclusiveDeviceFailsAndIsReported() {
    prepared(rig.prepare(rig.allocate("x", rig.deviceAt(0, "2g.20gb", 0))));
    String twin = twin(rig.deviceAt(0, "1g.10gb", 1));

    String error = failure(rig.prepare(share("a", twin, "share-a", GIB, 20)));

    assertThat(error)
        .contains("shared device " + twin + " was allocated over device")
        .contains("is kube-scheduler older than 1.36.2?");
    assertThat(overlaps).hasSize(1);
  }

  @Test
  void aShareTheSchedulerDidNotMarkFailsNamingWhatIsMissing() {
    String twin = twin(rig.deviceAt(0, "1g.10gb", 0));
    var noShareId = result("req-0", twin, Optional.empty(), Map.of("memory", GIB, "compute", 20L));
    var noCompute = result("req-0", twin, Optional.of("s"), Map.of("memory", GIB));

    assertThat(failure(rig.prepare(rig.allocate("a", List.of(noShareId), List.of()))))
        .contains("has no shareID");
    assertThat(failure(rig.prepare(rig.allocate("b", List.of(noCompute), List.of()))))
        .contains("has no consumedCapacity for compute");
    assertThat(rig.instances(0)).isEmpty();
  }

  @Test
  void aClaimWithTwoSharesOfOneDeviceOrTwoSharedDevicesInOneRequestFails() {
    String one = twin(rig.deviceAt(0, "1g.10gb", 0));
    String other = twin(rig.deviceAt(0, "1g.10gb", 1));
    var results = List.of(result("req-0", one, "s1"), result("req-1", one, "s2"));
    var oneRequest = List.of(result("req-0", one, "s3"), result("req-0", other, "s4"));

    assertThat(failure(rig.prepare(rig.allocate("a", results, List.of()))))
        .contains("has two shares of device " + one);
    assertThat(failure(rig.prepare(rig.allocate("b", oneRequest, List.of()))))
        .contains("request req-0 has two shared devices");
    assertThat(rig.instances(0)).isEmpty();
  }

  @Test
  void withOneNamespaceAShareOfAnotherNamespaceFails() {
    rig.sharesOneNamespace = true;
    rig.preparer.close();
    rig.preparer = rig.newPreparer();
    String twin = twin(rig.deviceAt(0, "1g.10gb", 0));
    prepared(rig.prepare(share("a", twin, "share-a", GIB, 20)));
    rig.claims.put(
        new AllocatedClaim(
            "b",
            "team-b",
            "claim-b",
            true,
            List.of(result("req-0", twin, "share-b")),
            List.of(),
            List.of()));

    String error = failure(rig.prepare(new ClaimKey("b", "team-b", "claim-b")));

    assertThat(error)
        .contains("has shares of namespace default")
        .contains("migd.dra.shares.namespaces=single");
    assertThat(applied).hasSize(1);
  }

  private static AllocatedClaim.Result result(String request, String twin, String shareId) {
    return result(request, twin, Optional.of(shareId), Map.of("memory", GIB, "compute", 20L));
  }

  private static AllocatedClaim.Result result(
      String request, String twin, Optional<String> shareId, Map<String, Long> consumed) {
    return new AllocatedClaim.Result(
        request,
        ClaimsRig.DRIVER,
        ClaimsRig.POOL,
        twin,
        false,
        "share.migd.io",
        shareId,
        new TreeMap<>(consumed));
  }
}
