package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.claims.ClaimCheckpoint;
import io.migd.dra.FakeDraKubelet;
import io.migd.kubelet.FakeKubelet;
import io.migd.sim.Kubeconfig;
import io.migd.sim.MpsSupervisor;
import io.migd.sim.NvidiaCtkStandIn;
import io.migd.sim.SimulatedNvml;
import io.migd.sim.SimulatedProc;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The chart's pods run as a kubelet runs them (DESIGN 10, "the pod is part of the contract"): the
 * chart rendered by Helm, each DaemonSet's container run from what it renders (command and args,
 * env, hostPath and ConfigMap volumes with their propagation, the probes, SIGTERM then the grace
 * period) on a {@link PodNode}, and a client container given what {@code Allocate} answered. It
 * checks that migd's sockets, state and MPS files land where the kubelet and the clients look, that
 * an MPS server and its client share the pipe and the shm, and that the death of migd's container
 * leaves the daemons serving and a new migd adopts them.
 *
 * <p>In device-plugin mode migd runs standalone: the rendered {@code NODE_NAME} (the downward API)
 * is left out, as there is no API server, and the REST API is rendered with {@code auth.mode=none}
 * on {@code 127.0.0.1}. In dra mode it runs against the fabric8 mock API server with the chart's
 * auth: {@code NODE_NAME} from the downward API, {@code KUBECONFIG} standing for the in-cluster
 * config, and {@code migd.dra.proc-root} naming a simulated {@code /proc} tree for the driver's
 * capability files, which this machine's {@code /proc} lacks. The image stands for itself as: the
 * test's class path for {@code /opt/migd}'s jars, the repository's {@code
 * daemon/docker/mps-supervisor.sh} for the image's copy, and the simulated driver (test-fixtures:
 * NVML, {@code nvidia-cuda-mps-control}, {@code nvidia-smi}) first on the {@code PATH} with its
 * state file, as the NVIDIA runtime injects the driver.
 */
@EnableKubernetesMockClient(crud = true)
class PodIT {
  static KubernetesMockServer server;
  static KubernetesClient client;

  private static final Duration PATIENCE = Duration.ofSeconds(180);
  private static final Path CHART = Path.of("..", "helm", "migd");
  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final String CONFIG =
      """
      version: v1
      mig-configs:
        shared:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"3g.20gb": 1, "1g.5gb": 4}
            sharing: {"3g.20gb": {mps: {replicas: 2}}}
          - devices: [1]
            mig-enabled: false
            mps: {replicas: 4}
      """;

  private Path base;
  private PodNode node;
  private FakeKubelet kubelet;
  private SimulatedNvml sim;
  private final List<PodNode.Container> running = new ArrayList<>();

  @BeforeEach
  void startNode() throws IOException {
    assumeTrue(PodNode.unavailable().isEmpty(), PodNode.unavailable());
    // outside the directories a container overlays, and short: unix socket paths
    base = Files.createTempDirectory(Path.of("/var/tmp"), "mpod");
    sim = SimulatedNvml.extract(base.resolve("sim"));
    node = PodNode.start(base, sim.cliPath().resolveSibling("container-init"));
  }

