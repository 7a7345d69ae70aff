package io.migd.bench.chaos;

import io.migd.bench.Footprint;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code java -jar migd.jar serve --simulate=...} as the image runs it (its JVM options, with
 * native memory tracking on), one life at a time: started with a fault table for its NVML, killed
 * with SIGKILL, started again on the same state file and state directory.
 */
final class MigdDaemon {
  private static final Pattern LISTENING =
      Pattern.compile("http listening address=\\S+ port=(\\d+)");

  private final Path jar;
  private final Path work;
  private final String models;
  private final Map<String, String> environment;
  private final HttpClient http;
  private int lives;
  private Life life;

  /** One process of migd: its fault table, log, and whether the runner killed it. */
  static final class Life {
    final int number;
    final Process process;
    final String faults;
    final Path log;
    final long startedNanos = System.nanoTime();
    volatile boolean killed;
    volatile boolean ready;
    private int port = -1;

    private Life(int number, Process process, String faults, Path log) {
      this.number = number;
      this.process = process;
      this.faults = faults;
      this.log = log;
    }

    long pid() {
      return process.pid();
    }

    /** The HTTP port once the log says it listens. */
    OptionalInt port() {
      if (port < 0) {
        Matcher m = LISTENING.matcher(log());
        if (m.find()) {
          port = Integer.parseInt(m.group(1));
        }
      }
      return port < 0 ? OptionalInt.empty() : OptionalInt.of(port);
    }

    String log() {
      try {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The last lines of the log, for a violation's detail. */
    String tail(int lines) {
      List<String> all = log().lines().toList();
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
  }

  MigdDaemon(Path jar, Path work, String models, Map<String, String> environment, HttpClient http) {
    this.jar = jar;
    this.work = work;
    this.models = models;
    this.environment = Map.copyOf(environment);
    this.http = http;
  }

  Life life() {
    return life;
  }

  /** Starts a new life whose NVML fails as {@code faults} says (empty: no faults). */
  Life start(String faults) {
    int number = ++lives;
    var command = new ArrayList<String>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--enable-native-access=ALL-UNNAMED");
    Footprint.IMAGE.stream().filter(o -> !o.startsWith(Footprint.ENV)).forEach(command::add);
    command.add("-XX:NativeMemoryTracking=summary");
    command.addAll(List.of("-jar", jar.toString(), "serve", "--simulate=" + models));
    var builder = new ProcessBuilder(command).directory(work.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(
            n ->
                n.startsWith("NVML_SIM_")
                    || n.startsWith("MIGD_")
                    || n.equals("JAVA_TOOL_OPTIONS"));
    for (String option : Footprint.IMAGE) {
      if (option.startsWith(Footprint.ENV)) {
        String[] variable = option.substring(Footprint.ENV.length()).split("=", 2);
        builder.environment().put(variable[0], variable[1]);
      }
    }
    builder.environment().putAll(environment);
    if (!faults.isEmpty()) {
      builder.environment().put("NVML_SIM_FAULTS", faults);
    }
    Path log = work.resolve("migd-" + number + ".log");
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    try {
      life = new Life(number, builder.start(), faults, log);
    } catch (IOException e) {
      throw new UncheckedIOException("starting migd", e);
    }
    return life;
  }

  /** SIGKILL of the current life, waiting for its end. */
  void kill() {
    life.killed = true;
    life.process.destroyForcibly();
    try {
      life.process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGTERM at the end of a run. */
  void stop() {
    if (life == null) {
      return;
    }
    life.killed = true;
    life.process.destroy();
    try {
      if (!life.process.waitFor(30, TimeUnit.SECONDS)) {
        life.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      life.process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** {@code http://127.0.0.1:<port>} of the current life, once it listens. */
  Optional<String> base() {
    OptionalInt port = life.port();
    return port.isPresent() ? Optional.of("http://127.0.0.1:" + port.getAsInt()) : Optional.empty();
  }

  /** The status of {@code GET path}, empty when migd does not answer. */
  Optional<HttpResponse<String>> get(String path) {
    Optional<String> base = base();
    if (base.isEmpty()) {
      return Optional.empty();
    }
    return send(HttpRequest.newBuilder(URI.create(base.get() + path)).build());
  }

  /** Sends {@code request} with a timeout; empty when migd does not answer. */
  Optional<HttpResponse<String>> send(HttpRequest request) {
    try {
      var timed = HttpRequest.newBuilder(request, (n, v) -> true).timeout(Duration.ofSeconds(20));
      return Optional.of(http.send(timed.build(), HttpResponse.BodyHandlers.ofString()));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * Waits until the current life answers readiness 200; false when it died or {@code patience} ran
   * out.
   */
  boolean awaitReady(Duration patience) throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    while (System.nanoTime() < deadline && life.process.isAlive()) {
      if (get("/actuator/health/readiness").map(r -> r.statusCode() == 200).orElse(false)) {
        life.ready = true;
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }
}
