package io.migd.cli;

import io.migd.api.rest.GpuDecision;
import io.migd.api.rest.GpuStatus;
import io.migd.api.rest.LayoutStatus;
import io.migd.app.MigdProperties;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code migd status} from a running daemon: {@code GET /api/v1/gpus} for the GPUs, {@code GET
 * /api/v1/layout} for each GPU's state, and the memory in use per GPU instance from the metrics the
 * daemon exports ({@code migd_slice_memory_used_bytes}), which the REST records do not carry.
 */
final class DaemonStatus {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(15);
  private static final JsonMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  private static final Pattern SLICE_MEMORY =
      Pattern.compile(
          "^migd_slice_memory_used_bytes\\{(?=[^}]*\\bgpu=\"(\\d+)\")(?=[^}]*\\bgpu_instance=\"(\\d+)\")[^}]*}"
              + " ([-+0-9.eE]+)");

  /** No daemon answered at the URL: why, for the line naming the source. */
  static final class NotAnsweringException extends Exception {
    NotAnsweringException(String message) {
      super(message);
    }
  }

  private final URI base;
  private final Optional<String> token;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();

  private DaemonStatus(URI base, Optional<String> token) {
    this.base = base;
    this.token = token;
  }

  /** A client of the daemon at {@code url}, with the token of {@code migd.auth.token-file}. */
  static DaemonStatus at(String url, MigdProperties properties) {
    String root = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    return new DaemonStatus(URI.create(root), token(properties.auth().tokenFile()));
  }

  private static Optional<String> token(String tokenFile) {
    if (tokenFile.isBlank()) {
      return Optional.empty();
    }
    try {
      String token = Files.readString(Path.of(tokenFile), StandardCharsets.UTF_8).strip();
      return token.isEmpty() ? Optional.empty() : Optional.of(token);
    } catch (IOException e) {
      throw new EnvironmentException(
          "cannot read migd.auth.token-file " + tokenFile + ": " + e.getMessage(), e);
    }
  }

  /** The node as the daemon has it; throws {@link NotAnsweringException} when none answers. */
  NodeStatus read() throws NotAnsweringException {
    List<GpuStatus> gpus =
        JSON.readValue(body("/api/v1/gpus"), new TypeReference<List<GpuStatus>>() {});
    LayoutStatus layout = JSON.readValue(body("/api/v1/layout"), LayoutStatus.class);
    var states = new HashMap<Integer, GpuDecision>();
    layout.decisions().forEach(d -> states.put(d.gpu(), d));
    return new NodeStatus(
        "source: the migd daemon at " + base + " (node " + layout.state() + ")",
        gpus,
        states,
        memoryUsed());
  }

  /** Best effort: without the metrics endpoint the column shows {@code -}. */
  private Map<NodeStatus.GpuInstanceKey, Long> memoryUsed() {
    var used = new HashMap<NodeStatus.GpuInstanceKey, Long>();
    HttpResponse<String> metrics;
    try {
      metrics = send("/actuator/prometheus");
    } catch (NotAnsweringException e) {
      return used;
    }
    if (metrics.statusCode() != 200) {
      return used;
    }
    for (String line : metrics.body().split("\n")) {
      var m = SLICE_MEMORY.matcher(line);
      if (m.find()) {
        used.put(
            new NodeStatus.GpuInstanceKey(
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))),
            (long) Double.parseDouble(m.group(3)));
      }
    }
    return used;
  }

  private String body(String path) throws NotAnsweringException {
    HttpResponse<String> response = send(path);
    int status = response.statusCode();
    if (status == 401 || status == 403) {
      throw new EnvironmentException(
          "the migd daemon at "
              + base
              + " refused GET "
              + path
              + " ("
              + status
              + ": "
              + detail(response)
              + "); give its token with --migd.auth.token-file=FILE",
          null);
    }
    if (status != 200) {
      throw new DaemonRefusedException(
          "the migd daemon at "
              + base
              + " answered GET "
              + path
              + " with "
              + status
              + ": "
              + detail(response));
    }
    return response.body();
  }

  private static String detail(HttpResponse<String> response) {
    try {
      var detail = JSON.readTree(response.body()).path("detail").asString("");
      return detail.isEmpty() ? response.body().strip() : detail;
    } catch (RuntimeException e) {
      return response.body().strip();
    }
  }

  private HttpResponse<String> send(String path) throws NotAnsweringException {
    var request = HttpRequest.newBuilder(base.resolve(path)).timeout(ANSWER_TIMEOUT).GET();
    token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException | HttpConnectTimeoutException e) {
      throw new NotAnsweringException(
          "no daemon answered at " + base + ": " + (e.getMessage() == null ? e : e.getMessage()));
    } catch (IOException e) {
      throw new NotAnsweringException("no daemon answered at " + base + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NotAnsweringException("interrupted while asking the daemon at " + base);
    }
  }

  /** The daemon answered, with an error (a GPU reset holding NVML is 503): exit 1. */
  static final class DaemonRefusedException extends RuntimeException {
    DaemonRefusedException(String message) {
      super(message);
    }
  }
}
