package io.migd.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How many reconciles a running {@code migd serve} made, from its metrics. */
final class ReconcileCount {
  private static final Pattern RECONCILES =
      Pattern.compile("(?m)^migd_reconcile_total\\{[^}]*} (\\S+)$");

  private ReconcileCount() {}

  /** The sum of {@code migd_reconcile_total} over its results, scraped from {@code port}. */
  static double of(int port) throws IOException, InterruptedException {
    String text;
    try (var http = HttpClient.newHttpClient()) {
      text =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
    }
    double total = 0;
    Matcher m = RECONCILES.matcher(text);
    while (m.find()) {
      total += Double.parseDouble(m.group(1));
    }
    return total;
  }
}
