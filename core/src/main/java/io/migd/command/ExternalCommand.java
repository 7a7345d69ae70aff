package io.migd.command;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The one way migd runs a command it was configured with: the GPU reset, the reboot, the CDI
 * refresh and the MPS control command. A command is an argument list, never split or given to a
 * shell, run with {@code environment} added to migd's and {@code input} on its stdin, one line
 * each, until it ends or {@code timeout} passes (then it and its descendants are killed).
 *
 * <p>Its stdout and stderr go to files, not pipes: a command that prints a lot cannot block on a
 * full pipe, and one that leaves a daemon behind holding them open (as {@code
 * nvidia-cuda-mps-control -d} does) ends when the command ends, not when the daemon does. The first
 * {@link #KEPT_OUTPUT} bytes of each are kept for the result.
 *
 * @param command the program and its arguments
 * @param environment added to migd's own environment
 * @param input the lines written to its stdin; none reads {@code /dev/null}
 * @param timeout how long it may run
 */
public record ExternalCommand(
    List<String> command, Map<String, String> environment, List<String> input, Duration timeout) {
  /** How much of stdout and of stderr a result keeps. */
  public static final int KEPT_OUTPUT = 8 * 1024;

  /** Copies the lists and the map. */
  public ExternalCommand {
    command = List.copyOf(command);
    environment = Map.copyOf(environment);
    input = List.copyOf(input);
    Objects.requireNonNull(timeout);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least its program");
    }
  }

  /** {@code command} with nothing on its stdin and migd's environment. */
  public static ExternalCommand of(List<String> command, Duration timeout) {
    return new ExternalCommand(command, Map.of(), List.of(), timeout);
  }

  /** This command with {@code environment} added to migd's. */
  public ExternalCommand withEnvironment(Map<String, String> environment) {
    return new ExternalCommand(command, environment, input, timeout);
  }

  /** This command with {@code lines} on its stdin. */
  public ExternalCommand withInput(List<String> lines) {
    return new ExternalCommand(command, environment, lines, timeout);
  }

  /** The command as a person would type it, with its stdin when it has one. */
  public String display() {
    return String.join(" ", command)
        + (input.isEmpty() ? "" : " (stdin: " + String.join("; ", input) + ")");
  }

  /** How a run ended. */
  public sealed interface Ran {
    /** One line for logs and results: the command, how it ended, and what it printed. */
    String describe();

    /** Whether it exited 0. */
    default boolean succeeded() {
      return this instanceof Exited exited && exited.status() == 0;
    }

    /** It ran to its end with {@code status}; {@code stdout} and {@code stderr} as it printed. */
    record Exited(String command, int status, String stdout, String stderr) implements Ran {
      @Override
      public String describe() {
        return command + " exited " + status + printed(stdout, stderr);
      }
    }

    /** It was still running at the timeout and was killed with its descendants. */
    record TimedOut(String command, Duration timeout, String stdout, String stderr) implements Ran {
      @Override
      public String describe() {
        return command
            + " did not finish in "
            + timeout.toSeconds()
            + " s and was killed"
            + printed(stdout, stderr);
      }
    }

    /** It could not be started (not found, not executable), or migd was interrupted meanwhile. */
    record NotStarted(String command, String error) implements Ran {
      @Override
      public String describe() {
        return "could not run " + command + ": " + error;
      }
    }

    private static String printed(String stdout, String stderr) {
      String both = (stderr.strip() + "\n" + stdout.strip()).strip();
      return both.isEmpty() ? "" : ": " + both;
    }
  }

  /** Runs the command to its end or its timeout, whichever comes first. */
  public Ran run() {
    Path dir;
    try {
      dir = Files.createTempDirectory("migd-command-");
    } catch (IOException e) {
      return new Ran.NotStarted(display(), "no temporary directory for its output: " + e);
    }
    try {
      return run(dir);
    } finally {
      deleteQuietly(dir);
    }
  }

  private Ran run(Path dir) {
    Path stdout = dir.resolve("stdout");
    Path stderr = dir.resolve("stderr");
    var builder =
        new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
    builder.environment().putAll(environment);
    try {
      if (input.isEmpty()) {
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      } else {
        Path stdin = dir.resolve("stdin");
        Files.writeString(stdin, String.join("\n", input) + "\n");
        builder.redirectInput(stdin.toFile());
      }
    } catch (IOException e) {
      return new Ran.NotStarted(display(), "its stdin could not be written: " + e);
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return new Ran.NotStarted(display(), e.getMessage());
    }
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
        return new Ran.TimedOut(display(), timeout, kept(stdout), kept(stderr));
      }
      return new Ran.Exited(display(), process.exitValue(), kept(stdout), kept(stderr));
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return new Ran.NotStarted(display(), "interrupted while it ran; it was killed");
    }
  }

  private static String kept(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(KEPT_OUTPUT), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(its output could not be read: " + e.getMessage() + ")";
    }
  }

  private static void deleteQuietly(Path dir) {
    try (var files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // a left-over temporary file harms nothing
    }
  }
}
