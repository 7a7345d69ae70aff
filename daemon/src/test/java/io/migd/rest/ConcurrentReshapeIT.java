package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fifty clients reshape the same node at once, each to another config. Every request is accepted
 * with a generation of its own, and the node ends on the config of the highest generation: {@code
 * migd assert} of that config against the same simulated GPUs exits 0, and of the runner-up does
 * not.
 */
class ConcurrentReshapeIT {
  private static final Duration PATIENCE = Duration.ofSeconds(120);
  private static final String MODELS = "--simulate=A100-SXM4-40GB,A100-SXM4-40GB";
  private static final int WRITERS = 50;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Layouts that fit an A100-SXM4-40GB, no two with the same profile counts. */
  private static final List<String> LAYOUTS =
      List.of(
          "\"1g.5gb\": 7",
          "\"2g.10gb\": 3",
          "\"3g.20gb\": 2",
          "\"7g.40gb\": 1",
          "\"4g.20gb\": 1",
          "\"1g.5gb\": 3\n          \"4g.20gb\": 1",
          "\"2g.10gb\": 2\n          \"3g.20gb\": 1",
          "\"1g.5gb\": 4\n          \"3g.20gb\": 1");

  @TempDir Path nodeDir;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void fiftyConcurrentWritersEndOnTheConfigOfTheHighestGeneration() throws Exception {
    Path configFile = Files.writeString(nodeDir.resolve("configs.yaml"), configs());
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_CONFIGFILE", configFile.toString())
            // every state-changing NVML call takes a while, so reconciles overlap the writers
            .withEnvironment("NVML_SIM_LATENCY_MS", "5");
    record Accepted(String config, long generation) {}
    var accepted = new ArrayList<Accepted>();
    try (var daemon = migd.start("serve", MODELS)) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/readiness").statusCode() == 200);

      var start = new CountDownLatch(1);
      var answers = new ArrayList<CompletableFuture<Accepted>>();
      try (var writers = Executors.newFixedThreadPool(WRITERS)) {
        for (int i = 0; i < WRITERS; i++) {
          String config = name(i);
          answers.add(
              CompletableFuture.supplyAsync(
                  () -> {
                    try {
                      start.await();
                      HttpResponse<String> response = put(base, config);
                      assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
                      return new Accepted(
                          config, JSON.readTree(response.body()).path("generation").asLong());
                    } catch (Exception e) {
                      throw new IllegalStateException(config, e);
                    }
                  },
                  writers));
        }
        start.countDown();
        answers.forEach(answer -> accepted.add(answer.join()));
      }
      var generations = new HashSet<Long>();
      accepted.forEach(a -> generations.add(a.generation()));
      assertThat(generations)
          .as("each accepted request has a generation of its own")
          .hasSize(WRITERS);
      accepted.sort(Comparator.comparingLong(Accepted::generation));
      Accepted newest = accepted.getLast();

      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                JsonNode layout = JSON.readTree(get(base + "/api/v1/layout").body());
                assertThat(layout.path("desired").path("generation").asLong())
                    .isEqualTo(newest.generation());
                assertThat(layout.path("desired").path("config").asString())
                    .isEqualTo(newest.config());
                assertThat(layout.path("state").asString()).isEqualTo("success");
              });
      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
    }

    var newestMatches =
        migd.run("assert", MODELS, "-f", configFile.toString(), "-c", accepted.getLast().config());
    assertThat(newestMatches.exitStatus()).as(newestMatches.toString()).isZero();
    var runnerUp =
        migd.run(
            "assert",
            MODELS,
            "-f",
            configFile.toString(),
            "-c",
            accepted.get(accepted.size() - 2).config());
    assertThat(runnerUp.exitStatus()).as(runnerUp.toString()).isEqualTo(1);
  }

  /** Config {@code c<i>}: GPU 0 and GPU 1 each get one of the layouts, a different pair per i. */
  private static String name(int i) {
    return "c" + i;
  }

  private static String configs() {
    var yaml = new StringBuilder("version: v1\nmig-configs:\n");
    for (int i = 0; i < WRITERS; i++) {
      yaml.append("  ").append(name(i)).append(":\n");
      yaml.append(item(0, LAYOUTS.get(i % LAYOUTS.size())));
      yaml.append(item(1, LAYOUTS.get((i / LAYOUTS.size() + i) % LAYOUTS.size())));
    }
    return yaml.toString();
  }

  private static String item(int gpu, String devices) {
    return "    - devices: ["
        + gpu
        + "]\n      mig-enabled: true\n      mig-devices:\n          "
        + devices
        + "\n";
  }

  private HttpResponse<String> put(String base, String config) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + "/api/v1/layout"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"config\":\"" + config + "\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
