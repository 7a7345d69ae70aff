package io.migd.bench;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.migd.execute.ProgressListener;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.node.NodeLabelWatch;
import io.migd.node.NodeStateWriter;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.IntentService;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.ReconcileSettings;
import io.migd.reconcile.Reconciler;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A fleet in one JVM: N migd instances (default 200), each the reconcile loop with its node adapter
 * as the daemon wires them (no web server, no kubelet surface), its own copy of the simulated
 * library with one A100, its own state dir, Node name and API client, against one fabric8 mock API
 * server in CRUD mode. The operator relabels every Node in one sweep; the run reports the time from
 * the start of the sweep until every Node shows {@code success}, then counts the requests the mock
 * server receives over a rest window (default 60 s) and reports them per node per minute.
 */
public final class FleetConvergence {
  private static final String MODEL = "A100-SXM4-40GB";
  private static final String CONFIGS =
      """
      version: v1
      mig-configs:
        all-1g.5gb:
          - devices: all
            mig-enabled: true
            mig-devices: {"1g.5gb": 7}
      """;
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  // the mock server logs every request at INFO through java.util.logging: kept referenced so the
  // level holds
  private static final java.util.logging.Logger MOCK_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  private FleetConvergence() {}

  /** One node: its GPUs and its migd. */
  private record Member(
      String name,
      Nvml nvml,
      KubernetesClient client,
      NodeLabelWatch watch,
      ReconcileLoop loop,
      ExecutorService writes)
      implements AutoCloseable {
    @Override
    public void close() {
      watch.close();
      loop.close();
      writes.close();
      client.close();
      nvml.close();
    }
  }

  /** {@code args[0]}: nodes (default 200); {@code args[1]}: rest window in seconds (default 60). */
  public static void main(String[] args) throws Exception {
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int restSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "migd-fleet");
    MigConfigFile configs = MigConfigParser.parse(CONFIGS);

    // as @EnableKubernetesMockClient(crud = true, https = false) builds it
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init();
    List<Member> fleet = new ArrayList<>();
    try (KubernetesClient operator = server.createClient()) {
      for (int i = 0; i < nodes; i++) {
        operator
            .nodes()
            .resource(
                new NodeBuilder()
                    .withNewMetadata()
                    .withName(name(i))
                    .withLabels(Map.of("kubernetes.io/hostname", name(i)))
                    .endMetadata()
                    .build())
            .create();
      }
      long loading = System.nanoTime();
      for (int i = 0; i < nodes; i++) {
        fleet.add(start(server, name(i), dir, configs));
      }
      System.out.printf(
          "%d migd instances started (%d copies of the simulated library loaded) in %.1f s%n",
          nodes, nodes, seconds(System.nanoTime() - loading));
      System.out.flush();
      Thread.sleep(2_000);

      long sweep = System.nanoTime();
      for (int i = 0; i < nodes; i++) {
        operator
            .nodes()
            .withName(name(i))
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\""
                    + NodeLabelWatch.CONFIG_LABEL
                    + "\":\"all-1g.5gb\"}}}");
      }
      long swept = System.nanoTime();
      int done = 0;
      while (done < nodes) {
        done =
            (int)
                operator.nodes().list().getItems().stream()
                    .filter(
                        n ->
                            "success"
                                .equals(
                                    n.getMetadata().getLabels().get(NodeStateWriter.STATE_LABEL)))
                    .count();
        if (System.nanoTime() - sweep > Duration.ofMinutes(10).toNanos()) {
          throw new IllegalStateException(done + " of " + nodes + " in success after 10 min");
        }
        Thread.sleep(100);
      }
      long converged = System.nanoTime();
      for (Member member : fleet) {
        List<String> profiles = profiles(member.nvml());
        if (profiles.size() != 7 || !profiles.stream().allMatch("1g.5gb"::equals)) {
          throw new IllegalStateException(member.name() + " holds " + profiles);
        }
      }
      System.out.printf(
          "sweep of %d label patches: %.2f s; sweep start to all %d Nodes success: %.2f s"
              + " (GPUs checked: 7 x 1g.5gb on each)%n",
          nodes, seconds(swept - sweep), nodes, seconds(converged - sweep));
      System.out.flush();

      // at rest: no label changes, no polling by this program; only migd's requests count
      int before = server.getRequestCount();
      Thread.sleep(Duration.ofSeconds(restSeconds));
      int after = server.getRequestCount();
      double perNodePerMinute = (after - before) / (double) nodes / (restSeconds / 60.0);
      System.out.printf(
          "at rest: %d requests from %d nodes in %d s = %.3f requests per node per minute%n",
          after - before, nodes, restSeconds, perNodePerMinute);
      System.out.flush();
    } finally {
      fleet.forEach(Member::close);
      server.destroy();
    }
  }

  private static String name(int i) {
    return "gpu-%03d".formatted(i);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  /** migd on one node, wired as the daemon wires it with NODE_NAME set (default timing). */
  private static Member start(
      KubernetesMockServer server, String name, Path dir, MigConfigFile configs) throws Exception {
    SimulatedNvml sim = SimulatedNvml.extract(dir.resolve("sim"));
    sim.init(MODEL);
    Nvml nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    KubernetesClient client = server.createClient();
    IntentService intents =
        new IntentService(
            new IntentStore(Files.createDirectories(dir.resolve("state-" + name))),
            Optional.empty());
    // the daemon's default resync, 5 min: the label is read again that often
    NodeLabelWatch watch = new NodeLabelWatch(client, name, Duration.ofMinutes(5));
    intents.labelSeen(watch.readLabel());
    ExecutorService writes = Executors.newSingleThreadExecutor();
    NodeStateWriter writer = new NodeStateWriter(client, name, writes);
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    Reconciler reconciler =
        Reconciler.over(
            nvml, CATALOG, configs::config, ProgressListener.NONE, reset, RebootPolicy.DISABLED);
    // the daemon's defaults: resync 5 min, retries from 1 s up to 5 min
    ReconcileLoop loop =
        new ReconcileLoop(
            reconciler,
            intents::current,
            new ReconcileSettings(
                Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofMinutes(5)),
            List.of(writer));
    loop.start();
    watch.start(
        label -> {
          if (intents.labelSeen(label)) {
            loop.trigger();
          }
        });
    return new Member(name, nvml, client, watch, loop, writes);
  }

  private static List<String> profiles(Nvml nvml) {
    return new NodeObserver(nvml, CATALOG)
        .observe().gpus().getFirst().gpuInstances().stream()
            .map(LiveGpuInstance::profile)
            .map(Object::toString)
            .toList();
  }
}
