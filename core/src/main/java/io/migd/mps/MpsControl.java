package io.migd.mps;

import java.util.List;
import java.util.Map;

/**
 * Runs the MPS control command ({@code migd.mps.control-command}), as NVIDIA's {@code
 * nvidia-cuda-mps-control} is run: with {@code -d} to start a daemon, or without arguments to give
 * a running daemon commands on stdin.
 */
public interface MpsControl {
  /**
   * Starts a control daemon: the command with {@code -d} and {@code environment} added to migd's.
   *
   * @throws MpsException if it cannot run or exits non-zero
   */
  void startDaemon(Map<String, String> environment);

  /**
   * Runs the command without arguments with {@code environment} added to migd's, writes {@code
   * commands} to its stdin one per line, and returns what it printed on stdout, line by line.
   *
   * @throws MpsException if it cannot run or exits non-zero
   */
  List<String> send(Map<String, String> environment, List<String> commands);

  /** The MPS control command failed. */
  final class MpsException extends RuntimeException {
    /** A failure with a message that names the command and how it ended. */
    public MpsException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
