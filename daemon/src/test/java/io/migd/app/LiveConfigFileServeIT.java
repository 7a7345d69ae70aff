package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import io.migd.cli.NvmlSimCommand;
import io.migd.cli.NvmlSimCommand.GpuLayout;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} reads its config file again while it runs (DESIGN section 13): an edit of the
 * named config, written in place or swapped in as the kubelet updates a ConfigMap volume, reshapes
 * the GPUs; an invalid edit fails the node and leaves the GPUs alone until a fix recovers; a REST
 * intent stays what it is.
 */
class LiveConfigFileServeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String MODEL = "A100-SXM4-40GB";
  private static final GpuLayout WHOLE = GpuLayout.mig(MODEL, "7g.40gb[7g.40gb]");
  private static final GpuLayout HALVES =
      GpuLayout.mig(MODEL, "3g.20gb[3g.20gb]", "3g.20gb[3g.20gb]");
  private static final GpuLayout QUARTERS =
      GpuLayout.mig(MODEL, "2g.10gb[2g.10gb]", "2g.10gb[2g.10gb]", "2g.10gb[2g.10gb]");

  @TempDir Path dir;

  private final HttpClient http = HttpClient.newHttpClient();

  private static String mine(String migDevices) {
    return """
        version: v1
        mig-configs:
          mine:
            - devices: all
              mig-enabled: true
              mig-devices: %s
        """
        .formatted(migDevices);
  }

  private MigdProcess migd(Path configFile) {
    return MigdProcess.on(dir.resolve("node"))
        .withEnvironment("SERVER_PORT", "0")
        .withEnvironment("MIGD_CONFIGFILE", configFile.toString())
        .withEnvironment("MIGD_CONFIG", "mine")
        .withEnvironment("MIGD_CONFIGFILEPOLL", "200ms");
  }

  @Test
  void anEditReshapesAnInvalidOneFailsTheNodeUntouchedAndAFixRecovers() throws Exception {
    Path file = dir.resolve("configs.yaml");
    Files.writeString(file, mine("{\"7g.40gb\": 1}"));
    var migd = migd(file);
    try (var daemon = migd.start("serve", "--simulate=" + MODEL)) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      awaitLayout(migd, WHOLE, base, "\"generation\":1");

      Files.writeString(
          file,
          mine("{\"3g.20gb\": 2}") + "  extra:\n    - devices: all\n      mig-enabled: false\n");
      awaitLayout(migd, HALVES, base, "\"generation\":2");
      assertThat(get(base + "/api/v1/configs").body())
          .as("the configs as the file is now")
          .contains("\"extra\"");

      Files.writeString(file, mine("{\"2g.10gb\": 3}").replace("mig-enabled", "mig-enabld"));
      // infeasible: the Node's nvidia.com/mig.config.state shows it as failed
      String failed =
          await()
              .atMost(PATIENCE)
              .ignoreExceptions()
              .until(
                  () -> get(base + "/actuator/health").body(),
                  b -> b.contains("\"state\":\"infeasible\""));
      // JSON-escaped quotes
      assertThat(failed)
          .contains("configs.yaml: config \\\"mine\\\"")
          .contains("unknown key \\\"mig-enabld\\\" (line 5)");
      var configs = get(base + "/api/v1/configs");
      assertThat(configs.statusCode()).as(configs.body()).isEqualTo(503);
      assertThat(configs.body()).contains("unknown key \\\"mig-enabld\\\" (line 5)");
      assertThat(layouts(migd)).containsExactly(HALVES);
      assertThat(migd.stateDir().resolve(LiveConfigFile.LAST_VALID)).content().contains("3g.20gb");

      Files.writeString(file, mine("{\"2g.10gb\": 3}"));
      awaitLayout(migd, QUARTERS, base, "\"generation\":3");
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }
  }

  @Test
  void aConfigMapVolumeSwapReshapes() throws Exception {
    Path volume = dir.resolve("volume");
    swapIn(volume, "..2026_11_26_01", mine("{\"7g.40gb\": 1}"));
    Files.createSymbolicLink(volume.resolve("configs.yaml"), Path.of("..data/configs.yaml"));
    var migd = migd(volume.resolve("configs.yaml"));
    try (var daemon = migd.start("serve", "--simulate=" + MODEL)) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      awaitLayout(migd, WHOLE, base, "\"generation\":1");

      swapIn(volume, "..2026_11_26_02", mine("{\"3g.20gb\": 2}"));
      awaitLayout(migd, HALVES, base, "\"generation\":2");
    }
  }

  @Test
  void aRestIntentIsNotReplacedByAnEdit() throws Exception {
    Path file = dir.resolve("configs.yaml");
    Files.writeString(file, mine("{\"7g.40gb\": 1}"));
    var migd = migd(file);
    try (var daemon = migd.start("serve", "--simulate=" + MODEL)) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      awaitLayout(migd, WHOLE, base, "\"generation\":1");
      var put =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/api/v1/layout"))
                  .header("Content-Type", "application/json")
                  .PUT(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,"
                              + "\"migDevices\":{\"3g.20gb\":2}}]}"))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isEqualTo(202);
      awaitLayout(migd, HALVES, base, "\"generation\":2");

      Files.writeString(file, mine("{\"2g.10gb\": 3}"));
      // the edit is read once two polls agree; the state dir's copy of the file shows it was
      awaitEditRead(migd, "2g.10gb");
      awaitLayout(migd, HALVES, base, "\"generation\":2");
      assertThat(migd.stateDir().resolve("intent.json")).content().contains("\"REST\"");
    }
  }

  @Test
  void aRestIntentNamingAConfigKeepsItsContentThroughEdits() throws Exception {
    Path file = dir.resolve("configs.yaml");
    String rest =
        """
          rest:
            - devices: all
              mig-enabled: true
              mig-devices: %s
        """;
    Files.writeString(file, mine("{\"7g.40gb\": 1}") + rest.formatted("{\"3g.20gb\": 2}"));
    var migd = migd(file);
    try (var daemon = migd.start("serve", "--simulate=" + MODEL)) {
      int port = daemon.httpPort();
      String base = "http://127.0.0.1:" + port;
      awaitLayout(migd, WHOLE, base, "\"generation\":1");
      var put =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/api/v1/layout"))
                  .header("Content-Type", "application/json")
                  .PUT(HttpRequest.BodyPublishers.ofString("{\"config\":\"rest\"}"))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isEqualTo(202);
      awaitLayout(migd, HALVES, base, "\"generation\":2");

      // the edit triggers a reconcile: once one more ran, the GPUs are what they will stay
      double before = ReconcileCount.of(port);
      Files.writeString(file, mine("{\"7g.40gb\": 1}") + rest.formatted("{\"2g.10gb\": 3}"));
      awaitEditRead(migd, "2g.10gb");
      await().atMost(PATIENCE).until(() -> ReconcileCount.of(port) > before);
      awaitLayout(migd, HALVES, base, "\"generation\":2");

      double valid = ReconcileCount.of(port);
      Files.writeString(file, mine("{\"7g.40gb\": 1}").replace("mig-enabled", "mig-enabld"));
      await().atMost(PATIENCE).until(() -> daemon.stdout().contains("unknown key \"mig-enabld\""));
      await().atMost(PATIENCE).until(() -> ReconcileCount.of(port) > valid);
      awaitLayout(migd, HALVES, base, "\"generation\":2");
    }
  }

  /** Waits until migd acted on an edit holding {@code text}: its copy of the file shows it. */
  private static void awaitEditRead(MigdProcess migd, String text) {
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(migd.stateDir().resolve(LiveConfigFile.LAST_VALID))
                    .content()
                    .contains(text));
  }

  /** Writes a new timestamped directory and swaps {@code ..data} to it, as the kubelet does. */
  private static void swapIn(Path volume, String timestamped, String content) throws IOException {
    Files.createDirectories(volume.resolve(timestamped));
    Files.writeString(volume.resolve(timestamped).resolve("configs.yaml"), content);
    Path tmp = volume.resolve("..data_tmp");
    Files.createSymbolicLink(tmp, Path.of(timestamped));
    Files.move(tmp, volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
  }

  private void awaitLayout(MigdProcess migd, GpuLayout layout, String base, String generation) {
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              assertThat(layouts(migd)).containsExactly(layout);
              assertThat(get(base + "/actuator/health").body())
                  .contains("\"state\":\"success\"")
                  .contains(generation);
            });
  }

  private List<GpuLayout> layouts(MigdProcess migd) {
    return NvmlSimCommand.extract(dir.resolve("sim")).layouts(migd.stateFile());
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
