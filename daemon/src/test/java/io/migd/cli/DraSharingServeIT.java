package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.sim.AllocatedClaims;
import io.migd.sim.MpsSupervisor;
import io.migd.sim.SimulatedNvml;
import io.migd.sim.SimulatedProc;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} in dra mode sharing claims' devices as NVIDIA's opaque configs say, end to
 * end: the test kubelet, the API server (the fabric8 mock), the simulated NVML, {@code nvidia-smi}
 * and {@code nvidia-cuda-mps-control}, and the chart's MPS supervisor running the daemons. A claim
 * of the shape of NVIDIA's quickstart MPS claim, reserved for two pods, is prepared once,
 * unchanged, on a whole GPU; MPS on a dynamic and a static MIG slice (which NVIDIA's driver
 * refuses); time-slicing from a DeviceClass config; and what migd does not serve fails the claim
 * naming it.
 */
@EnableKubernetesMockClient(crud = true)
class DraSharingServeIT {
  private static final String DRIVER = DraServeNode.DRIVER;
  private static final String NODE = DraServeNode.NODE;
  private static final String CONFIG =
      """
      version: v1
      mig-configs:
        mixed:
          - devices: [0]
            mig-enabled: true
            dynamic: true
          - devices: [1]
            mig-enabled: true
            mig-devices: {"3g.40gb": 2}
      """;

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path nodeDir;
  private Path mpsRoot;