  @AfterEach
  void stopNode() throws Exception {
    running.forEach(PodNode.Container::close);
    if (kubelet != null) {
      kubelet.close();
    }
    if (node != null) {
      node.close();
    }
    if (base != null) {
      // the node's and containers' mounts went with their namespaces: plain files are left
      try (Stream<Path> files = Files.walk(base)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  @Test
  void devicePluginModeServesTheKubeletAndMpsClientsAndSurvivesMigdsDeath() throws Exception {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path values = base.resolve("values.yaml");
    Files.writeString(
        values,
        """
        server: {port: %d, address: 127.0.0.1}
        auth: {mode: none}
        extraArgs: ["--simulate=A100-SXM4-40GB,T4"]
        migd:
          config: shared
          configFile: |
        %s
        """
            .formatted(port, CONFIG.indent(4).stripTrailing()));
    List<JsonNode> objects = render(values);
    JsonNode migdSet = daemonSet(objects, false);
    JsonNode mpsSet = daemonSet(objects, true);
    Map<String, String> configMapFiles = configMap(objects);

    // the kubelet's own directory, its socket in it
    kubelet =
        FakeKubelet.start(
            Files.createDirectories(node.hostPath("/var/lib/kubelet/device-plugins")));
    PodNode.Container supervisor = run("mps", mpsSet, configMapFiles);
    PodNode.Container migd = run("migd", migdSet, configMapFiles);

    awaitReady(port, migd);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              assertThat(migd.init.isAlive()).as(migd.output()).isTrue();
              assertThat(kubelet.ids("nvidia.com/mig-3g.20gb")).hasSize(2);
              assertThat(kubelet.ids("nvidia.com/gpu")).hasSize(4);
            });
    String slice = parent(kubelet.ids("nvidia.com/mig-3g.20gb").getFirst());
    String t4 = parent(kubelet.ids("nvidia.com/gpu").getFirst());
    Path mpsRoot = node.hostPath("/run/nvidia/mps");

    // where the kubelet, containerd and clients look, on the host
    try (var sockets = Files.list(node.hostPath("/var/lib/kubelet/device-plugins"))) {
      assertThat(sockets.map(p -> p.getFileName().toString()))
          .contains("kubelet.sock", "migd-gpu.sock", "migd-mig-3g.20gb.sock");
    }
    assertThat(node.hostPath("/var/lib/migd").resolve("intent.json")).isRegularFile();
    for (String device : List.of(slice, t4)) {
      assertThat(mpsRoot.resolve(device).resolve("daemon.json")).isRegularFile();
      assertThat(Files.readString(mpsRoot.resolve(device).resolve("state"))).startsWith("running ");
    }
    assertThat(computeMode(1)).as("the T4, shared whole by MPS").isEqualTo(3);

    // a client of each MPS device, as containerd runs it with what Allocate answered
    for (var resource : List.of("nvidia.com/mig-3g.20gb", "nvidia.com/gpu")) {
      String id = kubelet.ids(resource).getFirst();
      var answer =
          kubelet
              .plugin(resource)
              .allocate(
                  AllocateRequest.newBuilder()
                      .addContainerRequests(ContainerAllocateRequest.newBuilder().addDevicesIds(id))
                      .build())
              .getContainerResponses(0);
      var env = new LinkedHashMap<>(answer.getEnvsMap());
      var volumes = new ArrayList<PodNode.Volume>();
      answer
          .getMountsList()
          .forEach(
              m ->
                  volumes.add(
                      new PodNode.Volume(
                          node.hostPath(m.getHostPath()),
                          m.getContainerPath(),
                          "None",
                          m.getReadOnly())));
      assertThat(client(env, volumes)).as("a client of " + id).contains("mps-sim " + parent(id));
      assertThat(oneShot(List.of("df", "-k", "--output=fstype,size", "/dev/shm"), env, volumes))
          .as("the client's /dev/shm: the daemon's own tmpfs of migd.mps.shm-size, not the host's")
          .containsPattern("tmpfs +65536");
      env.remove("CUDA_MPS_PIPE_DIRECTORY");
      assertThat(client(env, volumes))
          .as("a client of " + id + " that unsets CUDA_MPS_PIPE_DIRECTORY")
          .contains("mps-sim " + parent(id));
    }

    // migd's container dies (a crash, an OOM kill, a liveness restart): the daemons serve on
    Map<String, String> daemons = new LinkedHashMap<>();
    for (String device : List.of(slice, t4)) {
      daemons.put(device, Files.readString(mpsRoot.resolve(device).resolve("state")).strip());
    }
    migd.kill();
    for (var daemon : daemons.entrySet()) {
      long pid = Long.parseLong(daemon.getValue().substring("running ".length()));
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
          .as("the daemon of " + daemon.getKey() + " after migd's death")
          .contains(true);
    }

    // a new migd adopts them: none started twice, the replicas served again
    int registrations = kubelet.registrations().size();
    PodNode.Container second = run("migd", migdSet, configMapFiles);
    awaitReady(port, second);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> assertThat(kubelet.registrations().size()).isGreaterThan(registrations));
    for (var daemon : daemons.entrySet()) {
      Path dir = mpsRoot.resolve(daemon.getKey());
      assertThat(Files.readString(dir.resolve("state")).strip()).isEqualTo(daemon.getValue());
      assertThat(Files.readAllLines(dir.resolve("pipe").resolve("control.log")))
          .filteredOn("-f"::equals)
          .hasSize(1);
    }

    // the -mps container stopped: its daemons quit, compute modes restored, nothing left running
    second.stop();
    supervisor.stop();
    assertThat(supervisor.processes()).isEmpty();
    for (var daemon : daemons.entrySet()) {
      long pid = Long.parseLong(daemon.getValue().substring("running ".length()));
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    }
    assertThat(computeMode(1)).isZero();
  }

