package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code migd serve} on simulated GPUs: not ready until the first reconcile has applied the intent.
 */
class ServeIT {
  @TempDir Path stateDir;

  @Test
  void becomesReadyOnceTheIntentIsApplied() throws Exception {
    try (ConfigurableApplicationContext context =
        SpringApplication.run(
            MigdApplication.class,
            "--server.port=0",
            "--migd.simulate=A100-SXM4-40GB,T4",
            "--migd.config=all-balanced",
            "--migd.state-dir=" + stateDir)) {
      String port = context.getEnvironment().getProperty("local.server.port");
      var http = HttpClient.newHttpClient();
      var readiness =
          HttpRequest.newBuilder(
                  URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
              .build();
      HttpResponse<String> response = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline) {
        response = http.send(readiness, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          break;
        }
        Thread.sleep(50);
      }
      assertThat(response).isNotNull();
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);

      var health =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.body()).contains("\"state\":\"success\"").contains("\"generation\":1");
      assertThat(stateDir.resolve("intent.json"))
          .content()
          .contains("all-balanced")
          .contains("GPU-");
      assertThat(stateDir.resolve(StateLock.FILE_NAME)).exists();
    }
  }
}