  @AfterEach
  void removeMpsRoot() throws IOException {
    if (mpsRoot == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(mpsRoot)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }

  @Test
  void sharesClaimsAsNvidiasConfigsSay() throws Exception {
    assumeTrue(MpsSupervisor.unavailable().isEmpty(), MpsSupervisor.unavailable());
    // the control pipe's socket path must stay under 108 bytes
    mpsRoot = Files.createTempDirectory(Path.of("/tmp"), "migd-mps");
    var sim = SimulatedNvml.extract(nodeDir.resolve("mps-sim"));
    Path smi = sim.cliPath().getParent().resolve("nvidia-smi");
    Path config = Files.writeString(nodeDir.resolve("sharing.yaml"), CONFIG);
    var node =
        DraServeNode.create(
                server,
                client,
                nodeDir,
                List.of(
                    new SimulatedProc.Gpu(0, 8, 7),
                    new SimulatedProc.Gpu(1, 8, 7),
                    new SimulatedProc.Gpu(2, 0, 0)))
            .withEnvironment("MIGD_CONFIGFILE", config.toString())
            .withEnvironment("MIGD_CONFIG", "mixed")
            .withEnvironment("MIGD_MPS_CONTROLCOMMAND", sim.mpsControlPath().toString())
            .withEnvironment("MIGD_MPS_ROOT", mpsRoot.toString())
            .withEnvironment(
                "MIGD_DRA_TIMESLICECOMMAND",
                smi + ",compute-policy,-i,{uuid},--set-timeslice,{interval}");
    Path smiLog = Path.of(node.stateFile() + ".nvidia-smi.log");
    try (node;
        var supervisor =
            MpsSupervisor.start(mpsRoot, sim, node.stateFile(), nodeDir.resolve("supervisor.log"));
        var daemon = node.serve("H100-SXM5-80GB,H100-SXM5-80GB,T4");
        var kubelet = node.register()) {
      await()
          .atMost(DraServeNode.PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(node.deviceNamed("gpu-2")).isPresent();
                assertThat(node.deviceSlice("gpu-0-mig-1g10gb-19-")).isPresent();
                assertThat(node.deviceSlice("gpu-1-mig-3g40gb-")).isPresent();
              });
      String t4 = node.deviceNamed("gpu-2").orElseThrow().getAttributes().get("uuid").getString();

      // NVIDIA's quickstart MPS claim, unchanged, on the T4, reserved for two pods
      String shared = create(quickstartClaim(pod("first"), pod("second")));
      var prepared = DraServeNode.prepare(kubelet, "shared-gpu", shared);
      assertThat(prepared.getError()).as(daemon.stderr()).isEmpty();
      assertThat(prepared.getDevicesList())
          .singleElement()
          .satisfies(d -> assertThat(d.getRequestNamesList()).containsExactly("mps-gpu"));
      String t4Daemon = onlyDaemon();
      assertThat(log(t4Daemon))
          .containsExactly(
              "-f",
              "set_default_active_thread_percentage 50",
              "set_default_device_pinned_mem_limit 0 10240M");
      assertThat(Files.readAllLines(mpsRoot.resolve(t4Daemon).resolve("pipe/daemon.env")))
          .contains("CUDA_VISIBLE_DEVICES=" + t4);
      assertThat(smiLog).content().contains("-i " + t4 + " -c EXCLUSIVE_PROCESS");
      assertThat(node.cdiSpec(shared))
          .content()
          .contains("CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps")
          .contains("hostPath: " + mpsRoot.resolve(t4Daemon).resolve("pipe"))
          .contains("containerPath: /tmp/nvidia-mps")
          .contains("hostPath: " + mpsRoot.resolve(t4Daemon).resolve("shm"))
          .contains("containerPath: /dev/shm");
      // a shared claim is prepared once per node: the kubelet's repeat answers the same devices
      assertThat(DraServeNode.prepare(kubelet, "shared-gpu", shared).getDevicesList())
          .isEqualTo(prepared.getDevicesList());
      assertThat(log(t4Daemon)).filteredOn(l -> l.startsWith("-f")).hasSize(1);
      // both pods' containers hold the device
      await()
          .atMost(DraServeNode.PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(
                          node.get("http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus")
                              .lines()
                              .filter(l -> l.startsWith("migd_device_allocation_info{"))
                              .filter(l -> l.contains("container=\"mps-ctr0\""))
                              .toList())
                      .anySatisfy(l -> assertThat(l).contains("pod=\"first\""))
                      .anySatisfy(l -> assertThat(l).contains("pod=\"second\"")));
      assertThat(DraServeNode.unprepare(kubelet, "shared-gpu", shared).getError()).isEmpty();
      assertThat(mpsRoot.resolve(t4Daemon).resolve("state"))
          .content()
          .isEqualToIgnoringNewLines("stopped");
      assertThat(mpsRoot.resolve(t4Daemon).resolve("daemon.json")).doesNotExist();
      assertThat(smiLog).content().contains("-i " + t4 + " -c DEFAULT");
      assertThat(node.cdiSpec(shared)).doesNotExist();

      // MPS on a dynamic and a static MIG slice: the claim's config over the class's
      String dynamic = node.allocate("1g.10gb");
      String staticSlice =
          node.deviceSlice("gpu-1-mig-3g40gb-").orElseThrow().getSpec().getDevices().stream()
              .map(d -> d.getName())
              .filter(n -> n.startsWith("gpu-1-mig-3g40gb-"))
              .findFirst()
              .orElseThrow();
      String slices =
          create(
              claim(
                  "slices",
                  List.of(dynamic, staticSlice),
                  opaque(
                      "FromClass",
                      mps("MigDeviceConfig", Map.of("defaultActiveThreadPercentage", 25))),
                  opaque(
                      "FromClaim",
                      mps(
                          "MigDeviceConfig",
                          Map.of(
                              "multiUser",
                              true,
                              "defaultPinnedDeviceMemoryLimit",
                              "4Gi",
                              "defaultPerDevicePinnedMemoryLimit",
                              Map.of("0", "2Gi"))))));
      var slicesPrepared = DraServeNode.prepare(kubelet, "slices", slices);
      assertThat(slicesPrepared.getError()).as(daemon.stderr()).isEmpty();
      assertThat(slicesPrepared.getDevicesList()).hasSize(2);
      List<String> daemons = requested();
      assertThat(daemons).hasSize(2);
      var visible =
          daemons.stream()
              .map(id -> envOf(id).stream().filter(l -> l.startsWith("CUDA_VISIBLE_DEVICES=MIG-")))
              .flatMap(s -> s)
              .map(l -> l.substring("CUDA_VISIBLE_DEVICES=".length()))
              .sorted()
              .toList();
      assertThat(visible).hasSize(2);
      for (String id : daemons) {
        String device =
            envOf(id).stream()
                .filter(l -> l.startsWith("CUDA_VISIBLE_DEVICES="))
                .findFirst()
                .orElseThrow()
                .substring("CUDA_VISIBLE_DEVICES=".length());
        // by index 0 into the claim's sorted UUIDs, the other by the default
        String limit = device.equals(visible.getFirst()) ? "2048M" : "4096M";
        assertThat(log(id))
            .as("multi-user, no thread percentage (the class's is below the claim's)")
            .containsExactly("-f -M", "set_default_device_pinned_mem_limit 0 " + limit);
      }
      assertThat(DraServeNode.unprepare(kubelet, "slices", slices).getError()).isEmpty();
      assertThat(requested()).isEmpty();
      assertThat(node.gpus(daemon).get(0).path("slices")).isEmpty();

      // time-slicing from the DeviceClass's config on the whole GPU, restored at unprepare
      String sliced =
          create(
              claim(
                  "sliced",
                  List.of("gpu-2"),
                  opaque(
                      "FromClass",
                      Map.of(
                          "apiVersion",
                          "resource.nvidia.com/v1beta1",
                          "kind",
                          "GpuConfig",
                          "sharing",
                          Map.of(
                              "strategy",
                              "TimeSlicing",
                              "timeSlicingConfig",
                              Map.of("interval", "Long"))))));
      assertThat(DraServeNode.prepare(kubelet, "sliced", sliced).getError()).isEmpty();
      assertThat(smiLog).content().endsWith("compute-policy -i " + t4 + " --set-timeslice 3\n");
      assertThat(DraServeNode.unprepare(kubelet, "sliced", sliced).getError()).isEmpty();
      assertThat(smiLog).content().endsWith("compute-policy -i " + t4 + " --set-timeslice 0\n");

      // what migd does not serve fails the claim, naming it
      String vfio =
          create(
              claim(
                  "vfio",
                  List.of("gpu-2"),
                  opaque(
                      "FromClaim",
                      Map.of(
                          "apiVersion",
                          "resource.nvidia.com/v1beta1",
                          "kind",
                          "VfioDeviceConfig"))));
      assertThat(DraServeNode.prepare(kubelet, "vfio", vfio).getError())
          .contains("kind VfioDeviceConfig is not served by migd");
      String typo =
          create(
              claim(
                  "typo",
                  List.of(node.allocate("1g.10gb")),
                  opaque("FromClaim", mps("MigDeviceConfig", Map.of("multiuser", true)))));
      assertThat(DraServeNode.prepare(kubelet, "typo", typo).getError())
          .contains("unknown field multiuser in MigDeviceConfig.sharing.mpsConfig");
      assertThat(requested()).isEmpty();
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /**
   * Fractions end to end: twins of a dynamic H100's placements and of a T4 without MIG, published
   * once the gates are open (Kubernetes 1.36.2, kubelet 1.36, {@code migd.dra.shares=true}); two
   * shares of one MIG slice join its instance and its daemon, whose limits follow the largest
   * share; an exclusive claim allocated over them fails, is counted and warned about, and withdraws
   * the node's twins; the last share's unprepare stops the daemon.
   */
  @Test
  void sharesASliceByMemoryAndComputeWithTheLimitsMpsHolds() throws Exception {
    assumeTrue(MpsSupervisor.unavailable().isEmpty(), MpsSupervisor.unavailable());
    mpsRoot = Files.createTempDirectory(Path.of("/tmp"), "migd-mps");
    var sim = SimulatedNvml.extract(nodeDir.resolve("mps-sim"));
    Path config =
        Files.writeString(
            nodeDir.resolve("fractions.yaml"),
            """
            version: v1
            mig-configs:
              fractions:
                - devices: [0]
                  mig-enabled: true
                  dynamic: true
                  shares: true
                - devices: [1]
                  mig-enabled: false
                  shares: true
            """);
    var node =
        DraServeNode.create(
                server,
                client,
                nodeDir,
                List.of(new SimulatedProc.Gpu(0, 8, 7), new SimulatedProc.Gpu(1, 0, 0)))
            .withEnvironment("MIGD_CONFIGFILE", config.toString())
            .withEnvironment("MIGD_CONFIG", "fractions")
            .withEnvironment("MIGD_DRA_SHARES", "true")
            .withEnvironment("MIGD_MPS_CONTROLCOMMAND", sim.mpsControlPath().toString())
            .withEnvironment("MIGD_MPS_ROOT", mpsRoot.toString());
    server.setVersionInfo(
        new VersionInfo.Builder().withMajor("1").withMinor("36").withGitVersion("v1.36.2").build());
    client
        .nodes()
        .withName(NODE)
        .editStatus(
            n ->
                new NodeBuilder(n)
                    .editOrNewStatus()
                    .editOrNewNodeInfo()
                    .withKubeletVersion("v1.36.2")
                    .endNodeInfo()
                    .endStatus()
                    .build());
    String slice = "gpu-0-mig-1g10gb-19-0";
    String twin = slice + "-shared";
    try (node;
        var supervisor =
            MpsSupervisor.start(mpsRoot, sim, node.stateFile(), nodeDir.resolve("supervisor.log"));
        var daemon = node.serve("H100-SXM5-80GB,T4");
        var kubelet = node.register()) {
      await()
          .atMost(DraServeNode.PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(node.deviceNamed(twin)).isPresent();
                assertThat(node.deviceNamed("gpu-1-shared")).isPresent();
              });
      var published = node.deviceNamed(twin).orElseThrow();
      assertThat(published.getAllowMultipleAllocations()).isTrue();
      assertThat(published.getAttributes().get("type").getString()).isEqualTo("mig-share");
      assertThat(published.getCapacity().get("compute").getRequestPolicy().getValidRange().getMin())
          .isEqualTo(new Quantity("17"));
      assertThat(node.deviceNamed(slice).orElseThrow().getConsumesCounters())
          .isEqualTo(published.getConsumesCounters());

      String shareA = "6de5d941-c79d-4a8a-ba10-668351620525";
      String shareB = "0c4f3a4e-4a0e-4b8e-9d55-3f1f6c2b9a10";
      String a = create(shareClaim("share-a", twin, shareA, "4Gi", "20"));
      var first = DraServeNode.prepare(kubelet, "share-a", a);
      assertThat(first.getError()).as(daemon.stderr()).isEmpty();
      assertThat(first.getDevicesList())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.getShareId()).isEqualTo(shareA);
                assertThat(d.getCdiDeviceIdsList())
                    .containsExactly("k8s.migd.io/claim=" + a + "-" + twin + "-" + shareA);
              });
      String id = onlyDaemon();
      assertThat(log(id))
          .containsExactly(
              "-f -M",
              "set_default_active_thread_percentage 20",
              "set_default_device_pinned_mem_limit 0 4096M");
      assertThat(node.cdiSpec(a))
          .content()
          .contains("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4096M")
          .contains("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=20")
          .contains("hostPath: " + mpsRoot.resolve(id).resolve("pipe"));

