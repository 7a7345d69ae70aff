package io.migd.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.migd.cli.MigdProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} in token mode with its token in a Secret volume, rotated as the kubelet does
 * it (a new timestamped directory, then the {@code ..data} symlink swapped): the old token is
 * refused and the new one works, without a restart; an emptied Secret keeps the last good token.
 */
class TokenRotationIT {
  private static final String OLD = "tok-old-3c9e51a07d";
  private static final String NEW = "tok-new-8b1f42e6c5";

  @TempDir Path nodeDir;

  @Test
  void aRotatedSecretTakesEffectWithoutARestart() throws Exception {
    Path secret = Files.createDirectories(nodeDir.resolve("secret"));
    writeVersion(secret, "..2026_11_26_10_00_00.1", OLD);
    Files.createSymbolicLink(secret.resolve("token"), Path.of("..data/token"));

    try (var daemon =
        MigdProcess.on(nodeDir.resolve("node"))
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_AUTH_MODE", "token")
            .withEnvironment("MIGD_AUTH_TOKENFILE", secret.resolve("token").toString())
            .withEnvironment("MIGD_AUTH_TOKENFILEPOLL", "200ms")
            .start("serve", "--simulate=A100-SXM4-40GB")) {
      var api = ApiCalls.ready(daemon);
      assertThat(api.get("/api/v1/gpus", OLD).statusCode()).isEqualTo(200);
      assertThat(api.get("/api/v1/gpus", NEW).statusCode()).isEqualTo(401);

      writeVersion(secret, "..2026_11_26_11_00_00.2", NEW);
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                assertThat(api.get("/api/v1/gpus", OLD).statusCode()).isEqualTo(401);
                assertThat(api.get("/api/v1/gpus", NEW).statusCode()).isEqualTo(200);
              });

      writeVersion(secret, "..2026_11_26_12_00_00.3", "");
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(daemon.stdout() + daemon.stderr())
                      .contains("is empty; write the API token into it; the token read before"));
      assertThat(api.get("/api/v1/gpus", NEW).statusCode()).isEqualTo(200);
      assertThat(daemon.stdout() + daemon.stderr()).doesNotContain(OLD).doesNotContain(NEW);
    }
  }

  /** A Secret volume's update: the new files in a directory of their own, then one rename. */
  private static void writeVersion(Path secret, String version, String token) throws Exception {
    Path dir = Files.createDirectories(secret.resolve(version));
    Files.writeString(dir.resolve("token"), token.isEmpty() ? "" : token + "\n");
    Path next = secret.resolve("..data_tmp");
    Files.deleteIfExists(next);
    Files.createSymbolicLink(next, Path.of(version));
    Files.move(next, secret.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
  }
}
