package io.migd.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.migd.cli.MigdProcess;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OpenAPI document and the Swagger UI of a daemon that authenticates its API (token mode): the
 * document is the checked-in {@code api/openapi.json}, the Swagger UI lists each of its operations,
 * and neither (nor the kubelet's probes) needs a token while {@code /api/v1} and the rest of
 * actuator (the metrics) do.
 */
class ApiDocsIT {
  /** With {@code -Dmigd.openapi.write=true} the test writes the document instead of comparing. */
  private static final boolean WRITE = Boolean.getBoolean("migd.openapi.write");

  private static final Path CHECKED_IN =
      Path.of(System.getProperty("basedir", "."))
          .toAbsolutePath()
          .resolve("../api/openapi.json")
          .normalize();
  private static final JsonMapper CANONICAL =
      JsonMapper.builder()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .build();
  private static final Set<String> METHODS =
      Set.of("get", "put", "post", "delete", "patch", "head", "options", "trace");

  @TempDir static Path nodeDir;
  private static MigdProcess.Running daemon;
  private static ApiCalls api;

  @BeforeAll
  static void start() throws IOException {
    Path tokenFile = Files.writeString(nodeDir.resolve("token"), "docs-token");
    daemon =
        MigdProcess.on(nodeDir.resolve("node"))
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_AUTH_MODE", "token")
            .withEnvironment("MIGD_AUTH_TOKENFILE", tokenFile.toString())
            .start("serve", "--simulate=A100-SXM4-40GB");
    api = ApiCalls.ready(daemon);
  }

  @AfterAll
  static void stop() {
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void theDocumentIsTheCheckedInOne() throws IOException {
    var response = api.get("/v3/api-docs", null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    String served = canonical(response.body());
    if (WRITE) {
      Files.writeString(CHECKED_IN, served, StandardCharsets.UTF_8);
      System.err.println("ApiDocsIT: wrote " + CHECKED_IN);
    }
    assertThat(CHECKED_IN).exists();
    assertThat(served)
        .as(
            "the OpenAPI document the daemon serves differs from %s; if the change is intended,"
                + " regenerate the file with: ./mvnw -B -ntp -pl daemon -am verify -Dtest=ApiDocsIT"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dmigd.openapi.write=true",
            CHECKED_IN)
        .isEqualTo(Files.readString(CHECKED_IN, StandardCharsets.UTF_8));
  }

  @Test
  void theDocumentDescribesOnlyApiV1AndTheBearerScheme() {
    JsonNode document = CANONICAL.readTree(api.get("/v3/api-docs", null).body());
    assertThat(document.path("openapi").asString()).startsWith("3.1");
    assertThat(document.path("info").path("title").asString()).isEqualTo("migd REST API");
    assertThat(document.path("info").path("version").asString()).isNotBlank();
    assertThat(document.path("info").path("description").asString()).isNotBlank();
    JsonNode bearer = document.path("components").path("securitySchemes").path("bearer");
    assertThat(bearer.path("type").asString()).isEqualTo("http");
    assertThat(bearer.path("scheme").asString()).isEqualTo("bearer");
    assertThat(document.path("security").toString()).contains("\"bearer\"");
    assertThat(document.path("paths").propertyNames()).allMatch(path -> path.startsWith("/api/v1"));
    JsonNode paths = document.path("paths");
    assertThat(paths.path("/api/v1/gpus").has("get")).isTrue();
    assertThat(paths.path("/api/v1/configs").has("get")).isTrue();
    assertThat(paths.path("/api/v1/layout").has("get")).isTrue();
    JsonNode put = paths.path("/api/v1/layout").path("put");
    assertThat(put.path("requestBody").toString()).contains("LayoutRequest");
    assertThat(put.path("responses").propertyNames())
        .contains("200", "202", "400", "412", "413", "415", "422");
  }

  @Test
  void theDocsTheUiAndTheProbesNeedNoTokenWhileTheApiAndTheMetricsDo() {
    assertThat(api.get("/v3/api-docs", null).statusCode()).isEqualTo(200);
    assertThat(api.get("/swagger-ui/index.html", null).statusCode()).isEqualTo(200);
    assertThat(api.get("/actuator/health/liveness", null).statusCode()).isEqualTo(200);
    assertThat(api.get("/actuator/health/readiness", null).statusCode()).isEqualTo(200);
    for (String path :
        List.of("/api/v1/gpus", "/actuator/prometheus", "/actuator/health", "/actuator")) {
      ApiCalls.assertProblem(api.get(path, null), 401, path);
      ApiCalls.assertProblem(api.get(path, "other-token"), 401, path);
      assertThat(api.get(path, "docs-token").statusCode()).as(path).isEqualTo(200);
    }
    assertThat(api.get("/actuator/prometheus", "docs-token").body()).contains("migd_gpu_info");
  }

  @Test
  void apiAndSwaggerUiLeadToTheSwaggerUi() {
    for (String path : List.of("/api", "/swagger-ui", "/swagger-ui.html")) {
      var response = api.get(path, null);
      assertThat(response.statusCode()).as(path).isEqualTo(302);
      assertThat(response.headers().firstValue("Location"))
          .as(path)
          .hasValueSatisfying(to -> assertThat(to).endsWith("/swagger-ui/index.html"));
    }
  }

  @Test
  void theSwaggerUiListsEveryOperationOfTheCheckedInDocument() throws Exception {
    Optional<Path> chromium = onPath("chromium");
    if (chromium.isEmpty()) {
      System.err.println("ApiDocsIT: chromium is not installed; the Swagger UI check is skipped");
    }
    assumeTrue(
        chromium.isPresent(),
        "chromium is not installed (apt-get install chromium); the Swagger UI check is skipped");
    JsonNode document = CANONICAL.readTree(Files.readString(CHECKED_IN, StandardCharsets.UTF_8));
    var expected = new ArrayList<String>();
    for (var path : document.path("paths").properties()) {
      for (String method : path.getValue().propertyNames()) {
        if (METHODS.contains(method)) {
          expected.add(method + " " + path.getKey());
        }
      }
    }

    String dom = dumpDom(chromium.get(), api.base() + "/swagger-ui/index.html");

    assertThat(dom)
        .as("the Swagger UI rendered the document")
        .contains(document.path("info").path("title").asString());
    var listed = new ArrayList<String>();
    String[] blocks = dom.split("<div class=\"opblock opblock-");
    for (String block : List.of(blocks).subList(1, blocks.length)) {
      int path = block.indexOf("data-path=\"");
      if (path >= 0) {
        listed.add(
            block.substring(0, block.indexOf('"'))
                + " "
                + block.substring(path + 11, block.indexOf('"', path + 11)));
      }
    }
    assertThat(listed).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static String canonical(String json) {
    Map<String, Object> tree = CANONICAL.readValue(json, new TypeReference<>() {});
    return CANONICAL.writeValueAsString(tree) + "\n";
  }

  private static Optional<Path> onPath(String program) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .map(dir -> Path.of(dir, program))
        .filter(Files::isExecutable)
        .findFirst();
  }

  private static String dumpDom(Path chromium, String url) throws Exception {
    Path profile = Files.createTempDirectory(nodeDir, "chromium-");
    Path out = nodeDir.resolve("dom.html");
    Path err = nodeDir.resolve("chromium.err");
    var process =
        new ProcessBuilder(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--virtual-time-budget=10000",
                "--dump-dom",
                url)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      throw new AssertionError("chromium did not end within 120 s: " + Files.readString(err));
    }
    assertThat(process.exitValue()).as(Files.readString(err)).isZero();
    return Files.readString(out, StandardCharsets.UTF_8);
  }
}
