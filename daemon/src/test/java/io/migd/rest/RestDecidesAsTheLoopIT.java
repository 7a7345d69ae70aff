package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code PUT /api/v1/layout} and {@code GET /api/v1/configs} decide as the reconcile loop does,
 * with NVML's profiles first (DESIGN section 2), over real HTTP against {@code migd serve
 * --simulate} on two GPUs whose driver disagrees with migd's built-in catalogue ({@code
 * driver-models.tsv}): GPU 0 is an A100-SXM4-40GB whose driver offers no {@code 1g.10gb}, GPU 1 a
 * MIG model (Z100) the catalogue lacks. The daemon starts on a config asking one {@code 1g.10gb} of
 * every GPU, so the loop decides both GPUs first; REST must then say the same.
 */
class RestDecidesAsTheLoopIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String NODE = "--simulate=A100-40GB-OTHER-DRIVER,Z100";
  private static final String CONFIGS =
      """
      version: v1
      mig-configs:
        one-1g.10gb:
          - devices: all
            mig-enabled: true
            mig-devices:
              "1g.10gb": 1
      """;

  @TempDir static Path dir;

  private static final HttpClient http = HttpClient.newHttpClient();
  private static MigdProcess.Running daemon;
  private static String base;

  /** The loop's decisions for the starting config, one per GPU, from the first reconcile. */
  private static JsonNode loopDecisions;

  @BeforeAll
  static void startDaemonAndLetTheLoopDecide() throws IOException {
    Path models = dir.resolve("driver-models.tsv");
    try (InputStream data = RestDecidesAsTheLoopIT.class.getResourceAsStream("driver-models.tsv")) {
      Files.write(models, data.readAllBytes());
    }
    Path configFile = Files.writeString(dir.resolve("configs.yaml"), CONFIGS);
    var migd =
        MigdProcess.on(dir.resolve("node"))
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_CONFIGFILE", configFile.toString())
            .withEnvironment("MIGD_CONFIG", "one-1g.10gb")
            .withEnvironment("NVML_SIM_MODELS", models.toString());
    daemon = migd.start("serve", NODE);
    base = "http://127.0.0.1:" + daemon.httpPort() + "/api/v1";
    JsonNode settled =
        await()
            .atMost(PATIENCE)
            .ignoreExceptions()
            .until(
                () -> JSON.readTree(get("/layout").body()),
                l ->
                    l.path("decisions").size() == 2
                        && l.path("decisions").get(1).path("state").asString().equals("success"));
    loopDecisions = settled.path("decisions");
  }

  @AfterAll
  static void stopDaemon() {
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void refusesAProfileTheDriverLacksThoughTheCatalogueHasIt() throws Exception {
    JsonNode loop = loopDecisions.get(0);
    assertThat(loop.path("decision").asString()).as(loop.toString()).isEqualTo("infeasible");
    assertThat(loop.path("reason").asString()).contains("1g.10gb");

    var put = put("/layout", "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.10gb\":1}}]}");
    var dryRun =
        put("/layout?dryRun=true", "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.10gb\":1}}]}");
    JsonNode config = config("one-1g.10gb");

    assertThat(put.statusCode()).as(put.body()).isEqualTo(422);
    assertThat(JSON.readTree(put.body()).path("detail").asString())
        .isEqualTo(loop.path("reason").asString());
    JsonNode planned = JSON.readTree(dryRun.body()).path("decisions").get(0);
    assertThat(planned.path("decision").asString()).isEqualTo("infeasible");
    assertThat(planned.path("reason").asString()).isEqualTo(loop.path("reason").asString());
    assertThat(config.path("decisions").get(0).path("decision").asString()).isEqualTo("infeasible");
    assertThat(config.path("decisions").get(0).path("reason").asString())
        .isEqualTo(loop.path("reason").asString());
  }

  @Test
  void acceptsAMigModelTheCatalogueLacksAsTheLoopApplies() throws Exception {
    JsonNode loop = loopDecisions.get(1);
    assertThat(loop.path("state").asString()).as(loop.toString()).isEqualTo("success");
    assertThat(config("one-1g.10gb").path("decisions").get(1).path("decision").asString())
        .isEqualTo("inSync");

    var accepted = put("/layout", "{\"gpus\":[{\"gpu\":1,\"migDevices\":{\"1g.10gb\":2}}]}");

    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
    JsonNode body = JSON.readTree(accepted.body());
    long generation = body.path("generation").asLong();
    assertThat(body.path("decisions").get(1).path("decision").asString()).isEqualTo("change");
    assertThat(body.path("plan").path("steps").valueStream())
        .anySatisfy(
            step -> {
              assertThat(step.path("gpu").asInt()).isEqualTo(1);
              assertThat(step.path("action").asString()).isEqualTo("createGpuInstance");
              assertThat(step.path("profile").asString()).isEqualTo("1g.10gb");
            });
    JsonNode after =
        await()
            .atMost(PATIENCE)
            .until(
                () -> JSON.readTree(get("/layout").body()),
                l ->
                    l.path("outcome").path("generation").asLong() == generation
                        && !l.path("state").asString().equals("applying"));
    assertThat(after.path("state").asString()).as(after.toString()).isEqualTo("success");
    var profiles =
        JSON.readTree(get("/gpus").body())
            .get(1)
            .path("slices")
            .valueStream()
            .map(s -> s.path("profile").asString())
            .toList();
    assertThat(profiles).containsExactly("1g.10gb", "1g.10gb");
  }

  private static JsonNode config(String name) throws Exception {
    var answer = get("/configs");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body())
        .valueStream()
        .filter(c -> c.path("name").asString().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> put(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30))
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