  /**
   * DRA mode, with every host path moved (k0s and microk8s move the kubelet's): the paths migd is
   * told and names to the kubelet (its registration socket's directory, its DRA socket's, the MPS
   * root) are mounted from the same host path, so what migd names is where the kubelet dials and
   * where containerd mounts from. Rendered only: the run is the next test's, on the default paths.
   */
  @Test
  void draModeMountsEveryPathMigdNamesAtTheSameHostPath() throws IOException {
    Path values = base.resolve("dra.yaml");
    Files.writeString(
        values,
        """
        nodeGroups: [{name: "", nodeSelector: {}, kubelet: {mode: dra}}]
        hostPaths:
          pluginsRegistry: /opt/k0s/kubelet/plugins_registry
          kubeletPlugins: /opt/k0s/kubelet/plugins
          mpsRoot: /var/run/k0s/mps
        """);
    List<JsonNode> objects = render(values);
    JsonNode pod = daemonSet(objects, false).path("spec").path("template").path("spec");
    JsonNode container = pod.path("containers").get(0);
    var env = new LinkedHashMap<String, String>();
    container
        .path("env")
        .forEach(e -> env.put(e.path("name").asString(), e.path("value").asString()));
    var hostPaths = new LinkedHashMap<String, String>();
    pod.path("volumes")
        .forEach(
            v ->
                hostPaths.put(
                    v.path("name").asString(), v.path("hostPath").path("path").asString()));
    var mounted = new LinkedHashMap<String, String>();
    container
        .path("volumeMounts")
        .forEach(
            m ->
                mounted.put(
                    m.path("mountPath").asString(), hostPaths.get(m.path("name").asString())));

    for (String named : List.of("MIGD_DRA_REGISTRYDIR", "MIGD_DRA_PLUGINDIR", "MIGD_MPS_ROOT")) {
      assertThat(env).containsKey(named);
      assertThat(mounted)
          .as(named + "=" + env.get(named) + " is mounted from the same host path")
          .containsEntry(env.get(named), env.get(named));
    }
    assertThat(env)
        .containsEntry("MIGD_DRA_REGISTRYDIR", "/opt/k0s/kubelet/plugins_registry")
        .containsEntry("MIGD_MPS_ROOT", "/var/run/k0s/mps");
    assertThat(env.get("MIGD_DRA_PLUGINDIR")).startsWith("/opt/k0s/kubelet/plugins/");
  }

  /**
   * DRA mode run as rendered, against the mock API server (Kubernetes 1.36): the test kubelet finds
   * migd's registration socket in the host's plugin registry and dials the DRA socket at the path
   * the registration names, read on the host; a prepared claim's CDI spec and the GPU spec land in
   * the host's {@code /var/run/cdi}, the checkpoint in the host's state directory; SIGTERM ends
   * migd within the grace period and its files stay on the host. The REST auth is the chart's
   * ({@code kubernetes}): the kubelet's readiness probe needs no token.
   */
  @Test
  void draModeRunsAsRenderedWithItsSocketsSpecsAndCheckpointWhereTheKubeletAndContainerdLook()
      throws Exception {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path values = base.resolve("dra-run.yaml");
    Files.writeString(
        values,
        """
        server: {port: %d}
        extraArgs: ["--simulate=A100-SXM4-40GB"]
        nodeGroups: [{name: "", nodeSelector: {}, kubelet: {mode: dra}, config: all-dynamic}]
        # under a directory each container overlays: the pod test makes no file on the machine
        migd: {cdi: {hookPath: /run/nvidia-toolkit/nvidia-cdi-hook}}
        """
            .formatted(port));
    List<JsonNode> objects = render(values);
    // the host's toolkit, whose hook the chart mounts as a File volume
    Path hook = node.hostPath("/run/nvidia-toolkit/nvidia-cdi-hook");
    Files.createDirectories(hook.getParent());
    Files.writeString(hook, "#!/bin/sh\n");
    NvidiaCtkStandIn.beside(sim);

    try (var api =
        DraServeNode.create(
            server,
            client,
            Files.createDirectories(base.resolve("api")),
            List.of(new SimulatedProc.Gpu(0, 8, 7)))) {
      PodNode.Container migd =
          run(
              "migd",
              daemonSet(objects, false),
              configMap(objects),
              Map.of("spec.nodeName", DraServeNode.NODE, "status.podIP", "127.0.0.1"),
              Map.of(
                  "KUBECONFIG",
                  Kubeconfig.write(
                          base.resolve("kubeconfig"), client.getConfiguration().getMasterUrl())
                      .toString(),
                  "MIGD_DRA_PROCROOT",
                  base.resolve("api/proc").toString()));
      awaitReady(port, migd);

      Path registration =
          node.hostPath("/var/lib/kubelet/plugins_registry/gpu.nvidia.com-reg.sock");
      try (var kubelet =
          await()
              .atMost(PATIENCE)
              .ignoreExceptions()
              .until(
                  () -> FakeDraKubelet.register(registration, p -> node.hostPath(p.toString())),
                  p -> p != null)) {
        assertThat(kubelet.info().getEndpoint())
            .isEqualTo("/var/lib/kubelet/plugins/gpu.nvidia.com/dra.sock");
        assertThat(node.hostPath("/var/run/cdi/k8s.migd.io-gpu.yaml"))
            .content()
            .contains("kind: k8s.migd.io/gpu");

        String device = api.allocate("3g.20gb");
        String uid = api.createClaim("train", device);
        var prepared = DraServeNode.prepare(kubelet, "train", uid);
        assertThat(prepared.getError()).as(migd.output()).isEmpty();
        String cdiId = prepared.getDevices(0).getCdiDeviceIds(0);
        assertThat(cdiId).isEqualTo("k8s.migd.io/claim=" + uid + "-" + device);
        assertThat(node.hostPath("/var/run/cdi/k8s.migd.io-claim_" + uid + ".yaml"))
            .as("where containerd resolves " + cdiId)
            .content()
            .contains(uid + "-" + device);
        assertThat(node.hostPath("/var/lib/migd/" + ClaimCheckpoint.FILE_NAME))
            .content()
            .contains(uid);
      }

      migd.stop();
      assertThat(migd.init.exitValue())
          .as("SIGTERM ended migd within the grace period: " + migd.output())
          .isNotEqualTo(137);
      assertThat(node.hostPath("/var/lib/migd/" + ClaimCheckpoint.FILE_NAME))
          .as("the checkpoint outlives the pod")
          .isRegularFile();
    }
  }

