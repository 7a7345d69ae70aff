package io.migd.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** HTTP calls to one daemon on 127.0.0.1, with or without a bearer token; no redirects followed. */
record ApiCalls(String base) {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  /**
   * Waits until the daemon (started with {@code SERVER_PORT=0}) listens and answers 200 on its
   * readiness probe.
   */
  static ApiCalls ready(MigdProcess.Running daemon) {
    var calls = new ApiCalls("http://127.0.0.1:" + daemon.httpPort());
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .failFast("migd ended", () -> !daemon.isAlive())
        .until(() -> calls.get("/actuator/health/readiness", null).statusCode() == 200);
    return calls;
  }

  HttpResponse<String> get(String path, String token) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), token);
  }

  HttpResponse<String> put(String path, String token, String json) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(json)),
        token);
  }

  private static HttpResponse<String> send(HttpRequest.Builder request, String token) {
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    try {
      return HTTP.send(
          request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Asserts an RFC 9457 problem detail with {@code status} for {@code path}, and returns its
   * detail.
   */
  static String assertProblem(HttpResponse<String> response, int status, String path) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    JsonNode problem = JsonMapper.shared().readTree(response.body());
    assertThat(problem.path("type").asString()).isEqualTo("about:blank");
    assertThat(problem.path("title").asString()).isNotBlank();
    assertThat(problem.path("status").asInt()).isEqualTo(status);
    assertThat(problem.path("instance").asString()).isEqualTo(path);
    assertThat(problem.path("detail").asString()).isNotBlank();
    return problem.path("detail").asString();
  }
}
