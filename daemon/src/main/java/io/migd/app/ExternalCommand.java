package io.migd.app;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command migd was configured with ({@code migd.reset-command}, {@code migd.reboot.command})
 * as an argument list, never through a shell. Its output (stdout and stderr together) is read while
 * it runs, so a command that prints a lot cannot block on a full pipe; the first {@link
 * #KEPT_OUTPUT} bytes are kept for the report.
 */
final class ExternalCommand {
  /** How much of the output a result keeps. */
  static final int KEPT_OUTPUT = 8 * 1024;

  private ExternalCommand() {}

  /** How a run ended. */
  sealed interface Ran {
    /** One line for logs and GPU results: the command, how it ended, and its output. */
    String describe();

    /** Whether it exited 0. */
    default boolean succeeded() {
      return this instanceof Exited(var command, var status, var output) && status == 0;
    }

    /** It ran to its end. */
    record Exited(List<String> command, int status, String output) implements Ran {
      @Override
      public String describe() {
        return String.join(" ", command) + " exited " + status + withOutput(output);
      }
    }

    /** It was still running at the timeout and was killed. */
    record TimedOut(List<String> command, Duration timeout, String output) implements Ran {
      @Override
      public String describe() {
        return String.join(" ", command)
            + " did not finish in "
            + timeout.toSeconds()
            + " s and was killed"
            + withOutput(output);
      }
    }

    /** It could not be started (not found, not executable). */
    record NotStarted(List<String> command, String error) implements Ran {
      @Override
      public String describe() {
        return "could not run " + String.join(" ", command) + ": " + error;
      }
    }

    private static String withOutput(String output) {
      return output.isBlank() ? "" : ": " + output.strip();
    }
  }

  /** Runs {@code command} to its end or {@code timeout}, whichever comes first. */
  static Ran run(List<String> command, Duration timeout) {
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
    } catch (IOException e) {
      return new Ran.NotStarted(command, e.getMessage());
    }
    var kept = new ByteArrayOutputStream();
    Thread drain =
        Thread.ofVirtual()
            .name("migd-command-output")
            .start(() -> drain(process.getInputStream(), kept));
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
        drain.join(Duration.ofSeconds(5));
        return new Ran.TimedOut(command, timeout, text(kept));
      }
      drain.join(Duration.ofSeconds(5));
      return new Ran.Exited(command, process.exitValue(), text(kept));
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return new Ran.NotStarted(command, "interrupted while it ran");
    }
  }

  private static void drain(InputStream in, ByteArrayOutputStream kept) {
    byte[] buffer = new byte[8192];
    try (in) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        synchronized (kept) {
          kept.write(buffer, 0, Math.max(0, Math.min(n, KEPT_OUTPUT - kept.size())));
        }
      }
    } catch (IOException e) {
      // the process ended or was killed: what was read so far is the output
    }
  }

  private static String text(ByteArrayOutputStream kept) {
    synchronized (kept) {
      return kept.toString(StandardCharsets.UTF_8);
    }
  }
}
