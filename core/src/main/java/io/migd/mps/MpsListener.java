package io.migd.mps;

/** Told when the MPS control daemon of a device is gone and when it runs again. */
public interface MpsListener {
  /** Tells nothing. */
  MpsListener NONE = new MpsListener() {};

  /** The daemon serving {@code uuid} is gone: its replicas cannot be used until it is back. */
  default void daemonDown(String uuid) {}

  /** The daemon serving {@code uuid} runs (again). */
  default void daemonUp(String uuid) {}
}
