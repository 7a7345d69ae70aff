package io.migd.bench.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import java.util.function.Function;

/**
 * Requests a careless or hostile caller sends to the REST API. Each must be refused with a 4xx (the
 * contract's status for it); none may answer 5xx.
 */
final class HostileRequests {
  private record Hostile(String name, Function<String, HttpRequest> request) {}

  private static final String LAYOUT = "/api/v1/layout";

  private static final List<Hostile> TABLE =
      List.of(
          new Hostile("malformed JSON", base -> put(base + LAYOUT, "{\"config\":")),
          new Hostile(
              "body over 64 KiB",
              base -> put(base + LAYOUT, "{\"config\":\"" + "x".repeat(70_000) + "\"}")),
          new Hostile(
              "text/plain",
              base ->
                  HttpRequest.newBuilder(URI.create(base + LAYOUT))
                      .header("Content-Type", "text/plain")
                      .PUT(BodyPublishers.ofString("all-balanced"))
                      .build()),
          new Hostile(
              "unknown field", base -> put(base + LAYOUT, "{\"config\":\"all-balanced\",\"x\":1}")),
          new Hostile(
              "duplicate key", base -> put(base + LAYOUT, "{\"config\":\"a\",\"config\":\"b\"}")),
          new Hostile("unknown config", base -> put(base + LAYOUT, "{\"config\":\"all-nope\"}")),
          new Hostile(
              "GPU the node lacks", base -> put(base + LAYOUT, "{\"gpus\":[{\"gpu\":99}]}")),
          new Hostile(
              "counts out of range",
              base ->
                  put(
                      base + LAYOUT,
                      "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"1g.5gb\":99999999999}}]}")),
          new Hostile("nesting 20000 deep", base -> put(base + LAYOUT, "[".repeat(20_000))),
          new Hostile(
              "bad dryRun",
              base -> put(base + LAYOUT + "?dryRun=maybe", "{\"config\":\"all-balanced\"}")),
          new Hostile(
              "garbage If-Match",
              base ->
                  HttpRequest.newBuilder(URI.create(base + LAYOUT))
                      .header("Content-Type", "application/json")
                      .header("If-Match", "\"\u00e9\u00e9\"")
                      .PUT(BodyPublishers.ofString("{\"config\":\"all-balanced\"}"))
                      .build()),
          new Hostile(
              "DELETE layout",
              base -> HttpRequest.newBuilder(URI.create(base + LAYOUT)).DELETE().build()),
          new Hostile(
              "unknown path",
              base ->
                  HttpRequest.newBuilder(URI.create(base + "/api/v1/%2e%2e/%2e%2e/etc")).build()),
          new Hostile("null body", base -> put(base + LAYOUT, "null")),
          new Hostile("empty gpus", base -> put(base + LAYOUT, "{\"gpus\":[]}")),
          new Hostile(
              "profile breaking the grammar",
              base ->
                  put(base + LAYOUT, "{\"gpus\":[{\"gpu\":0,\"migDevices\":{\"9z.1tb\":1}}]}")));

  static final int COUNT = TABLE.size();

  private HostileRequests() {}

  static String name(int kind) {
    return TABLE.get(kind).name();
  }

  static HttpRequest request(int kind, String base) {
    return TABLE.get(kind).request().apply(base);
  }

  private static HttpRequest put(String url, String body) {
    return HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .PUT(BodyPublishers.ofString(body))
        .build();
  }
}
