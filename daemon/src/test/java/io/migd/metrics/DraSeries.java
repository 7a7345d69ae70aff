package io.migd.metrics;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code migd_dra_*} series of DESIGN section 12 (names and labels as the design fixes them),
 * in Prometheus' text format over HTTP, as a node in kubelet mode {@code dra} exposes them: what
 * the DRA dashboard's queries run against until {@code migd serve} exports them. Every scrape
 * counts one more prepare of each kind and one more request, so rates have something to show.
 */
final class DraSeries implements AutoCloseable {
  private final HttpServer server;
  private final AtomicInteger scrapes = new AtomicInteger();

  private DraSeries(HttpServer server) {
    this.server = server;
  }

  /** Serves the series on {@code 127.0.0.1} at a port the kernel picks, path {@code /metrics}. */
  static DraSeries start() throws IOException {
    var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    var series = new DraSeries(server);
    server.createContext(
        "/metrics",
        exchange -> {
          byte[] body = series.exposition().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
          exchange.sendResponseHeaders(200, body.length);
          try (var out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    return series;
  }

  /** {@code host:port}, for a scrape target. */
  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private String exposition() {
    int n = scrapes.incrementAndGet();
    var text = new StringBuilder();
    text.append("# TYPE migd_dra_prepare_duration_seconds histogram\n");
    for (String kind : new String[] {"static", "created", "reused"}) {
      // static and reused prepares end within 0.1 s, created ones within 2.5 s
      double slow = kind.equals("created") ? 0 : n;
      text.append(bucket(kind, "0.1", slow))
          .append(bucket(kind, "2.5", n))
          .append(bucket(kind, "+Inf", n))
          .append("migd_dra_prepare_duration_seconds_count{kind=\"%s\"} %d\n".formatted(kind, n))
          .append(
              "migd_dra_prepare_duration_seconds_sum{kind=\"%s\"} %.2f\n".formatted(kind, n * 0.5));
    }
    text.append("# TYPE migd_dra_prepared_devices gauge\n")
        .append("migd_dra_prepared_devices 3\n")
        .append("# TYPE migd_dra_requests_total counter\n");
    for (String operation : new String[] {"prepare", "unprepare"}) {
      text.append(request(operation, "success", 2L * n)).append(request(operation, "error", n));
    }
    text.append("# TYPE migd_dra_free_placements gauge\n")
        .append(free("0", "1g.10gb", 5))
        .append(free("0", "3g.40gb", 1))
        .append(free("0", "7g.80gb", 0))
        .append(free("1", "1g.10gb", 7))
        .append(free("1", "3g.40gb", 2))
        .append(free("1", "7g.80gb", 1));
    return text.toString();
  }

  private static String bucket(String kind, String le, double count) {
    return "migd_dra_prepare_duration_seconds_bucket{kind=\"%s\",le=\"%s\"} %s\n"
        .formatted(kind, le, count);
  }

  private static String request(String operation, String result, long count) {
    return "migd_dra_requests_total{operation=\"%s\",result=\"%s\"} %d\n"
        .formatted(operation, result, count);
  }

  private static String free(String gpu, String profile, int placements) {
    return "migd_dra_free_placements{gpu=\"%s\",profile=\"%s\"} %d\n"
        .formatted(gpu, profile, placements);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
