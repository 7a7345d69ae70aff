package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Over a thousand generated hostile requests against {@code /api/v1} of a daemon on simulated GPUs:
 * malformed, truncated and mutated JSON, deep nesting, invalid UTF-8, wrong content types, unknown
 * fields, duplicate keys, huge numbers, wrong types, oversized bodies, names the node does not
 * have, wrong methods and paths. Every answer is a problem detail with the status the contract
 * gives that kind of input, none is a 5xx, none carries a stack trace, and afterwards the GPUs read
 * through NVML (by {@code migd export}) and the intent's generation are what they were.
 */
class HostileInputIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final long SEED = 20261124L;
  private static final int MIN_REQUESTS = 1_000;
  private static final String MODELS = "--simulate=A100-SXM4-40GB,A100-SXM4-40GB";
  private static final String CONFIGS =
      """
      version: v1
      mig-configs:
        balanced:
          - devices: all
            mig-enabled: true
            mig-devices:
              "1g.5gb": 2
              "2g.10gb": 1
              "3g.20gb": 1
        sevens:
          - devices: all
            mig-enabled: true
            mig-devices:
              "1g.5gb": 7
      """;
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String JSON_PUNCTUATION = "{}[]\":,0123456789-eE.";

  /** Valid bodies; each would change the GPUs (the daemon starts on {@code balanced}). */
  private static final List<String> VALID =
      List.of(
          "{\"config\":\"sevens\"}",
          "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}}]}",
          "{\"gpus\":[{\"gpu\":1,\"migEnabled\":true,\"migDevices\":{\"1g.5gb\":3,\"4g.20gb\":1}},"
              + "{\"gpu\":0,\"migEnabled\":false}]}");

  @TempDir Path nodeDir;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Random random = new Random(SEED);

  /** One generated request and the statuses the contract allows for it. */
  private record Hostile(
      String kind,
      String method,
      String path,
      String contentType,
      byte[] body,
      Set<Integer> allowed) {
    @Override
    public String toString() {
      String shown = new String(body, 0, Math.min(body.length, 160), StandardCharsets.UTF_8);
      return kind
          + ": "
          + method
          + " "
          + path
          + " ("
          + contentType
          + ", "
          + body.length
          + " bytes) "
          + shown;
    }
  }

  @Test
  void hostileRequestsGetProblemDetailsAndLeaveTheGpusAsTheyWere() throws Exception {
    Path configFile = Files.writeString(nodeDir.resolve("configs.yaml"), CONFIGS);
    var migd =
        MigdProcess.on(nodeDir)
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_CONFIGFILE", configFile.toString())
            .withEnvironment("MIGD_CONFIG", "balanced");
    try (var daemon = migd.start("serve", MODELS)) {
      String base = "http://127.0.0.1:" + daemon.httpPort();
      await()
          .atMost(PATIENCE)
          .ignoreExceptions()
          .until(() -> get(base + "/actuator/health/readiness").statusCode() == 200);
      String gpusBefore = export(migd);
      assertThat(gpusBefore).contains("1g.5gb").contains("3g.20gb");
      long generationBefore = generation(base);

      List<Hostile> requests = generate();
      assertThat(requests).hasSizeGreaterThanOrEqualTo(MIN_REQUESTS);
      var failures = new ArrayList<String>();
      // a few at a time: hostile input also arrives concurrently
      for (int from = 0; from < requests.size(); from += 8) {
        var batch = requests.subList(from, Math.min(from + 8, requests.size()));
        var answers = new ArrayList<CompletableFuture<HttpResponse<String>>>();
        for (Hostile hostile : batch) {
          answers.add(http.sendAsync(request(base, hostile), HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < batch.size(); i++) {
          check(batch.get(i), answers.get(i).join()).ifPresent(failures::add);
        }
      }
      assertThat(failures).as("requests answered against the contract").isEmpty();

      assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
      assertThat(generation(base))
          .as("no hostile request changed the intent")
          .isEqualTo(generationBefore);
      assertThat(export(migd)).as("the GPUs as NVML reports them").isEqualTo(gpusBefore);
    }
  }

  private java.util.Optional<String> check(Hostile hostile, HttpResponse<String> response) {
    int status = response.statusCode();
    String body = response.body();
    var problems = new ArrayList<String>();
    boolean dryRunShowsInfeasible =
        status == 200
            && hostile.path().contains("dryRun=true")
            && hostile.allowed().contains(422)
            && body.contains("\"decision\":\"infeasible\"");
    if (!hostile.allowed().contains(status) && !dryRunShowsInfeasible) {
      problems.add("status " + status + ", expected one of " + hostile.allowed());
    }
    if (status >= 400) {
      String type = response.headers().firstValue("Content-Type").orElse("");
      if (!type.startsWith("application/problem+json")) {
        problems.add("Content-Type " + type);
      }
      try {
        JsonNode problem = JSON.readTree(body);
        if (problem.path("status").asInt() != status) {
          problems.add("problem status " + problem.path("status"));
        }
        if (problem.path("title").asString("").isBlank()) {
          problems.add("no title");
        }
        if (problem.path("detail").asString("").isBlank()) {
          problems.add("no detail saying what is wrong");
        }
      } catch (RuntimeException e) {
        problems.add("body is not a JSON problem detail");
      }
    }
    if (body.contains("\tat ") || body.contains("Exception") || body.contains("at io.migd.")) {
      problems.add("a stack trace or exception name reached the client");
    }
    return problems.isEmpty()
        ? java.util.Optional.empty()
        : java.util.Optional.of(hostile + " -> " + String.join("; ", problems) + ": " + body);
  }

  private List<Hostile> generate() {
    var all = new ArrayList<Hostile>();
    Set<Integer> bad = Set.of(400);
    Set<Integer> cannot = Set.of(422);
    Set<Integer> badOrCannot = Set.of(400, 422);
    for (int i = 0; i < 120; i++) {
      String valid = pick(VALID);
      String truncated = valid.substring(0, random.nextInt(valid.length()));
      all.add(put("truncated JSON", truncated, bad));
    }
    for (int i = 0; i < 60; i++) {
      byte[] noise = new byte[1 + random.nextInt(300)];
      random.nextBytes(noise);
      all.add(put("random bytes", noise, bad));
    }
    for (int i = 0; i < 60; i++) {
      // under the 64 KiB limit, so that the nesting itself is what is refused
      int depth = 600 + random.nextInt(9_000);
      String open = random.nextBoolean() ? "[" : "{\"a\":";
      String close = open.equals("[") ? "]" : "}";
      String body = "{\"config\":" + open.repeat(depth) + "1" + close.repeat(depth) + "}";
      all.add(put("deep nesting " + depth, body, bad));
    }
    for (int i = 0; i < 60; i++) {
      String valid = pick(VALID);
      int at = valid.indexOf('"', 2) + 1 + random.nextInt(3);
      byte[] invalid =
          pick(
              List.of(
                  new byte[] {(byte) 0xC3, 0x28},
                  new byte[] {(byte) 0xFF},
                  new byte[] {(byte) 0xE2, (byte) 0x82},
                  new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                  new byte[] {(byte) 0xC0, (byte) 0xAF}));
      all.add(put("invalid UTF-8", splice(valid, at, invalid), bad));
    }
    List<String> notJson =
        List.of(
            "text/plain",
            "application/xml",
            "text/html",
            "application/octet-stream",
            "application/x-www-form-urlencoded",
            "image/png",
            "text/yaml");
    for (int i = 0; i < 70; i++) {
      String type = pick(notJson);
      all.add(
          new Hostile(
              "wrong media type",
              "PUT",
              "/api/v1/layout",
              type,
              pick(VALID).getBytes(StandardCharsets.UTF_8),
              Set.of(415)));
    }
    for (int i = 0; i < 10; i++) {
      all.add(
          new Hostile(
              "no media type",
              "PUT",
              "/api/v1/layout",
              null,
              pick(VALID).getBytes(StandardCharsets.UTF_8),
              Set.of(415)));
    }
    for (int i = 0; i < 70; i++) {
      String field = "\"" + word(1 + random.nextInt(12)) + "\":" + scalar();
      String body =
          random.nextBoolean()
              ? "{\"config\":\"sevens\"," + field + "}"
              : "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,"
                  + field
                  + ",\"migDevices\":{\"3g.20gb\":2}}]}";
      all.add(put("unknown field", body, bad));
    }
    for (int i = 0; i < 70; i++) {
      String body =
          switch (random.nextInt(3)) {
            case 0 -> "{\"config\":\"sevens\",\"config\":\"" + word(6) + "\"}";
            case 1 ->
                "{\"gpus\":[{\"gpu\":0,\"gpu\":1,\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}}]}";
            default ->
                "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":1,\"3g.20gb\":2}}]}";
          };
      all.add(put("duplicate key", body, bad));
    }
    List<String> huge =
        List.of(
            "1e400",
            "-1e400",
            "99999999999999999999999999",
            "2147483648",
            "-2147483649",
            "9223372036854775808",
            "1.5",
            "-0.0001",
            "1" + "0".repeat(5000),
            "NaN",
            "Infinity");
    for (int i = 0; i < 90; i++) {
      String number = pick(huge);
      String body =
          random.nextBoolean()
              ? "{\"gpus\":[{\"gpu\":"
                  + number
                  + ",\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}}]}"
              : "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"1g.5gb\":"
                  + number
                  + "}}]}";
      all.add(put("huge number " + number.length(), body, badOrCannot));
    }
    for (int i = 0; i < 90; i++) {
      String body =
          switch (random.nextInt(9)) {
            case 0 -> "{\"config\":" + pick(List.of("5", "true", "[]", "{}", "1.5")) + "}";
            case 1 -> "{\"gpus\":" + pick(List.of("\"x\"", "{}", "5", "true")) + "}";
            case 2 -> "{\"gpus\":[" + pick(List.of("1", "\"0\"", "[]", "null", "true")) + "]}";
            case 3 ->
                "{\"gpus\":[{\"gpu\":\"0\",\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}}]}";
            case 4 ->
                "{\"gpus\":[{\"gpu\":0,\"migEnabled\":\"yes\",\"migDevices\":{\"3g.20gb\":2}}]}";
            case 5 -> "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":[\"3g.20gb\"]}]}";
            case 6 ->
                "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":\"2\"}}]}";
            case 7 -> "{\"gpus\":[{\"gpu\":1,\"timeSlicing\":{\"replicas\":\"4\"}}]}";
            default -> pick(List.of("[]", "\"config\"", "42", "null", "true"));
          };
      all.add(put("wrong type", body, bad));
    }
    for (int i = 0; i < 40; i++) {
      byte[] body = oversized();
      all.add(put("oversized", body, Set.of(413)));
    }
    for (int i = 0; i < 10; i++) {
      all.add(
          new Hostile(
              "oversized, chunked",
              "PUT",
              "/api/v1/layout?chunked",
              "application/json",
              oversized(),
              Set.of(413)));
    }
    for (int i = 0; i < 90; i++) {
      String body =
          switch (random.nextInt(5)) {
            case 0 -> "{\"config\":\"" + word(1 + random.nextInt(40)) + "\"}";
            case 1 ->
                // an odd memory size: never one of the A100's profiles (5, 10, 20 or 40 GB)
                "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\""
                    + (1 + random.nextInt(9))
                    + "g."
                    + (7 + 2 * random.nextInt(150))
                    + "gb\":1}}]}";
            case 2 ->
                "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"1g.5gb\":"
                    + (8 + random.nextInt(10_000))
                    + "}}]}";
            case 3 ->
                "{\"gpus\":[{\"gpu\":"
                    + (2 + random.nextInt(10_000))
                    + ",\"migEnabled\":true,\"migDevices\":{\"3g.20gb\":2}}]}";
            default ->
                "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"7g.40gb\":1,\"1g.5gb\":"
                    + (1 + random.nextInt(6))
                    + "}}]}";
          };
      all.add(put("cannot apply", body, cannot));
    }
    for (int i = 0; i < 40; i++) {
      String body =
          pick(
              List.of(
                  "{}",
                  "{\"gpus\":[]}",
                  "{\"config\":\"\"}",
                  "{\"config\":null}",
                  "{\"config\":\"sevens\",\"gpus\":[{\"gpu\":0,\"migEnabled\":false}]}",
                  "{\"gpus\":[{\"gpu\":0,\"migEnabled\":false},{\"gpu\":0,\"migEnabled\":true}]}",
                  "{\"gpus\":[{\"gpu\":0,\"migEnabled\":true,\"migDevices\":{\"1g.5gb\":-1}}]}",
                  "{\"gpus\":[{\"gpu\":-1,\"migEnabled\":false}]}",
                  "{\"gpus\":[{\"gpu\":0,\"migEnabled\":false,\"migDevices\":{\"1g.5gb\":1}}]}",
                  "{\"gpus\":[{\"gpu\":0,\"migEnabled\":false,\"timeSlicing\":{\"replicas\":0}}]}"));
      all.add(put("incomplete or contradictory", body, badOrCannot));
    }
    for (int i = 0; i < 40; i++) {
      // an If-Match that is no generation must not be taken as "no condition"
      String tag =
          pick(List.of("\"abc\"", "W/\"x\"", "\"-1\"", "\"99999999999999999999999\"", "0"));
      all.add(
          new Hostile(
              "bad If-Match " + tag,
              "PUT",
              "/api/v1/layout#" + tag,
              "application/json",
              pick(VALID).getBytes(StandardCharsets.UTF_8),
              Set.of(400, 412)));
    }
    for (int i = 0; i < 150; i++) {
      // mutations of valid bodies, as a dry run: whatever they turn into, nothing may change
      byte[] mutated = mutate(pick(VALID).getBytes(StandardCharsets.UTF_8));
      all.add(
          new Hostile(
              "mutated, dry run",
              "PUT",
              "/api/v1/layout?dryRun=true",
              "application/json",
              mutated,
              Set.of(200, 400, 413, 422)));
    }
    for (int i = 0; i < 40; i++) {
      var call =
          pick(
              List.<Supplier<Hostile>>of(
                  () ->
                      new Hostile(
                          "wrong method",
                          "DELETE",
                          "/api/v1/layout",
                          null,
                          new byte[0],
                          Set.of(405)),
                  () ->
                      new Hostile(
                          "wrong method",
                          "POST",
                          "/api/v1/layout",
                          "application/json",
                          pick(VALID).getBytes(StandardCharsets.UTF_8),
                          Set.of(405)),
                  () ->
                      new Hostile(
                          "wrong method",
                          "PUT",
                          "/api/v1/gpus",
                          "application/json",
                          pick(VALID).getBytes(StandardCharsets.UTF_8),
                          Set.of(405)),
                  () ->
                      new Hostile(
                          "unknown path",
                          "GET",
                          "/api/v1/" + word(8),
                          null,
                          new byte[0],
                          Set.of(404)),
                  () ->
                      new Hostile(
                          "bad dryRun",
                          "PUT",
                          "/api/v1/layout?dryRun=" + word(3),
                          "application/json",
                          pick(VALID).getBytes(StandardCharsets.UTF_8),
                          Set.of(400))));
      all.add(call.get());
    }
    return all;
  }

  private HttpRequest request(String base, Hostile hostile) {
    String path = hostile.path();
    String ifMatch = null;
    boolean chunked = path.endsWith("?chunked");
    if (chunked) {
      path = path.substring(0, path.length() - "?chunked".length());
    }
    int hash = path.indexOf('#');
    if (hash >= 0) {
      ifMatch = path.substring(hash + 1);
      path = path.substring(0, hash);
    }
    byte[] body = hostile.body();
    HttpRequest.BodyPublisher publisher =
        chunked
            ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
            : HttpRequest.BodyPublishers.ofByteArray(body);
    var builder =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                hostile.method(),
                body.length == 0 && !chunked ? HttpRequest.BodyPublishers.noBody() : publisher);
    if (hostile.contentType() != null) {
      builder.header("Content-Type", hostile.contentType());
    }
    if (ifMatch != null) {
      builder.header("If-Match", ifMatch);
    }
    return builder.build();
  }

  private Hostile put(String kind, String body, Set<Integer> allowed) {
    return put(kind, body.getBytes(StandardCharsets.UTF_8), allowed);
  }

  private Hostile put(String kind, byte[] body, Set<Integer> allowed) {
    String path = random.nextInt(4) == 0 ? "/api/v1/layout?dryRun=true" : "/api/v1/layout";
    return new Hostile(kind, "PUT", path, "application/json", body, allowed);
  }

  private byte[] oversized() {
    int size = 64 * 1024 + 1 + random.nextInt(200_000);
    return ("{\"config\":\"" + "a".repeat(size) + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  private byte[] mutate(byte[] valid) {
    var out = new ByteArrayOutputStream();
    out.writeBytes(valid);
    byte[] bytes = out.toByteArray();
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits; e++) {
      int at = random.nextInt(bytes.length);
      bytes[at] =
          switch (random.nextInt(3)) {
            case 0 -> (byte) random.nextInt(256);
            case 1 -> (byte) JSON_PUNCTUATION.charAt(random.nextInt(JSON_PUNCTUATION.length()));
            default -> (byte) (bytes[at] ^ (1 << random.nextInt(8)));
          };
    }
    return bytes;
  }

  private static byte[] splice(String text, int at, byte[] inserted) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    var out = new ByteArrayOutputStream();
    out.write(bytes, 0, at);
    out.writeBytes(inserted);
    out.write(bytes, at, bytes.length - at);
    return out.toByteArray();
  }

  private String scalar() {
    return pick(List.of("1", "true", "null", "\"x\"", "[]", "{}", "-3.5"));
  }

  private String word(int length) {
    var text = new StringBuilder();
    String letters = "abcdefghijklmnopqrstuvwxyz0123456789-.";
    for (int i = 0; i < length; i++) {
      text.append(letters.charAt(random.nextInt(letters.length())));
    }
    return "x" + text;
  }

  private <T> T pick(List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }

  private long generation(String base) throws Exception {
    HttpResponse<String> layout = get(base + "/api/v1/layout");
    assertThat(layout.statusCode()).as(layout.body()).isEqualTo(200);
    return JSON.readTree(layout.body()).path("desired").path("generation").asLong();
  }

  private static String export(MigdProcess migd) {
    var result = migd.run("export", "-o", "json", MODELS);
    assertThat(result.exitStatus()).as(result.toString()).isZero();
    return result.stdout();
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