      // a larger share joins the slice and raises the daemon's limits, its servers' too
      String b = create(shareClaim("share-b", twin, shareB, "10Gi", "50"));
      var second = DraServeNode.prepare(kubelet, "share-b", b);
      assertThat(second.getError()).as(daemon.stderr()).isEmpty();
      assertThat(requested()).containsExactly(id);
      assertThat(node.gpus(daemon).get(0).path("slices")).hasSize(1);
      assertThat(log(id))
          .contains(
              "set_default_active_thread_percentage 50",
              "set_default_device_pinned_mem_limit 0 10240M")
          .anySatisfy(l -> assertThat(l).matches("set_device_pinned_mem_limit \\d+ 0 10240M"))
          .anySatisfy(l -> assertThat(l).matches("set_active_thread_percentage \\d+ 50"));
      assertThat(node.cdiSpec(b)).content().contains("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=10240M");
      String metrics = node.get("http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus");
      assertThat(metrics)
          .contains("migd_dra_shares{device=\"" + twin + "\",gpu=\"0\"} 2.0")
          .contains("migd_dra_share_compute_percent{device=\"" + twin + "\",gpu=\"0\"} 70.0");

      // an exclusive device allocated over the shared slice: refused, reported, twins withdrawn
      String over = node.createClaim("over", "gpu-0-mig-7g80gb-0-0");
      assertThat(DraServeNode.prepare(kubelet, "over", over).getError())
          .contains("was allocated over shared device " + twin)
          .contains("is kube-scheduler older than 1.36.2?");
      await()
          .atMost(DraServeNode.PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(node.deviceNamed(twin)).isEmpty();
                assertThat(client.v1().events().inNamespace("default").list().getItems())
                    .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("SharedDeviceOverlap"));
              });
      assertThat(node.get("http://127.0.0.1:" + daemon.httpPort() + "/actuator/prometheus"))
          .contains("migd_dra_share_overlaps_total 1.0");

      // the daemon outlives the first share's unprepare and stops with the last
      assertThat(DraServeNode.unprepare(kubelet, "share-a", a).getError()).isEmpty();
      assertThat(requested()).containsExactly(id);
      assertThat(DraServeNode.unprepare(kubelet, "share-b", b).getError()).isEmpty();
      assertThat(requested()).isEmpty();
      assertThat(mpsRoot.resolve(id).resolve("state"))
          .content()
          .isEqualToIgnoringNewLines("stopped");
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  /** Claim {@code ml/NAME} given a share of {@code twin}, as the 1.36 scheduler writes it. */
  private static ResourceClaim shareClaim(
      String name, String twin, String shareId, String memory, String compute) {
    return AllocatedClaims.requested("ml", name)
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .addToResults(
            new DeviceRequestAllocationResultBuilder()
                .withRequest(AllocatedClaims.REQUEST)
                .withDriver(DRIVER)
                .withPool(NODE)
                .withDevice(twin)
                .withShareID(shareId)
                .withConsumedCapacity(
                    Map.of(
                        "memory", new Quantity(memory),
                        "compute", new Quantity(compute),
                        "multiprocessors", new Quantity("0")))
                .build())
        .endDevices()
        .endAllocation()
        .endStatus()
        .build();
  }

  /** NVIDIA's quickstart template made a claim, allocated the T4, as the scheduler does. */
  private ResourceClaim quickstartClaim(String firstUid, String secondUid) throws IOException {
    ResourceClaimTemplate template;
    try (InputStream in = getClass().getResourceAsStream("/sharing/gpu-test-mps.yaml")) {
      template = client.getKubernetesSerialization().unmarshal(in, ResourceClaimTemplate.class);
    }
    var spec = template.getSpec().getSpec();
    List<DeviceAllocationConfiguration> configs =
        spec.getDevices().getConfig().stream()
            .map(
                c ->
                    new DeviceAllocationConfigurationBuilder()
                        .withSource("FromClaim")
                        .withRequests(c.getRequests())
                        .withOpaque(c.getOpaque())
                        .build())
            .toList();
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace("ml")
        .withName("shared-gpu")
        .endMetadata()
        .withSpec(spec)
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .addToResults(
            new DeviceRequestAllocationResultBuilder()
                .withRequest("mps-gpu")
                .withDriver(DRIVER)
                .withPool(NODE)
                .withDevice("gpu-2")
                .build())
        .withConfig(configs)
        .endDevices()
        .endAllocation()
        .withReservedFor(
            Map.of("first", firstUid, "second", secondUid).entrySet().stream()
                .map(
                    pod ->
                        new ResourceClaimConsumerReferenceBuilder()
                            .withResource("pods")
                            .withName(pod.getKey())
                            .withUid(pod.getValue())
                            .build())
                .toList())
        .endStatus()
        .build();
  }

  /** Pod {@code ml/NAME} whose container uses the quickstart claim; returns its UID. */
  private String pod(String name) {
    return client
        .pods()
        .inNamespace("ml")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withNamespace("ml")
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewResourceClaim()
                .withName("shared-gpu")
                .withResourceClaimName("shared-gpu")
                .endResourceClaim()
                .addNewContainer()
                .withName("mps-ctr0")
                .withNewResources()
                .addNewClaim()
                .withName("shared-gpu")
                .withRequest("mps-gpu")
                .endClaim()
                .endResources()
                .endContainer()
                .endSpec()
                .build())
        .createOr(NonDeletingOperation::update)
        .getMetadata()
        .getUid();
  }

  private static ResourceClaim claim(
      String name, List<String> devices, DeviceAllocationConfiguration... configs) {
    return AllocatedClaims.builder("ml", name, DRIVER, NODE, devices)
        .editStatus()
        .editAllocation()
        .editDevices()
        .withConfig(configs)
        .endDevices()
        .endAllocation()
        .endStatus()
        .build();
  }

  private static DeviceAllocationConfiguration opaque(String source, Map<String, Object> params) {
    return new DeviceAllocationConfigurationBuilder()
        .withSource(source)
        .withNewOpaque()
        .withDriver(DRIVER)
        .withParameters(params)
        .endOpaque()
        .build();
  }

  private static Map<String, Object> mps(String kind, Map<String, Object> mpsConfig) {
    return Map.of(
        "apiVersion",
        "resource.nvidia.com/v1beta1",
        "kind",
        kind,
        "sharing",
        Map.of("strategy", "MPS", "mpsConfig", mpsConfig));
  }

  private String create(ResourceClaim claim) {
    return client.resource(claim).createOr(NonDeletingOperation::update).getMetadata().getUid();
  }

  /** The one DRA daemon asked for now. */
  private String onlyDaemon() throws IOException {
    List<String> ids = requested();
    assertThat(ids).hasSize(1);
    return ids.getFirst();
  }

  /** The DRA daemons asked for now. */
  private List<String> requested() throws IOException {
    try (Stream<Path> dirs = Files.list(mpsRoot)) {
      return dirs.filter(d -> Files.exists(d.resolve("daemon.json")))
          .map(d -> d.getFileName().toString())
          .filter(id -> id.startsWith("dra-"))
          .toList();
    }
  }

  private List<String> log(String id) throws IOException {
    Path log = mpsRoot.resolve(id).resolve("pipe/control.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  private List<String> envOf(String id) {
    try {
      return Files.readAllLines(mpsRoot.resolve(id).resolve("pipe/daemon.env"));
    } catch (IOException e) {
      return List.of();
    }
  }
}
