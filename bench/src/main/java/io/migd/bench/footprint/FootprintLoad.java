package io.migd.bench.footprint;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.bench.footprint.FootprintNode.Mode;
import io.migd.claims.AllocatedClaim;
import io.migd.dra.FakeDraKubelet;
import io.migd.node.dra.PublishedPool;
import io.migd.node.dra.ResourceSliceReader;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import io.migd.sim.AllocatedClaims;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * migd's memory under load, against its rest: a scrape storm ({@code /actuator/prometheus} 100
 * times a second for a minute) and, 5 s into it, the mode's burst of work: a reshape through the
 * config label ({@code all-balanced} to {@code all-1g.10gb} and back, device-plugin mode) or 50
 * claims of a {@code 1g.10gb} device allocated from the published pool and prepared over the DRA
 * socket, 8 at a time, then unprepared (DRA mode, all-dynamic). VmRSS is sampled every 250 ms; then
 * it rests a minute and VmRSS is read again.
 */
public final class FootprintLoad {
  private static final int SCRAPES_PER_SECOND = 100;
  private static final int STORM_SECONDS = 60;
  private static final int CLAIMS = 50;
  private static final String STATE_LABEL = "nvidia.com/mig.config.state";

  /** What the load did to VmRSS, and what the load itself did. */
  public record Result(
      double restMib, double peakMib, double afterMinuteMib, int scrapesOk, String burst) {
    @Override
    public String toString() {
      return String.format(
          "load: rest %.1f MiB, peak %.1f MiB (+%.1f), a minute after %.1f MiB (%+.1f);"
              + " %d scrapes answered 200; %s",
          restMib,
          peakMib,
          peakMib - restMib,
          afterMinuteMib,
          afterMinuteMib - restMib,
          scrapesOk,
          burst);
    }
  }

  private FootprintLoad() {}

  /** Runs the load on {@code migd}, ready and at rest. */
  public static Result run(MigdProcess migd, FootprintNode node) throws Exception {
    double rest = migd.statusMib("VmRSS");
    var peak = new double[] {rest};
    var ok = new AtomicInteger();
    var scrape = HttpRequest.newBuilder(migd.uri("/actuator/prometheus")).build();
    var scheduler = Executors.newScheduledThreadPool(2);
    scheduler.scheduleAtFixedRate(
        () ->
            MigdProcess.HTTP
                .sendAsync(scrape, HttpResponse.BodyHandlers.discarding())
                .thenAccept(r -> ok.addAndGet(r.statusCode() == 200 ? 1 : 0)),
        0,
        1_000_000 / SCRAPES_PER_SECOND,
        TimeUnit.MICROSECONDS);
    scheduler.scheduleAtFixedRate(
        () -> {
          try {
            peak[0] = Math.max(peak[0], migd.statusMib("VmRSS"));
          } catch (Exception gone) {
            // the process's end shows in the result
          }
        },
        0,
        250,
        TimeUnit.MILLISECONDS);
    long stormEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(STORM_SECONDS);
    String burst;
    try {
      TimeUnit.SECONDS.sleep(5);
      burst =
          switch (node.mode()) {
            case OFF -> "no burst with the surfaces off";
            case DEVICE_PLUGIN -> reshape(node.client().orElseThrow());
            case DRA -> claims(node);
          };
      TimeUnit.NANOSECONDS.sleep(Math.max(0, stormEnd - System.nanoTime()));
    } finally {
      scheduler.shutdownNow();
    }
    migd.alive("under load");
    TimeUnit.SECONDS.sleep(60);
    return new Result(rest, peak[0], migd.statusMib("VmRSS"), ok.get(), burst);
  }

