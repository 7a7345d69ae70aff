package io.migd.nvml;

/**
 * A GPU's MIG mode: the mode in force and the mode that applies at the next activation (GPU reset,
 * unbind or reboot). They differ while a change is waiting.
 */
public record MigMode(boolean current, boolean pending) {
  /** Whether a mode change is waiting for an activation. */
  public boolean changePending() {
    return current != pending;
  }
}
