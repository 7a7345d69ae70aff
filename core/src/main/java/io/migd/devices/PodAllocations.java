package io.migd.devices;

import java.util.List;

/** The kubelet's answer to "which devices do running pods hold" (PodResources {@code List}). */
@FunctionalInterface
public interface PodAllocations {
  /**
   * Every device allocated to a running pod.
   *
   * @throws Unavailable when the kubelet cannot be asked
   */
  List<PodDevice> list();

  /** The kubelet could not be asked; the message says why. */
  final class Unavailable extends RuntimeException {
    /** With the reason and the underlying error. */
    public Unavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
