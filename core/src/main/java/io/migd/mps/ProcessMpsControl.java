package io.migd.mps;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    // the daemon it leaves behind may keep stdout and stderr open: a pipe read to its end would
    // wait for the daemon, so its output goes to a file
    Path output;
    try {
      output = Files.createTempFile("migd-mps-start", ".out");
    } catch (IOException e) {
      throw new MpsException("creating a file for the output of " + String.join(" ", args), e);
    }
    try {
      var builder =
          new ProcessBuilder(args)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectErrorStream(true)
              .redirectOutput(output.toFile());
      builder.environment().putAll(environment);
      Process process = start(builder, args);
      int status = await(process, args);
      if (status != 0) {
        throw new MpsException(
            String.join(" ", args) + " exited " + status + ": " + readQuietly(output).strip(),
            null);
      }
    } finally {
      try {
        Files.deleteIfExists(output);
      } catch (IOException e) {
        // a left-over temporary file harms nothing
      }
    }
  }

  @Override
  public List<String> send(Map<String, String> environment, List<String> commands) {
    var builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process process = start(builder, command);
    // read both streams while it runs: a full pipe would block it
    var stdout = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
    var stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    try (var stdin = process.getOutputStream()) {
      for (String line : commands) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      // it exited without reading all of its input; its status says why
    }
    int status = await(process, command);
    String out = stdout.join();
    if (status != 0) {
      throw new MpsException(
          String.join(" ", command)
              + " (stdin: "
              + String.join("; ", commands)
              + ") exited "
              + status
              + ": "
              + (stderr.join() + out).strip(),
          null);
    }
    return out.lines().toList();
  }

  private static Process start(ProcessBuilder builder, List<String> args) {
    try {
      return builder.start();
    } catch (IOException e) {
      throw new MpsException("could not run " + String.join(" ", args) + ": " + e.getMessage(), e);
    }
  }

  private int await(Process process, List<String> args) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new MpsException(
            String.join(" ", args) + " did not finish in " + timeout.toSeconds() + " s", null);
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new MpsException("interrupted while running " + String.join(" ", args), e);
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(its output could not be read: " + e.getMessage() + ")";
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
