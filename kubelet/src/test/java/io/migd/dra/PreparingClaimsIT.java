package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourceResponse;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.claims.AllocatedClaim;
import io.migd.claims.CdiDevice;
import io.migd.claims.ClaimCdi;
import io.migd.claims.ClaimEvents;
import io.migd.claims.ClaimNode;
import io.migd.claims.ClaimPreparer;
import io.migd.claims.ClaimSettings;
import io.migd.claims.ClaimSource;
import io.migd.claims.PodSource;
import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.profiles.GpuModelCatalog;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DRA plugin over real unix sockets with migd's own preparation behind it: a claim prepared
 * through {@code NodePrepareResources} is a MIG device NVML shows (simulated A100, MIG enabled),
 * and {@code NodeUnprepareResources} removes it.
 */
class PreparingClaimsIT {
  private static final String DRIVER = "gpu.nvidia.com";
  private static final String POOL = "node-a";
  private static final String DEVICE = "gpu-0-mig-3g20gb-9-4";

  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private Nvml nvml;
  private DraPlugin plugin;

  @BeforeEach
  void start() throws Exception {
    var sim = SimulatedNvml.extract(dir.resolve("lib"));
    sim.init("A100-SXM4-40GB");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    open.add(nvml);
    nvml.setMigMode(nvml.deviceByIndex(0), true);
    String uuid = nvml.uuid(nvml.deviceByIndex(0));
    Files.writeString(dir.resolve("boot_id"), "boot-1\n");
    var gpu = new GpuIndex(0);
    var pool =
        new PoolContent(
            DRIVER,
            POOL,
            List.of(
                new PoolSlice(
                    "001-gpu.nvidia.com-node-a",
                    new PoolSlice.Devices(
                        gpu,
                        List.of(
                            new PoolDevice(
                                DEVICE,
                                new TreeMap<>(),
                                new TreeMap<>(),
                                List.of(),
                                List.of(),
                                new DeviceOrigin.DynamicPlacement(
                                    gpu, uuid, "3g.20gb", 9, 4, 4)))))));
    ClaimSource claims =
        new ClaimSource() {
          @Override
          public Optional<AllocatedClaim> get(String namespace, String name) {
            return Optional.of(
                new AllocatedClaim(
                    "u1",
                    namespace,
                    name,
                    true,
                    List.of(new AllocatedClaim.Result("gpu/big", DRIVER, POOL, DEVICE, false)),
                    List.of(),
                    List.of()));
          }

          @Override
          public List<AllocatedClaim> listAllocatedToPool() {
            return List.of();
          }
        };
    ClaimCdi cdi =
        new ClaimCdi() {
          @Override
          public List<String> write(String claimUid, List<CdiDevice> devices) {
            return devices.stream().flatMap(d -> d.cdiIds(claimUid).stream()).toList();
          }

          @Override
          public void remove(String claimUid) {}
        };
    var preparer =
        new ClaimPreparer(
            claims,
            new ClaimNode(
                nvml,
                GpuModelCatalog.builtIn(),
                new Executor(nvml, ProgressListener.NONE),
                ClaimNode.NO_PODS,
                () -> pool,
                g -> true,
                g -> true),
            cdi,
            new ClaimSettings(
                DRIVER, POOL, dir.resolve("state"), dir.resolve("boot_id"), Duration.ZERO),
            ClaimEvents.NONE,
            PodSource.NONE);
    open.add(preparer);
    var health = new HealthPublisher(Duration.ofMillis(200));
    open.add(health);
    plugin =
        DraPlugin.start(
            new DraPluginSettings(
                DRIVER,
                dir.resolve("plugins_registry"),
                dir.resolve("plugins/gpu.nvidia.com"),
                Duration.ofMillis(100)),
            new PreparingClaims(preparer),
            health);
    open.add(plugin);
  }

  @AfterEach
  void closeAll() throws Exception {
    for (var c : open.reversed()) {
      c.close();
    }
  }

  @Test
  void aPreparedClaimIsTheMigDeviceNvmlShowsAndUnprepareRemovesIt() throws Exception {
    var registered = FakeDraKubelet.register(plugin.settings().registrationSocket());
    open.add(registered);
    var dra =
        DRAPluginGrpc.newBlockingStub(registered.channel())
            .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS);
    var claim = Claim.newBuilder().setNamespace("ns").setUid("u1").setName("train").build();

    var prepared =
        dra.nodePrepareResources(NodePrepareResourcesRequest.newBuilder().addClaims(claim).build());

    var answer = prepared.getClaimsOrThrow("u1");
    assertThat(answer.getError()).isEmpty();
    var device = answer.getDevices(0);
    assertThat(device.getPoolName()).isEqualTo(POOL);
    assertThat(device.getDeviceName()).isEqualTo(DEVICE);
    assertThat(device.getRequestNamesList()).containsExactly("gpu");
    assertThat(device.getCdiDeviceIdsList()).containsExactly("k8s.migd.io/claim=u1-" + DEVICE);
    assertThat(nvml.gpuInstances(nvml.deviceByIndex(0), 9)).hasSize(1);

    var unprepared =
        dra.nodeUnprepareResources(
            NodeUnprepareResourcesRequest.newBuilder().addClaims(claim).build());

    assertThat(unprepared.getClaimsMap())
        .containsExactlyEntriesOf(Map.of("u1", NodeUnprepareResourceResponse.getDefaultInstance()));
    assertThat(nvml.gpuInstances(nvml.deviceByIndex(0), 9)).isEmpty();
  }
}
