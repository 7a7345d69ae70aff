package io.migd.mps;

import java.util.List;
import java.util.Map;

/**
 * Runs the MPS control command ({@code migd.mps.control-command}), as NVIDIA's {@code
 * nvidia-cuda-mps-control} is run without arguments to give a running daemon commands on stdin.
 * migd starts no daemon: the {@code -mps} DaemonSet's supervisor does ({@link MpsDaemons}).
 */
public interface MpsControl {
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