  /** Relabels the node to all-1g.10gb and back, each time until migd says success. */
  private static String reshape(KubernetesClient client) throws InterruptedException {
    long started = System.nanoTime();
    for (String config : List.of("all-1g.10gb", Mode.DEVICE_PLUGIN.config)) {
      client
          .nodes()
          .withName(FootprintNode.NODE)
          .edit(
              n -> {
                n.getMetadata().getLabels().put(FootprintNode.CONFIG_LABEL, config);
                n.getMetadata().getLabels().remove(STATE_LABEL);
                return n;
              });
      awaitState(client, "success");
    }
    return String.format(
        "reshape to all-1g.10gb and back in %.1f s", (System.nanoTime() - started) / 1e9);
  }

  private static void awaitState(KubernetesClient client, String state)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (System.nanoTime() < deadline) {
      Map<String, String> labels =
          client.nodes().withName(FootprintNode.NODE).get().getMetadata().getLabels();
      if (state.equals(labels.get(STATE_LABEL))) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new IllegalStateException("the node's state label never said " + state);
  }

  /** 50 claims allocated, created, prepared 8 at a time, then unprepared. */
  private static String claims(FootprintNode node) throws Exception {
    KubernetesClient client = node.client().orElseThrow();
    FakeDraKubelet.Plugin plugin = awaitPlugin(node);
    PublishedPool pool =
        new ResourceSliceReader(client)
            .read(FootprintNode.DRIVER, FootprintNode.NODE)
            .orElseThrow(() -> new IllegalStateException("migd published no pool"));
    List<PublishedSlice> slices =
        pool.content().slices().stream()
            .map(
                s ->
                    new PublishedSlice(
                        FootprintNode.DRIVER,
                        FootprintNode.NODE,
                        s,
                        pool.generation(),
                        (int) pool.resourceSliceCount()))
            .toList();
    var allocator = new TestAllocator();
    var claims = new ArrayList<Claim>();
    for (int i = 0; i < CLAIMS; i++) {
      String name = "burst-" + i;
      AllocatedClaim allocation =
          allocator
              .allocate(TestClaim.of(name, DeviceRequest.profile("gpu", "1g.10gb")), slices)
              .orElseThrow(() -> new IllegalStateException(name + " does not fit"));
      String uid =
          client
              .resource(
                  AllocatedClaims.of(
                      "footprint",
                      name,
                      FootprintNode.DRIVER,
                      FootprintNode.NODE,
                      TestAllocator.deviceNames(allocation)))
              .create()
              .getMetadata()
              .getUid();
      claims.add(Claim.newBuilder().setNamespace("footprint").setName(name).setUid(uid).build());
    }
    var stub =
        DRAPluginGrpc.newBlockingStub(plugin.channel()).withDeadlineAfter(2, TimeUnit.MINUTES);
    long started = System.nanoTime();
    ExecutorService kubelet = Executors.newFixedThreadPool(8);
    var errors = new AtomicInteger();
    try {
      var calls = new ArrayList<Future<?>>();
      for (Claim claim : claims) {
        calls.add(
            kubelet.submit(
                () -> {
                  var answer =
                      stub.nodePrepareResources(
                          NodePrepareResourcesRequest.newBuilder().addClaims(claim).build());
                  if (!answer.getClaimsOrThrow(claim.getUid()).getError().isEmpty()) {
                    errors.incrementAndGet();
                  }
                }));
      }
      for (Future<?> call : calls) {
        call.get();
      }
    } finally {
      kubelet.shutdown();
    }
    double prepared = (System.nanoTime() - started) / 1e9;
    stub.nodeUnprepareResources(
        NodeUnprepareResourcesRequest.newBuilder().addAllClaims(claims).build());
    return String.format(
        "%d claims prepared in %.1f s (%d errors), then unprepared in one call",
        CLAIMS, prepared, errors.get());
  }

  private static FakeDraKubelet.Plugin awaitPlugin(FootprintNode node) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      var plugin = node.plugin();
      if (plugin.isPresent()) {
        return plugin.get();
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
    throw new IllegalStateException("migd did not register with the DRA kubelet");
  }
}
