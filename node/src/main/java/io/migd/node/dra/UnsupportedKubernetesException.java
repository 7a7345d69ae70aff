package io.migd.node.dra;

/**
 * The API server is too old for DRA mode (no {@code resource.k8s.io/v1}, before Kubernetes 1.34):
 * bad usage, which the daemon turns into exit 2.
 */
public final class UnsupportedKubernetesException extends RuntimeException {
  /** The message names the version found and what is needed. */
  public UnsupportedKubernetesException(String message) {
    super(message);
  }
}
