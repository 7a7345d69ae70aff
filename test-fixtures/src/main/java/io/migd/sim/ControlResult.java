package io.migd.sim;

/** What a simulator command said: its exit status (0 done, 1 refused, 2 bad usage) and output. */
public record ControlResult(int exitStatus, String output) {
  /** Whether the command succeeded. */
  public boolean succeeded() {
    return exitStatus == 0;
  }
}
