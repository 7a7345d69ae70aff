package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import io.migd.cli.NvmlSimCommand;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v1} of {@code migd serve} on a simulated A100 and T4, over real HTTP: reshapes by
 * config name and by explicit layout (checked through the simulator and {@code migd assert}), the
 * step in flight and each step's duration, dry runs that change nothing and answer what {@code migd
 * plan -o json} prints, If-Match, and a problem detail for every kind of bad request, none of which
 * touches the GPUs.
 */
class LayoutApiIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String NODE = "--simulate=A100-SXM4-40GB,T4";

  @TempDir static Path dir;

  private static final HttpClient http = HttpClient.newHttpClient();
  private static MigdProcess migd;
  private static MigdProcess.Running daemon;
  private static NvmlSimCommand nvmlSim;
  private static String base;

  @BeforeAll
  static void startDaemon() throws IOException {
    migd =
        MigdProcess.on(dir.resolve("node"))
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_CONFIG", "all-balanced")
            // every state-changing NVML call takes 150 ms, so a reshape lasts long enough to be
            // seen in flight
            .withEnvironment("NVML_SIM_LATENCY_MS", "150")
            // no -mps supervisor runs here: a layout sharing by MPS waits for its daemons briefly
            .withEnvironment("MIGD_MPS_STARTTIMEOUT", "2s");
    daemon = migd.start("serve", NODE);
    int port = daemon.httpPort();
    base = "http://127.0.0.1:" + port + "/api/v1";
    String ready = "http://127.0.0.1:" + port + "/actuator/health/readiness";
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .until(() -> send(HttpRequest.newBuilder(URI.create(ready))).statusCode(), s -> s == 200);
    nvmlSim = NvmlSimCommand.extract(dir.resolve("sim"));
  }

  @AfterAll
  static void stopDaemon() {
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void reshapesByConfigNameShowingTheStepInFlightThenEachStepsDuration() throws Exception {
    long generation = settled();

    var accepted =
        put("/layout", "{\"config\":\"all-1g.5gb\"}", "\"" + generation + "\"", "application/json");

    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
    assertThat(accepted.headers().firstValue("ETag")).hasValue("\"" + (generation + 1) + "\"");
    JsonNode body = JSON.readTree(accepted.body());
    assertThat(body.path("generation").asLong()).isEqualTo(generation + 1);
    assertThat(actions(body.path("plan").path("steps")))
        .contains("0 createGpuInstance 1g.5gb")
        .doesNotContain("1 createGpuInstance 1g.5gb");

    JsonNode during =
        await()
            .atMost(PATIENCE)
            .pollInterval(Duration.ofMillis(20))
            .until(() -> layout(), l -> !l.path("inFlight").isEmpty());
    assertThat(during.path("state").asString()).isEqualTo("applying");
    assertThat(during.path("inFlight")).hasSize(1);
    assertThat(during.path("inFlight").get(0).path("gpu").asInt()).isZero();
    assertThat(during.path("inFlight").get(0).path("action").asString()).isNotBlank();

    JsonNode after =
        await()
            .atMost(PATIENCE)
            .until(
                () -> layout(),
                l ->
                    l.path("outcome").path("generation").asLong() == generation + 1
                        && l.path("state").asString().equals("success"));
    assertThat(after.path("desired").path("source").asString()).isEqualTo("rest");
    assertThat(after.path("desired").path("config").asString()).isEqualTo("all-1g.5gb");
    assertThat(after.path("inFlight")).isEmpty();
    JsonNode steps = after.path("plan").path("steps");
    assertThat(steps).isNotEmpty();
    for (JsonNode step : steps) {
      assertThat(step.has("durationMs")).as(step.toString()).isTrue();
    }
    assertThat(after.path("plan").path("durationMs").asLong())
        .isGreaterThanOrEqualTo(steps.get(0).path("durationMs").asLong());
    assertThat(migd.run("assert", "-c", "all-1g.5gb", NODE).exitStatus()).isZero();
  }

  @Test
  void reshapesByExplicitLayout() throws Exception {
    settled();
    String layout =
        "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}},"
            + "{\"gpu\":1,\"timeSlicing\":{\"replicas\":4}}]}";

    var accepted = put("/layout", layout, null, "application/json");

    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
    long generation = JSON.readTree(accepted.body()).path("generation").asLong();
    JsonNode after =
        await()
            .atMost(PATIENCE)
            .until(
                () -> layout(),
                l ->
                    l.path("outcome").path("generation").asLong() == generation
                        && l.path("state").asString().equals("success"));
    assertThat(
            after.path("desired").path("gpus").get(1).path("timeSlicing").path("replicas").asInt())
        .isEqualTo(4);
    assertThat(nvmlSim.layouts(migd.stateFile()).get(0).instances())
        .containsExactly("3g.20gb[3g.20gb]", "3g.20gb[3g.20gb]");
    JsonNode gpus = JSON.readTree(get("/gpus").body());
    assertThat(gpus).hasSize(2);
    var profiles = new ArrayList<String>();
    gpus.get(0).path("slices").forEach(s -> profiles.add(s.path("profile").asString()));
    assertThat(profiles).containsExactly("3g.20gb", "3g.20gb");
    assertThat(gpus.get(0).path("migMode").path("current").asBoolean()).isTrue();
    assertThat(gpus.get(0).path("slices").get(0).path("uuid").asString()).startsWith("MIG-");
    assertThat(gpus.get(1).path("migCapable").asBoolean()).isFalse();
    assertThat(gpus.get(1).path("replicas").asInt()).isEqualTo(4);
  }

  @Test
  void dryRunAnswersThePlanAndChangesNothing() throws Exception {
    long generation = settled();
    byte[] gpusBefore = Files.readAllBytes(migd.stateFile());
    String intentBefore = Files.readString(migd.stateDir().resolve("intent.json"));

    var fits = put("/layout?dryRun=true", "{\"config\":\"all-7g.40gb\"}", null, "application/json");
    var tooMany =
        put(
            "/layout?dryRun=true",
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"3g.20gb\":3}}]}",
            null,
            "application/json");

    assertThat(fits.statusCode()).as(fits.body()).isEqualTo(200);
    JsonNode plan = JSON.readTree(fits.body());
    assertThat(plan.propertyNames()).containsExactlyInAnyOrder("plan", "decisions");
    assertThat(actions(plan.path("plan").path("steps"))).contains("0 createGpuInstance 7g.40gb");
    JsonNode create =
        plan.path("plan")
            .path("steps")
            .valueStream()
            .filter(s -> s.path("action").asString().equals("createGpuInstance"))
            .findFirst()
            .orElseThrow();
    assertThat(create.path("placement").path("start").asInt()).isZero();
    assertThat(create.path("placement").path("size").asInt()).isEqualTo(8);
    assertThat(create.has("gpuInstanceId")).isFalse();
    assertThat(decision(plan, 0).path("decision").asString()).isEqualTo("change");
    assertThat(decision(plan, 1).path("decision").asString()).isEqualTo("unmanaged");

    assertThat(tooMany.statusCode()).as(tooMany.body()).isEqualTo(200);
    JsonNode infeasible = decision(JSON.readTree(tooMany.body()), 0);
    assertThat(infeasible.path("decision").asString()).isEqualTo("infeasible");
    assertThat(infeasible.path("reason").asString()).contains("GPU 0").contains("3g.20gb");

    var cli = migd.run("plan", "-c", "all-7g.40gb", "-o", "json", NODE);
    assertThat(JSON.readTree(cli.stdout())).as("%s", cli).isEqualTo(plan);

    assertThat(Files.readAllBytes(migd.stateFile())).isEqualTo(gpusBefore);
    assertThat(migd.stateDir().resolve("intent.json")).hasContent(intentBefore);
    assertThat(etag(get("/layout"))).isEqualTo(generation);
  }

  @Test
  void staleIfMatchIs412NamingTheCurrentGeneration() throws Exception {
    long generation = settled();

    var quoted =
        put(
            "/layout",
            "{\"config\":\"all-disabled\"}",
            "\"" + (generation - 1) + "\"",
            "application/json");
    var bare =
        put(
            "/layout",
            "{\"config\":\"all-disabled\"}",
            Long.toString(generation + 5),
            "application/json");

    for (var answer : List.of(quoted, bare)) {
      assertProblem(answer, 412, "the current generation is " + generation);
    }
    assertThat(etag(get("/layout"))).isEqualTo(generation);
  }

  /** A bad request: how it is sent and what the problem detail must say. */
  record Case(String name, String contentType, String body, int status, String detail) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> badRequests() {
    String json = "application/json";
    return Stream.of(
        new Case("malformed JSON", json, "{\"config\":", 400, "malformed request body"),
        new Case("trailing garbage", json, "{\"config\":\"all-balanced\"} x", 400, "malformed"),
        new Case("wrong type", json, "{\"config\":5}", 400, "(at config)"),
        new Case("string for an int", json, "{\"gpus\":[{\"gpu\":\"0\"}]}", 400, "gpus[0].gpu"),
        new Case("fraction for an int", json, "{\"gpus\":[{\"gpu\":0.5}]}", 400, "gpus[0].gpu"),
        new Case("1e400", json, "{\"gpus\":[{\"gpu\":1e400}]}", 400, "gpus[0].gpu"),
        new Case("99999999999", json, "{\"gpus\":[{\"gpu\":99999999999}]}", 400, "out of range"),
        new Case("unknown field", json, "{\"confg\":\"all-balanced\"}", 400, "\"confg\""),
        new Case(
            "duplicate key",
            json,
            "{\"config\":\"all-balanced\",\"config\":\"all-disabled\"}",
            400,
            "Duplicate"),
        new Case("null body", json, "null", 400, "null"),
        new Case("empty body", json, "", 400, "empty"),
        new Case("both", json, "{\"config\":\"all-balanced\",\"gpus\":[]}", 400, "exactly one"),
        new Case("oversized", json, " ".repeat(70_000) + "{}", 413, "65536 bytes"),
        new Case("not JSON", "text/plain", "{\"config\":\"all-balanced\"}", 415, "text/plain"),
        new Case("unknown config", json, "{\"config\":\"all-9g.99gb\"}", 422, "all-9g.99gb"),
        new Case(
            "unknown profile",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"5g.99gb\":1}}]}",
            422,
            "GPU 0 (A100-SXM4-40GB): no GPU-instance profile 5g.99gb"),
        new Case(
            "bad profile name",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"huge\":1}}]}",
            422,
            "\"huge\""),
        new Case("GPU out of range", json, "{\"gpus\":[{\"gpu\":2}]}", 422, "GPU index 2"),
        new Case("negative GPU", json, "{\"gpus\":[{\"gpu\":-1}]}", 422, "GPU index -1"),
        new Case(
            "too many instances",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"3g.20gb\":3}}]}",
            422,
            "GPU 0 (A100-SXM4-40GB): 3 × 3g.20gb do not fit"),
        new Case(
            "huge count",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.5gb\":2147483647}}]}",
            422,
            "too many instances"),
        new Case(
            "MIG asked of a T4",
            json,
            "{\"gpus\":[{\"gpu\":1,\"migDevices\":{\"1g.5gb\":1}}]}",
            422,
            "GPU 1"),
        new Case(
            "replicas zero",
            json,
            "{\"gpus\":[{\"gpu\":1,\"timeSlicing\":{\"replicas\":0}}]}",
            422,
            "replicas"),
        new Case(
            "MPS replicas above 48",
            json,
            "{\"gpus\":[{\"gpu\":1,\"mps\":{\"replicas\":49}}]}",
            422,
            "GPU 1: \"mps.replicas\" must be between 1 and 48"),
        new Case(
            "time-slicing and MPS of one GPU",
            json,
            "{\"gpus\":[{\"gpu\":1,\"mps\":{\"replicas\":2},\"timeSlicing\":{\"replicas\":2}}]}",
            422,
            "GPU 1: \"timeSlicing\" and \"mps\" are both given"),
        new Case(
            "sharing a profile not asked for",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.5gb\":2},"
                + "\"sharing\":{\"3g.20gb\":{\"mps\":{\"replicas\":2}}}}]}",
            422,
            "GPU 0: \"sharing\" names profile 3g.20gb, which \"migDevices\" does not ask for"),
        new Case(
            "both kinds for one slice profile",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.5gb\":2},\"sharing\":{\"1g.5gb\":"
                + "{\"mps\":{\"replicas\":2},\"timeSlicing\":{\"replicas\":2}}}}]}",
            422,
            "GPU 0: \"sharing.1g.5gb\" must give exactly one of \"timeSlicing\" and \"mps\""),
        new Case(
            "zero replicas of a slice",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.5gb\":2},"
                + "\"sharing\":{\"1g.5gb\":{\"timeSlicing\":{\"replicas\":0}}}}]}",
            422,
            "GPU 0: \"sharing.1g.5gb.timeSlicing.replicas\" must be between 1 and"),
        new Case(
            "unknown key in slice sharing",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.5gb\":2},"
                + "\"sharing\":{\"1g.5gb\":{\"vgpu\":{\"replicas\":2}}}}]}",
            400,
            "vgpu"),
        new Case(
            "dynamic in device-plugin mode",
            json,
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true}]}",
            422,
            "GPU 0: dynamic needs migd.kubelet.mode=dra"),
        new Case(
            "dynamic with MIG devices",
            json,
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"migDevices\":{\"1g.5gb\":1}}]}",
            422,
            "GPU 0: \"dynamic\": true takes no \"migDevices\""),
        new Case(
            "shares in device-plugin mode",
            json,
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"shares\":true}]}",
            422,
            "GPU 0: shares need migd.kubelet.mode=dra"),
        new Case(
            "shares of static MIG slices",
            json,
            "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"shares\":true}]}",
            422,
            "GPU 0: \"shares\": true needs \"dynamic\": true or \"migEnabled\": false"),
        new Case(
            "all-dynamic in device-plugin mode",
            json,
            "{\"config\":\"all-dynamic\"}",
            422,
            "GPU 0: dynamic needs migd.kubelet.mode=dra"),
        new Case("GPU twice", json, "{\"gpus\":[{\"gpu\":1},{\"gpu\":1}]}", 422, "twice"),
        new Case("no GPUs", json, "{\"gpus\":[]}", 422, "empty"));
  }

  @Test
  void keepsTheSharingOfSlicesAndGpusAsGiven() throws Exception {
    settled();
    String layout =
        "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"3g.20gb\":1,\"1g.5gb\":4},\"sharing\":"
            + "{\"3g.20gb\":{\"mps\":{\"replicas\":2}},\"1g.5gb\":{\"timeSlicing\":"
            + "{\"replicas\":3}}}},{\"gpu\":1,\"mps\":{\"replicas\":4}}]}";

    var answer = put("/layout", layout, null, "application/json");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
    JsonNode gpus = layout().path("desired").path("gpus");
    assertThat(gpus.get(0).path("sharing").path("3g.20gb").path("mps").path("replicas").asInt())
        .isEqualTo(2);
    assertThat(
            gpus.get(0).path("sharing").path("1g.5gb").path("timeSlicing").path("replicas").asInt())
        .isEqualTo(3);
    assertThat(gpus.get(1).path("mps").path("replicas").asInt()).isEqualTo(4);
    assertThat(gpus.get(1).has("timeSlicing")).isFalse();
  }

  @ParameterizedTest
  @MethodSource("badRequests")
  void refusesBadRequestsWithAProblemDetailAndTouchesNothing(Case c) throws Exception {
    long generation = settled();
    byte[] gpusBefore = Files.readAllBytes(migd.stateFile());

    var answer = put("/layout", c.body(), null, c.contentType());

    assertProblem(answer, c.status(), c.detail());
    assertThat(Files.readAllBytes(migd.stateFile())).isEqualTo(gpusBefore);
    assertThat(etag(get("/layout"))).isEqualTo(generation);
  }

  @Test
  void answersUnknownPathsAndMethodsWithProblemDetails() throws Exception {
    assertProblem(get("/nope"), 404, "");
    assertProblem(
        send(HttpRequest.newBuilder(URI.create(base + "/layout")).DELETE()), 405, "DELETE");
    assertProblem(
        put("/layout?dryRun=maybe", "{\"config\":\"all-balanced\"}", null, "application/json"),
        400,
        "dryRun");
  }

  @Test
  void listsConfigsWithWhatEachMakesOfThisNode() throws Exception {
    var answer = get("/configs");

    assertThat(answer.statusCode()).isEqualTo(200);
    JsonNode configs = JSON.readTree(answer.body());
    JsonNode small = config(configs, "all-1g.5gb");
    assertThat(small.path("gpus")).hasSize(1);
    assertThat(small.path("gpus").get(0).path("migDevices").path("1g.5gb").asInt()).isEqualTo(7);
    JsonNode disabled = config(configs, "all-disabled");
    assertThat(disabled.path("gpus")).hasSize(2);
    assertThat(disabled.path("gpus").get(1).path("migEnabled").asBoolean()).isFalse();
    assertThat(disabled.path("decisions").get(1).path("decision").asString()).isEqualTo("inSync");
  }

  private static JsonNode config(JsonNode configs, String name) {
    return configs
        .valueStream()
        .filter(c -> c.path("name").asString().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static void assertProblem(HttpResponse<String> answer, int status, String detail) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
    assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    JsonNode problem = JSON.readTree(answer.body());
    assertThat(problem.propertyNames())
        .containsExactlyInAnyOrder("type", "title", "status", "detail", "instance");
    assertThat(problem.path("status").asInt()).isEqualTo(status);
    assertThat(problem.path("detail").asString()).contains(detail);
    assertThat(answer.body()).doesNotContain("at io.migd", "Exception", "java.lang");
  }

  /** Waits until no reconcile is pending or running; gives the generation. */
  private static long settled() {
    JsonNode layout =
        await()
            .atMost(PATIENCE)
            .until(
                LayoutApiIT::layout,
                l ->
                    !l.path("state").asString().equals("pending")
                        && !l.path("state").asString().equals("applying")
                        && l.path("outcome").path("generation").asLong()
                            == l.path("desired").path("generation").asLong());
    return layout.path("desired").path("generation").asLong();
  }

  private static JsonNode decision(JsonNode plan, int gpu) {
    return plan.path("decisions")
        .valueStream()
        .filter(d -> d.path("gpu").asInt() == gpu)
        .findFirst()
        .orElseThrow();
  }

  private static List<String> actions(JsonNode steps) {
    var actions = new ArrayList<String>();
    for (JsonNode step : steps) {
      actions.add(
          step.path("gpu").asInt()
              + " "
              + step.path("action").asString()
              + (step.has("profile") ? " " + step.path("profile").asString() : ""));
    }
    return actions;
  }

  private static JsonNode layout() throws IOException, InterruptedException {
    var answer = get("/layout");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode layout = JSON.readTree(answer.body());
    assertThat(etag(answer)).isEqualTo(layout.path("desired").path("generation").asLong());
    return layout;
  }

  private static long etag(HttpResponse<String> answer) {
    return Long.parseLong(answer.headers().firstValue("ETag").orElseThrow().replace("\"", ""));
  }

  private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  private static HttpResponse<String> put(
      String path, String body, String ifMatch, String contentType)
      throws IOException, InterruptedException {
    var request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", contentType)
            .PUT(HttpRequest.BodyPublishers.ofString(body));
    if (ifMatch != null) {
      request.header("If-Match", ifMatch);
    }
    return send(request);
  }

  private static HttpResponse<String> send(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return http.send(
        request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
