package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.migd.kubelet.FakeKubelet;
import io.migd.sim.MpsSupervisor;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} sharing a node by section 11's example, as a kubelet sees it and as the
 * simulated {@code nvidia-cuda-mps-control} is told, its daemons run by the chart's MPS supervisor:
 * daemons with their limits, a killed one started again, none started twice by a restarted migd,
 * and {@code export} writing the sharing back.
 */
class MpsServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String NODE = "--simulate=A100-SXM4-40GB,H100-SXM5-80GB,T4";
  private static final String CONFIG =
      """
      version: v1
      mig-configs:
        shared:
          - devices: [0]
            mig-enabled: true
            mig-devices: {"3g.20gb": 1, "1g.5gb": 4}
            sharing: {"3g.20gb": {mps: {replicas: 2}}, "1g.5gb": {time-slicing: {replicas: 3}}}
          - devices: [1]
            mig-enabled: true
            mig-devices: {"3g.40gb": 2}
          - devices: [2]
            mig-enabled: false
            mps: {replicas: 4}
      """;

  @TempDir Path nodeDir;
  private Path pluginDir;
  private Path mpsRoot;
  private FakeKubelet kubelet;
  private MpsSupervisor supervisor;

  @BeforeEach
  void startKubelet() throws IOException {
    // unix socket paths must stay under 108 bytes: JUnit's temp dirs can be too deep
    pluginDir = Files.createTempDirectory(Path.of("/tmp"), "migd-dp");
    mpsRoot = Files.createTempDirectory(Path.of("/tmp"), "migd-mps");
    kubelet = FakeKubelet.start(pluginDir);
  }

  @AfterEach
  void stop() throws Exception {
    kubelet.close();
    if (supervisor != null) {
      supervisor.close();
    }
    for (Path root : List.of(pluginDir, mpsRoot)) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  @Test
  void sharesTheNodeRestartsADaemonAdoptsThemAfterARestartAndExportsTheSharing() throws Exception {
    Path config = nodeDir.resolve("sharing.yaml");
    Files.writeString(config, CONFIG);
    assumeTrue(MpsSupervisor.unavailable().isEmpty(), MpsSupervisor.unavailable());
    var sim = SimulatedNvml.extract(nodeDir.resolve("mps-sim"));
    Path control = sim.mpsControlPath();
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIGFILE", config.toString())
            .withEnvironment("MIGD_CONFIG", "shared")
            .withEnvironment("MIGD_MPS_CONTROLCOMMAND", control.toString())
            .withEnvironment("MIGD_MPS_ROOT", mpsRoot.toString())
            .withEnvironment("MIGD_MPS_CHECKINTERVAL", "200ms")
            .withEnvironment("MIGD_KUBELET_DEVICEPLUGINDIR", pluginDir.toString());

    supervisor =
        MpsSupervisor.start(mpsRoot, sim, migd.stateFile(), nodeDir.resolve("supervisor.log"));
    String big;
    String t4;
    try (var daemon = migd.start("serve", NODE)) {
      int port = daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
                assertThat(kubelet.ids("nvidia.com/mig-3g.20gb")).hasSize(2);
                assertThat(kubelet.ids("nvidia.com/mig-1g.5gb")).hasSize(12);
                assertThat(kubelet.ids("nvidia.com/mig-3g.40gb")).hasSize(2);
                assertThat(kubelet.ids("nvidia.com/gpu")).hasSize(4);
              });
      // the metrics answer once the web server listens, which it does before the kubelet is
      // served; a refused connection while it starts is waited out, never a failure
      await()
          .atMost(PATIENCE)
          .ignoreExceptionsInstanceOf(IOException.class)
          .untilAsserted(
              () ->
                  assertThat(metrics(port))
                      .as("replicas per shared GPU or slice, by strategy")
                      .anySatisfy(
                          line ->
                              assertThat(line)
                                  .startsWith("migd_shared_devices{")
                                  .contains("gpu=\"0\"", "strategy=\"mps\"")
                                  .endsWith(" 2.0"))
                      .anySatisfy(
                          line ->
                              assertThat(line)
                                  .contains("gpu=\"2\"", "gpu_instance=\"\"", "strategy=\"mps\"")
                                  .endsWith(" 4.0"))
                      .filteredOn(
                          line ->
                              line.startsWith("migd_shared_devices{")
                                  && line.contains("strategy=\"time-slicing\""))
                      .hasSize(4)
                      .allSatisfy(line -> assertThat(line).contains("gpu=\"0\"").endsWith(" 3.0")));
      big = parent(kubelet.ids("nvidia.com/mig-3g.20gb").getFirst());
      t4 = parent(kubelet.ids("nvidia.com/gpu").getFirst());
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(log(big))
                    .startsWith(
                        "-f",
                        "set_default_active_thread_percentage 50",
                        "set_default_device_pinned_mem_limit 0 10048M");
                assertThat(log(t4))
                    .startsWith(
                        "-f",
                        "set_default_active_thread_percentage 25",
                        "set_default_device_pinned_mem_limit 0 3840M");
              });
      assertThat(Files.readAllLines(pipe(t4).resolve("daemon.env")))
          .contains(
              "CUDA_VISIBLE_DEVICES=" + t4,
              "CUDA_MPS_PIPE_DIRECTORY=" + pipe(t4),
              "CUDA_MPS_LOG_DIRECTORY=" + mpsRoot.resolve(t4).resolve("log"));

      long killed = pid(t4);
      ProcessHandle.of(killed).orElseThrow().destroyForcibly();
      await()
          .atMost(PATIENCE)
          // the state says exited between the kill and the restart
          .ignoreException(NumberFormatException.class)
          .untilAsserted(
              () -> {
                assertThat(starts(t4)).isEqualTo(2);
                assertThat(pid(t4)).isNotEqualTo(killed);
                assertThat(ProcessHandle.of(pid(t4))).isPresent();
                assertThat(kubelet.latest("nvidia.com/gpu").orElseThrow().getDevicesList())
                    .extracting(d -> d.getHealth())
                    .containsOnly("Healthy");
              });
    }

    long bigPid = pid(big);
    int registrations = kubelet.registrations().size();
    try (var daemon = migd.start("serve", NODE)) {
      // the kubelet surface registers after the MPS daemons were brought in line
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
                assertThat(kubelet.registrations().size()).isGreaterThan(registrations);
              });
      assertThat(starts(big)).isEqualTo(1);
      assertThat(starts(t4)).isEqualTo(2);
      assertThat(pid(big)).isEqualTo(bigPid);

      var export = migd.run("export", NODE);
      assertThat(export.exitStatus()).as(export.stderr()).isZero();
      assertThat(export.stdout())
          .contains("\"3g.20gb\": {mps: {replicas: 2}}")
          .contains("\"1g.5gb\": {time-slicing: {replicas: 3}}")
          .contains("mps: {replicas: 4}");
    }
  }

  private static String parent(String replica) {
    return replica.substring(0, replica.indexOf("::"));
  }

  private Path pipe(String uuid) {
    return mpsRoot.resolve(uuid).resolve("pipe");
  }

  private List<String> log(String uuid) throws IOException {
    Path log = pipe(uuid).resolve("control.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  private long starts(String uuid) throws IOException {
    return log(uuid).stream().filter("-f"::equals).count();
  }

  private long pid(String uuid) throws IOException {
    return Long.parseLong(
        Files.readString(mpsRoot.resolve(uuid).resolve("state")).strip().replace("running ", ""));
  }

  private static List<String> metrics(int port) throws IOException, InterruptedException {
    try (var http = HttpClient.newHttpClient()) {
      var response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.body().lines().filter(l -> l.startsWith("migd_shared_devices{")).toList();
    }
  }
}
