package io.migd.mps;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the control command as a child process, its argument list never split on whitespace. */
public final class ProcessMpsControl implements MpsControl {
  private final List<String> command;
  private final Duration timeout;

  /** Runs {@code command}, killing a run that takes longer than {@code timeout}. */
  public ProcessMpsControl(List<String> command, Duration timeout) {
    this.command = List.copyOf(command);
    this.timeout = timeout;
  }

  @Override
  public void startDaemon(Map<String, String> environment) {
    var args = new ArrayList<>(command);
    args.add("-d");
    run(args, environment, List.of());
  }

  @Override
  public List<String> send(Map<String, String> environment, List<String> commands) {
    return run(command, environment, commands);
  }

  private List<String> run(List<String> args, Map<String, String> environment, List<String> in) {
    var builder = new ProcessBuilder(args);
    builder.environment().putAll(environment);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new MpsException("could not run " + String.join(" ", args) + ": " + e.getMessage(), e);
    }
    // read both streams while it runs: a full pipe would block it
    var stdout = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
    var stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    try (var stdin = process.getOutputStream()) {
      for (String line : in) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      // it exited without reading all of its input; its status says why
    }
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new MpsException(
            String.join(" ", args) + " did not finish in " + timeout.toSeconds() + " s", null);
      }
      String out = stdout.join();
      if (process.exitValue() != 0) {
        throw new MpsException(
            String.join(" ", args)
                + (in.isEmpty() ? "" : " (stdin: " + String.join("; ", in) + ")")
                + " exited "
                + process.exitValue()
                + ": "
                + (stderr.join() + out).strip(),
            null);
      }
      return out.lines().toList();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new MpsException("interrupted while running " + String.join(" ", args), e);
    }
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
