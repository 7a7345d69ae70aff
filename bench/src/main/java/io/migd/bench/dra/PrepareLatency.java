package io.migd.bench.dra;

import com.sun.management.OperatingSystemMXBean;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.migd.claims.AllocatedClaim;
import io.migd.claims.CdiDevice;
import io.migd.claims.ClaimCdi;
import io.migd.claims.ClaimEvents;
import io.migd.claims.ClaimNode;
import io.migd.claims.ClaimPreparer;
import io.migd.claims.ClaimSettings;
import io.migd.claims.ClaimSource;
import io.migd.claims.PodSource;
import io.migd.claims.PrepareAnswer;
import io.migd.claims.UnprepareAnswer;
import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.DeviceNames;
import io.migd.layout.GpuIndex;
import io.migd.layout.ModelSource;
import io.migd.layout.NodeObserver;
import io.migd.node.dra.PublishSettings;
import io.migd.node.dra.ResourceSlicePublisher;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.ownership.ClaimKey;
import io.migd.pool.DeviceTaints;
import io.migd.pool.GpuFacts;
import io.migd.pool.GpuFactsReader;
import io.migd.pool.PoolBuilder;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolGpu;
import io.migd.profiles.GpuModelCatalog;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * How long a DRA prepare takes to answer (issue 18, "Benchmarks"): {@link ClaimPreparer} on the
 * simulated NVML (the real FFM path) of two H100, wired as {@code DraConfiguration} wires it: after
 * every prepare and unprepare the touched GPU is observed again, the pool rebuilt by {@link
 * PoolBuilder} and handed to the real {@link ResourceSlicePublisher}, whose API server accepts
 * connections and never answers (every ResourceSlice write blocks). Three kinds: a created {@code
 * 1g.10gb} (GPU 0 dynamic, {@code reclaim-after} 0), a reused one (the idle instance a previous
 * claim left, {@code reclaim-after} 1 h) and a static whole GPU (GPU 1 static, MIG off). Each kind
 * with every state-changing NVML call delayed 0 ms and 750 ms; per kind p50 and p99 of the whole
 * answer and of the answer minus the time inside NVML calls ({@link FfmNvml#timeInNvml}).
 *
 * <p>Arguments: samples per kind at 0 ms (default 200), at 750 ms (default 10), warm-up prepares
 * per kind before the samples at 0 ms (default 50: a daemon prepares long after its start, when the
 * JIT, the code cache and the metaspace have settled; at 750 ms the JVM is warm already and 2 are
 * left out).
 */
public final class PrepareLatency {
  static final String DRIVER = "gpu.nvidia.com";
  static final String NODE = "bench-node";
  static final String GPUS = "H100-SXM5-80GB,H100-SXM5-80GB";
  static final GpuIndex DYNAMIC = new GpuIndex(0);
  static final GpuIndex STATIC = new GpuIndex(1);

  private PrepareLatency() {}

  /**
   * One prepare, in nanoseconds: the whole answer, the part of it inside NVML, and the CPU the
   * process spent meanwhile (the bench does nothing else, so it is the prepare's own work, whatever
   * preemption did to the wall clock).
   */
  record Sample(long answer, long inNvml, long cpu, long gc, Instant from, Instant to) {}

  /** One kind at one latency, with the publisher's count as it was when its node closed. */
  record Row(int latency, String kind, List<Sample> samples, int published, int handedOver) {}

  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** Runs every kind at both latencies and prints one line each. */
  public static void main(String[] args) throws Exception {
    int fast = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int slow = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    var rows = new ArrayList<Row>();
    var flushes = new DiskFlushes();
    for (int latency : new int[] {0, 750}) {
      int samples = latency == 0 ? fast : slow;
      int warm = latency == 0 ? warmUp : 2;
      try (var node = new BenchNode(latency)) {
        var created = new ArrayList<Sample>();
        var statics = new ArrayList<Sample>();
        try (var preparer = node.preparer(Duration.ZERO)) {
          String device = DeviceNames.mig(DYNAMIC.value(), "1g.10gb", 19, 6);
          repeat(node, preparer, device, warm, new ArrayList<>());
          repeat(node, preparer, device, samples, created);
          String whole = DeviceNames.wholeGpu(STATIC.value());
          repeat(node, preparer, whole, warm, new ArrayList<>());
          repeat(node, preparer, whole, samples, statics);
        }
        var reused = new ArrayList<Sample>();
        try (var preparer = node.preparer(Duration.ofHours(1))) {
          String device = DeviceNames.mig(DYNAMIC.value(), "1g.10gb", 19, 5);
          repeat(node, preparer, device, warm, new ArrayList<>());
          repeat(node, preparer, device, samples, reused);
        }
        rows.add(node.row(latency, "created", created));
        rows.add(node.row(latency, "reused", reused));
        rows.add(node.row(latency, "static", statics));
      }
    }
    flushes.stop();
    System.out.println(
        "latency  kind     samples  answer p50/p99 ms     answer-NVML p50/p99   answer-NVML-fsync"
            + " p50/p99   CPU mean ms  GC in samples max/total ms  slice writes done of handed"
            + " over");
    rows.forEach(row -> print(row, flushes));
  }

  /** Prepares and unprepares a claim of {@code device} {@code times} times; times the prepares. */
  private static void repeat(
      BenchNode node, ClaimPreparer preparer, String device, int times, List<Sample> samples) {
    for (int i = 0; i < times; i++) {
      ClaimKey claim = node.allocate(device);
      Map<String, long[]> before = SchedStat.TRACE ? SchedStat.read() : Map.of();
      Instant from = Instant.now();
      long nvmlBefore = node.nvml.timeInNvml().toNanos();
      long cpuBefore = OS.getProcessCpuTime();
      long gcBefore = gcMillis();
      long start = System.nanoTime();
      PrepareAnswer answer = preparer.prepare(List.of(claim)).getFirst();
      long took = System.nanoTime() - start;
      long cpu = OS.getProcessCpuTime() - cpuBefore;
      long gc = gcMillis() - gcBefore;
      long inNvml = node.nvml.timeInNvml().toNanos() - nvmlBefore;
      Instant to = Instant.now();
      if (!(answer instanceof PrepareAnswer.Prepared)) {
        throw new IllegalStateException("prepare of " + device + " failed: " + answer);
      }
      samples.add(new Sample(took, inNvml, cpu, gc, from, to));
      if (SchedStat.TRACE && took - inNvml > SchedStat.SLOW.toNanos()) {
        SchedStat.report(device, from, took, inNvml, before);
      }
      var unprepared = preparer.unprepare(List.of(claim)).getFirst();
      if (!(unprepared instanceof UnprepareAnswer.Unprepared)) {
        throw new IllegalStateException("unprepare of " + device + " failed: " + unprepared);
      }
    }
  }

  private static void print(Row row, DiskFlushes flushes) {
    List<Sample> samples = row.samples();
    long[] answers = samples.stream().mapToLong(Sample::answer).sorted().toArray();
    long[] own = samples.stream().mapToLong(s -> s.answer() - s.inNvml()).sorted().toArray();
    long[] ownBesidesDisk =
        samples.stream()
            .mapToLong(s -> s.answer() - s.inNvml() - flushes.within(s.from(), s.to()))
            .sorted()
            .toArray();
    // the process CPU clock ticks in 10 ms steps: only the mean over many prepares says something
    double cpuMean = samples.stream().mapToLong(Sample::cpu).average().orElse(0) / 1e6;
    System.out.printf(
        Locale.ROOT,
        "%5d ms  %-7s  %7d  %8.2f / %8.2f   %8.2f / %8.2f   %8.2f / %8.2f   %8.2f      %5d / %5d"
            + "        %d of %d%n",
        row.latency(),
        row.kind(),
        samples.size(),
        percentile(answers, 50),
        percentile(answers, 99),
        percentile(own, 50),
        percentile(own, 99),
        percentile(ownBesidesDisk, 50),
        percentile(ownBesidesDisk, 99),
        cpuMean,
        samples.stream().mapToLong(Sample::gc).max().orElse(0),
        samples.stream().mapToLong(Sample::gc).sum(),
        row.published(),
        row.handedOver());
  }

  /**
   * Milliseconds the JVM's collectors have spent so far (pauses included: what a prepare waits).
   */
  private static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionTime)
        .sum();
  }

  private static double percentile(long[] sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, rank)] / 1e6;
  }

  /**
   * The simulated node, its claims, and the publisher whose API server never answers: each rebuilt
   * pool is handed over, and no write ever completes.
   */
  static final class BenchNode implements AutoCloseable {
    final Path dir;
    final FfmNvml nvml;
    final NodeObserver observer;
    final GpuModelCatalog catalog = GpuModelCatalog.builtIn();
    final Map<GpuIndex, GpuFacts> facts = new ConcurrentHashMap<>();
    final Map<String, AllocatedClaim> claims = new ConcurrentHashMap<>();
    final AtomicReference<PoolContent> pool = new AtomicReference<>();
    final AtomicInteger handedOver = new AtomicInteger();
    final AtomicInteger ids = new AtomicInteger();
    final ServerSocket silent;
    final List<Socket> held = new ArrayList<>();
    final KubernetesClient client;
    final ResourceSlicePublisher publisher;
    ClaimPreparer preparer;

    BenchNode(int latencyMs) throws IOException {
      dir = Files.createTempDirectory("migd-prepare-");
      var sim = SimulatedNvml.extract(dir.resolve("lib"));
      sim.init(GPUS);
      sim.require("latency", Integer.toString(latencyMs));
      nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
      observer = new NodeObserver(nvml, catalog);
      var reader = new GpuFactsReader(nvml, new ModelSource(nvml, catalog), dir.resolve("sys"));
      observer.observe().gpus().forEach(g -> facts.put(g.index(), reader.read(g)));
      Files.writeString(dir.resolve("boot_id"), "boot-1\n");
      silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread.ofPlatform().daemon().name("silent-api-server").start(this::acceptForever);
      client =
          new KubernetesClientBuilder()
              .withConfig(
                  new ConfigBuilder()
                      .withMasterUrl("http://127.0.0.1:" + silent.getLocalPort())
                      .withRequestTimeout(600_000)
                      .withRequestRetryBackoffLimit(0)
                      .build())
              .build();
      publisher = ResourceSlicePublisher.start(client, NODE, PublishSettings.defaults());
    }

    private void acceptForever() {
      try {
        while (!silent.isClosed()) {
          Socket socket = silent.accept();
          synchronized (held) {
            held.add(socket);
          }
        }
      } catch (IOException e) {
        // closed at the end of the run
      }
    }

    /** A preparer over this node, its checkpoint fresh, wired as the daemon wires it. */
    ClaimPreparer preparer(Duration reclaimAfter) {
      Path state = dir.resolve("state-" + ids.incrementAndGet());
      preparer =
          new ClaimPreparer(
              new Source(claims::get),
              new ClaimNode(
                  nvml,
                  catalog,
                  new Executor(nvml, ProgressListener.NONE),
                  ClaimNode.NO_PODS,
                  pool::get,
                  _ -> true,
                  _ -> true),
              new NoCdi(),
              new ClaimSettings(DRIVER, NODE, state, dir.resolve("boot_id"), reclaimAfter),
              new ClaimEvents() {
                @Override
                public void touched(Set<GpuIndex> gpus) {
                  rebuild();
                }
              },
              PodSource.NONE);
      rebuild();
      return preparer;
    }

    /** The samples of one kind, with what the publisher did so far. */
    Row row(int latency, String kind, List<Sample> samples) {
      return new Row(
          latency, kind, samples, publisher.published().isPresent() ? 1 : 0, handedOver.get());
    }

    /** Observes the node again, rebuilds the pool and hands it to the publisher. */
    void rebuild() {
      var gpus = new ArrayList<PoolGpu>();
      for (var observed : observer.observe().gpus()) {
        gpus.add(
            new PoolGpu(facts.get(observed.index()), observed, !observed.index().equals(STATIC)));
      }
      var claimed = preparer.claimed();
      PoolContent content =
          PoolBuilder.build(
                  new PoolBuilder.Input(DRIVER, NODE, gpus, claimed, DeviceTaints.NONE, false))
              .content();
      pool.set(content);
      publisher.publish(content);
      handedOver.incrementAndGet();
    }

    /** A claim allocated {@code device} of the pool, as the API server would hold it. */
    ClaimKey allocate(String device) {
      String uid = "uid-" + ids.incrementAndGet();
      var claim =
          new AllocatedClaim(
              uid,
              "default",
              "claim-" + uid,
              true,
              List.of(new AllocatedClaim.Result("gpu", DRIVER, NODE, device, false)),
              List.of(),
              List.of());
      claims.put("claim-" + uid, claim);
      return new ClaimKey(uid, "default", "claim-" + uid);
    }

    @Override
    public void close() throws IOException {
      publisher.close();
      client.close();
      silent.close();
      synchronized (held) {
        for (Socket socket : held) {
          socket.close();
        }
      }
      nvml.close();
    }
  }

  /** The claims the bench allocated, by name. */
  private record Source(Function<String, AllocatedClaim> byName) implements ClaimSource {
    @Override
    public Optional<AllocatedClaim> get(String namespace, String name) {
      return Optional.ofNullable(byName.apply(name));
    }

    @Override
    public List<AllocatedClaim> listAllocatedToPool() {
      return List.of();
    }
  }

  /** CDI IDs without spec files: the bench times migd's prepare, not the disk. */
  private static final class NoCdi implements ClaimCdi {
    @Override
    public List<String> write(String claimUid, List<CdiDevice> devices) {
      return devices.stream().flatMap(d -> d.cdiIds(claimUid).stream()).toList();
    }

    @Override
    public void remove(String claimUid) {}
  }
}
