package io.migd.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A kubeconfig that sends migd's fabric8 client to a test's API server (the fabric8 mock), for the
 * daemon's tests and the chaos runner (bench).
 */
public final class Kubeconfig {
  private static final String TEXT =
      """
      apiVersion: v1
      kind: Config
      clusters:
      - name: mock
        cluster:
          server: %s
          insecure-skip-tls-verify: true
      users:
      - name: migd
        user:
          token: test
      contexts:
      - name: mock
        context:
          cluster: mock
          user: migd
      current-context: mock
      """;

  private Kubeconfig() {}

  /** Writes {@code file}: one cluster at {@code serverUrl}, reached with a bearer token. */
  public static Path write(Path file, String serverUrl) {
    try {
      return Files.writeString(file, TEXT.formatted(serverUrl));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
