package io.migd.rest.auth;

import static io.migd.rest.auth.ApiCalls.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.cli.MigdProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} with {@code migd.auth.mode=token} and anonymous reads, as a real process: the
 * token of the file opens every {@code /api/v1} call, a wrong one none, no token only reads; the
 * refusals are problem details, and no token shows in them or in the log.
 */
class TokenAuthIT {
  private static final String TOKEN = "tok-9f2c41d7e0b5a8c3";
  private static final String WRONG = "tok-wrong-51e8a0c2d6";
  private static final String PUT_PATH = "/api/v1/layout";
  private static final String DRY_RUN = PUT_PATH + "?dryRun=true";
  private static final String BODY = "{\"config\":\"all-balanced\"}";

  @TempDir static Path nodeDir;
  private static MigdProcess.Running daemon;
  private static ApiCalls api;

  @BeforeAll
  static void start() throws Exception {
    Path tokenFile = Files.writeString(nodeDir.resolve("token"), TOKEN + "\n");
    daemon =
        MigdProcess.on(nodeDir.resolve("node"))
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_AUTH_MODE", "token")
            .withEnvironment("MIGD_AUTH_TOKENFILE", tokenFile.toString())
            .withEnvironment("MIGD_AUTH_ANONYMOUSREAD", "true")
            .withEnvironment("LOGGING_LEVEL_IO_MIGD", "DEBUG")
            .withEnvironment("LOGGING_LEVEL_ORG_SPRINGFRAMEWORK_WEB", "DEBUG")
            .start("serve", "--simulate=A100-SXM4-40GB");
    api = ApiCalls.ready(daemon);
  }

  @AfterAll
  static void stop() {
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void aWriteWithoutATokenIs401WithABearerChallenge() {
    var response = api.put(DRY_RUN, null, BODY);
    assertProblem(response, 401, PUT_PATH);
    assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
  }

  @Test
  void aWrongTokenIs401ForWritesAndReads() {
    var write = api.put(DRY_RUN, WRONG, BODY);
    assertProblem(write, 401, PUT_PATH);
    assertThat(write.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Bearer"));
    assertProblem(api.get("/api/v1/gpus", WRONG), 401, "/api/v1/gpus");
    assertProblem(api.get("/api/v1/gpus", TOKEN + "x"), 401, "/api/v1/gpus");
    assertProblem(api.get("/api/v1/gpus", TOKEN.substring(1)), 401, "/api/v1/gpus");
  }

  @Test
  void theTokenOfTheFileOpensWritesAndReads() {
    assertThat(api.put(DRY_RUN, TOKEN, BODY).statusCode()).isEqualTo(200);
    assertThat(api.get("/api/v1/gpus", TOKEN).statusCode()).isEqualTo(200);
    assertThat(api.get("/api/v1/layout", TOKEN).statusCode()).isEqualTo(200);
  }

  @Test
  void anonymousReadLetsReadsThroughWithoutAToken() {
    assertThat(api.get("/api/v1/gpus", null).statusCode()).isEqualTo(200);
    assertThat(api.get("/api/v1/layout", null).statusCode()).isEqualTo(200);
  }

  @Test
  void noTokenShowsInProblemDetailsOrTheLog() {
    var refused = api.put(DRY_RUN, WRONG, BODY);
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.body()).doesNotContain(WRONG).doesNotContain(TOKEN);
    assertThat(api.put(DRY_RUN, TOKEN, BODY).body()).doesNotContain(TOKEN);
    assertThat(daemon.stdout() + daemon.stderr())
        .as("the daemon logged at DEBUG")
        .contains("REST API auth mode=token")
        .contains("REST call refused status=401 method=PUT path=/api/v1/layout")
        .doesNotContain(WRONG)
        .doesNotContain(TOKEN);
  }
}