  private List<JsonNode> render(Path values) throws IOException {
    String yaml =
        new Helm(CHART)
            .template()
            .withName("migd")
            .withNamespace("gpu-system")
            .withKubeVersion("1.36.0")
            .withValuesFile(values)
            .call();
    var objects = new ArrayList<JsonNode>();
    try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
      while (docs.hasNextValue()) {
        JsonNode doc = docs.nextValue();
        if (doc != null && doc.isObject() && !doc.isEmpty()) {
          objects.add(doc);
        }
      }
    }
    return objects;
  }

  private static JsonNode daemonSet(List<JsonNode> objects, boolean mps) {
    return objects.stream()
        .filter(o -> o.path("kind").asString().equals("DaemonSet"))
        .filter(
            o ->
                mps
                    == o.path("metadata")
                        .path("labels")
                        .path("app.kubernetes.io/component")
                        .asString()
                        .equals("mps"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + (mps ? "-mps " : "") + "DaemonSet"));
  }

  private static Map<String, String> configMap(List<JsonNode> objects) {
    var files = new LinkedHashMap<String, String>();
    objects.stream()
        .filter(o -> o.path("kind").asString().equals("ConfigMap"))
        .forEach(
            o ->
                o.path("data")
                    .properties()
                    .forEach(e -> files.put(e.getKey(), e.getValue().asString())));
    return files;
  }

  /** Runs a DaemonSet's first container as the kubelet would on a node without an API server. */
  private PodNode.Container run(String name, JsonNode daemonSet, Map<String, String> configMap)
      throws IOException {
    return run(name, daemonSet, configMap, Map.of(), Map.of());
  }

  /**
   * Runs a DaemonSet's first container as the kubelet would on this node: {@code fieldRefs} are the
   * downward API's values by field path, {@code standIns} the environment that stands for what the
   * test cannot give a container as a cluster would (the in-cluster API config, the driver's part
   * of {@code /proc}).
   */
  private PodNode.Container run(
      String name,
      JsonNode daemonSet,
      Map<String, String> configMap,
      Map<String, String> fieldRefs,
      Map<String, String> standIns)
      throws IOException {
    JsonNode pod = daemonSet.path("spec").path("template").path("spec");
    JsonNode container = pod.path("containers").get(0);
    var volumes = new ArrayList<PodNode.Volume>();
    for (JsonNode mount : container.path("volumeMounts")) {
      String volumeName = mount.path("name").asString();
      JsonNode volume =
          pod.path("volumes")
              .valueStream()
              .filter(v -> v.path("name").asString().equals(volumeName))
              .findFirst()
              .orElseThrow();
      Path source;
      if (volume.has("hostPath")) {
        String path = volume.path("hostPath").path("path").asString();
        source = node.hostPath(path);
        String type = volume.path("hostPath").path("type").asString();
        if (type.equals("Directory") && !Files.isDirectory(source)) {
          // the kubelet makes its own directories; a Directory volume names one of them
          Files.createDirectories(source);
        } else if (type.equals("DirectoryOrCreate")) {
          Files.createDirectories(source);
        } else if (type.equals("File") && !Files.isRegularFile(source)) {
          throw new AssertionError("the host has no file " + path + " for volume " + volumeName);
        }
      } else if (volume.has("configMap")) {
        source =
            Files.createDirectories(base.resolve("configmaps").resolve(name + "-" + volumeName));
        for (JsonNode item : volume.path("configMap").path("items")) {
          Files.writeString(
              source.resolve(item.path("path").asString()),
              configMap.get(item.path("key").asString()));
        }
      } else {
        throw new AssertionError("the pod test does not model volume " + volume);
      }
      volumes.add(
          new PodNode.Volume(
              source,
              mount.path("mountPath").asString(),
              mount.path("mountPropagation").asString("None"),
              mount.path("readOnly").asBoolean(false)));
    }
    var env = new LinkedHashMap<String, String>();
    for (JsonNode e : container.path("env")) {
      if (e.has("value")) {
        env.put(e.path("name").asString(), e.path("value").asString());
      }
      String field = e.path("valueFrom").path("fieldRef").path("fieldPath").asString("");
      if (fieldRefs.containsKey(field)) {
        env.put(e.path("name").asString(), fieldRefs.get(field));
      }
      // a field this node has no value for (NODE_NAME without an API server): left out
    }
    env.putAll(standIns);
    // the NVIDIA runtime's part: the driver's commands on the PATH, the driver's state
    env.put("PATH", sim.cliPath().getParent() + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
    env.put("NVML_SIM_STATE", base.resolve("nvml.state").toString());
    env.put("MIGD_NVML_EXTRACTDIR", base.resolve("nvml-" + name).toString());
    env.put("HOME", "/root");
    var command = new ArrayList<String>();
    if (container.has("command")) {
      for (JsonNode c : container.path("command")) {
        String part = c.asString();
        command.add(
            part.equals("/opt/migd/mps-supervisor.sh") ? MpsSupervisor.script().toString() : part);
      }
    } else {
      command.addAll(MigdProcess.javaCommand());
    }
    container.path("args").forEach(a -> command.add(a.asString()));
    var grace = Duration.ofSeconds(pod.path("terminationGracePeriodSeconds").asLong(30));
    PodNode.Container started = node.run(name, new PodNode.Spec(command, env, volumes, grace));
    running.add(started);
    return started;
  }

  private String client(Map<String, String> allocated, List<PodNode.Volume> volumes)
      throws InterruptedException {
    return oneShot(
        List.of(sim.cliPath().resolveSibling("mps-client").toString()), allocated, volumes);
  }

  /** Runs a container to its end, with what Allocate answered; its output when it succeeded. */
  private String oneShot(
      List<String> command, Map<String, String> allocated, List<PodNode.Volume> volumes)
      throws InterruptedException {
    var env = new LinkedHashMap<>(allocated);
    env.put("PATH", "/usr/bin:/bin");
    PodNode.Container client =
        node.run("client", new PodNode.Spec(command, env, volumes, Duration.ofSeconds(5)));
    running.add(client);
    int status = client.await(Duration.ofSeconds(60));
    assertThat(status).as(client.output()).isZero();
    return client.output();
  }

  private static void awaitReady(int port, PodNode.Container container) {
    try (var http = HttpClient.newHttpClient()) {
      await()
          .atMost(PATIENCE)
          .ignoreExceptionsInstanceOf(IOException.class)
          .untilAsserted(
              () -> {
                assertThat(container.init.isAlive()).as(container.output()).isTrue();
                var response =
                    http.send(
                        HttpRequest.newBuilder(
                                URI.create(
                                    "http://127.0.0.1:" + port + "/actuator/health/readiness"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
              });
    }
  }

  /** A GPU's compute mode (0 default, 3 exclusive process), as the simulated driver holds it. */
  private int computeMode(int gpu) throws IOException, InterruptedException {
    Process status =
        new ProcessBuilder(
                sim.cliPath().toString(),
                "--state",
                base.resolve("nvml.state").toString(),
                "status",
                "-o",
                "json")
            .redirectErrorStream(true)
            .start();
    String json = new String(status.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(status.waitFor()).as(json).isZero();
    var matcher = Pattern.compile("\"computeMode\": *([0-9]+)").matcher(json);
    for (int i = 0; i <= gpu; i++) {
      assertThat(matcher.find()).isTrue();
    }
    return Integer.parseInt(matcher.group(1));
  }

  private static String parent(String replica) {
    return replica.substring(0, replica.indexOf("::"));
  }
}
