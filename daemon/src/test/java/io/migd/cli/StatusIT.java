package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code migd status}: the table a person reads and the {@code GET /api/v1/gpus} records, from a
 * running {@code serve} when one answers, else from NVML; a GPU NVML cannot observe is a row with
 * its error, the others as usual.
 */
class StatusIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String A100_AND_T4 = "--simulate=A100-SXM4-40GB,T4";

  private static NvmlSimCommand nvmlSim;

  @TempDir Path dir;

  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void extractNvmlSim(@TempDir Path simDir) {
    nvmlSim = NvmlSimCommand.extract(simDir);
  }

  @Test
  void printsTheNodeFromNvmlWhenNoDaemonAnswersAndFromTheDaemonWhenOneDoes() throws Exception {
    var migd = MigdProcess.on(dir.resolve("node")).quiet();
    var apply = migd.run("apply", "-c", "all-balanced", A100_AND_T4);
    assertThat(apply.exitStatus()).as("%s", apply).isZero();
    int busy = gpuInstanceId(nvmlSim.status(migd.stateFile()).path("gpus").get(0), "3g.20gb");
    nvmlSim.run(
        migd.stateFile(),
        "attach",
        "--gpu",
        "0",
        "--gi",
        Integer.toString(busy),
        "--pid",
        "4242",
        "--mem",
        "1024",
        "--name",
        "trainer");
    String nobody = "--url=http://127.0.0.1:" + closedPort();

    var table = migd.run("status", nobody, A100_AND_T4);
    var json = migd.run("status", "-o", "json", nobody, A100_AND_T4);

    assertThat(table.exitStatus()).as("%s", table).isZero();
    assertThat(table.stderr()).contains("source: NVML (no daemon answered at http://127.0.0.1:");
    assertThat(table.stdout())
        .containsPattern("(?m)^GPU +MODEL +MIG +STATE +REASON$")
        .containsPattern("(?m)^0 +NVIDIA A100-SXM4-40GB +enabled +- +-$")
        .containsPattern("(?m)^1 +Tesla T4 +n/a +- +-$")
        .containsPattern("(?m)^GPU +GI +CI +PROFILE +PLACEMENT +UUID +MEMORY USED +HELD BY$")
        .containsPattern(
            "(?m)^0 +"
                + busy
                + " +0 +3g\\.20gb +\\d:4 +MIG-\\S+ +1024MiB +process 4242 \\(trainer\\)$")
        .containsPattern("(?m)^0 +\\d+ +0 +1g\\.5gb +\\d:1 +MIG-\\S+ +0MiB +-$");
    assertThat(json.exitStatus()).as("%s", json).isZero();
    JsonNode fromNvml = JSON.readTree(json.stdout());
    assertThat(fromNvml.size()).isEqualTo(2);
    assertThat(fromNvml.get(0).path("slices").size()).isEqualTo(4);

    try (var daemon = serve(migd, A100_AND_T4)) {
      String url = "--url=http://127.0.0.1:" + daemon.httpPort();
      awaitReady(daemon);

      var fromDaemon = migd.run("status", url, A100_AND_T4);
      var daemonJson = migd.run("status", "-o", "json", url, A100_AND_T4);

      assertThat(fromDaemon.exitStatus()).as("%s", fromDaemon).isZero();
      assertThat(fromDaemon.stderr())
          .contains("source: the migd daemon at http://127.0.0.1:" + daemon.httpPort());
      assertThat(fromDaemon.stdout())
          .containsPattern("(?m)^0 +NVIDIA A100-SXM4-40GB +enabled +success +matches the desired")
          .containsPattern(
              "(?m)^0 +"
                  + busy
                  + " +0 +3g\\.20gb +\\d:4 +MIG-\\S+ +1024MiB +process 4242 \\(trainer\\)$");
      assertThat(daemonJson.exitStatus()).as("%s", daemonJson).isZero();
      JsonNode rest = JSON.readTree(get(daemon, "/api/v1/gpus").body());
      assertThat(JSON.readTree(daemonJson.stdout())).isEqualTo(rest);
      assertThat(fromNvml).as("the same records from either source").isEqualTo(rest);
    }
  }

  @Test
  void showsAGpuNvmlCannotObserveWithItsErrorAndTheOthersAsUsual() throws Exception {
    var migd =
        MigdProcess.on(dir.resolve("node"))
            .quiet()
            .withEnvironment("NVML_SIM_FAULTS", "nvmlDeviceGetMigMode@1=NVML_ERROR_GPU_IS_LOST");
    String simulate = "--simulate=A100-SXM4-40GB,A100-SXM4-40GB,T4";

    var alone = migd.run("status", "--url=http://127.0.0.1:" + closedPort(), simulate);

    assertThat(alone.exitStatus()).as("%s", alone).isEqualTo(1);
    assertThat(alone.stdout())
        .containsPattern("(?m)^0 +NVIDIA A100-SXM4-40GB +disabled +- +-$")
        .containsPattern("(?m)^1 +- +- +- +nvmlDeviceGetMigMode.*NVML_ERROR_GPU_IS_LOST")
        .containsPattern("(?m)^2 +Tesla T4 +n/a +- +-$");

    try (var daemon = serve(migd, simulate)) {
      awaitReady(daemon);

      var served = migd.run("status", "--url=http://127.0.0.1:" + daemon.httpPort(), simulate);

      assertThat(served.exitStatus()).as("%s", served).isEqualTo(1);
      assertThat(served.stdout())
          .containsPattern("(?m)^0 +NVIDIA A100-SXM4-40GB +enabled +success ")
          .containsPattern("(?m)^1 +- +- +failed +.*NVML_ERROR_GPU_IS_LOST");
    }
  }

  @Test
  void sendsTheTokenOfTheTokenFileAndSaysWhenTheDaemonRefusesIt() throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, "s3cret-token\n");
    var migd = MigdProcess.on(dir.resolve("node")).quiet();

    try (var daemon =
        serve(
            migd.withEnvironment("MIGD_AUTH_MODE", "token")
                .withEnvironment("MIGD_AUTH_TOKENFILE", tokenFile.toString()),
            A100_AND_T4)) {
      awaitReady(daemon);
      String url = "--url=http://127.0.0.1:" + daemon.httpPort();

      var withoutToken = migd.run("status", url, A100_AND_T4);
      var withToken = migd.run("status", url, "--migd.auth.token-file=" + tokenFile, A100_AND_T4);

      assertThat(withoutToken.exitStatus()).as("%s", withoutToken).isEqualTo(3);
      assertThat(withoutToken.stderr())
          .contains("refused GET /api/v1/gpus (401")
          .contains("--migd.auth.token-file=FILE");
      assertThat(withoutToken.stdout()).isEmpty();
      assertThat(withToken.exitStatus()).as("%s", withToken).isZero();
      assertThat(withToken.stdout())
          .containsPattern("(?m)^0 +NVIDIA A100-SXM4-40GB +enabled +success ");
    }
  }

  @Test
  void refusesAnUnknownOutputFormat() {
    var status = MigdProcess.on(dir.resolve("node")).run("status", "-o", "yaml", A100_AND_T4);

    assertThat(status.exitStatus()).as("%s", status).isEqualTo(ExitStatus.USAGE);
    assertThat(status.stderr()).contains("table, json");
  }

  private static MigdProcess.Running serve(MigdProcess migd, String simulate) {
    return migd.withEnvironment("SERVER_PORT", "0")
        .withEnvironment("MIGD_KUBELET_ENABLED", "false")
        .withEnvironment("MIGD_CONFIG", "all-balanced")
        .start("serve", simulate);
  }

  private void awaitReady(MigdProcess.Running daemon) {
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .until(() -> get(daemon, "/actuator/health/readiness").statusCode() == 200);
  }

  private HttpResponse<String> get(MigdProcess.Running daemon, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + daemon.httpPort() + path))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A port nothing listens on: the kernel's pick, closed again. */
  private static int closedPort() {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int gpuInstanceId(JsonNode gpu, String profile) {
    for (JsonNode gi : gpu.path("gpuInstances")) {
      if (gi.path("profile").asString().equals(profile)) {
        return gi.path("id").asInt();
      }
    }
    return fail("no %s GPU instance on GPU %s", profile, gpu.path("index"));
  }
}
