package io.migd.bench.fragmentation;

import io.migd.bench.chaos.DraNode;
import io.migd.bench.fragmentation.MigdPool.Held;
import io.migd.pool.GpuFacts;
import io.migd.pool.PoolSlice;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.IntStream;

/**
 * {@link Fragmentation}'s workload through a real {@code migd serve} in DRA mode (issue 29): the
 * same seeded events on {@value Fragmentation#GPUS} simulated {@value Fragmentation#MODEL}, every
 * GPU dynamic; each claim allocated by the test allocator from the slices the mock API server holds
 * once they are the pool migd rebuilt after the previous prepare or unprepare, prepared and
 * unprepared over the kubelet's DRA gRPC ({@link DraNode}). Two runs per seed, each on a fresh
 * migd: the allocator takes the devices in the order migd published them, then sorted by name
 * (NVIDIA's order). Beside them the in-process bench on the same events; and, per run, the first
 * claim placed otherwise than in process.
 *
 * <p>Arguments: seeds ({@code 5} for 1..5, or a list {@code 1,7,12}; default 5), events per seed
 * (default 600), offered load (default 0.9). System properties: {@code migd.jar} (default {@code
 * daemon/target/migd.jar}) and {@code fragmentation.work} (where each run's migd keeps its files,
 * default {@code /tmp}).
 */
public final class DaemonFragmentation {
  /** Held so the level sticks: the mock API server logs every request. */
  private static final Logger JUL_ROOT = Logger.getLogger("");

  private DaemonFragmentation() {}

  /** Runs every seed through migd in both orders and prints them beside the in-process bench. */
  public static void main(String[] args) throws Exception {
    List<Integer> seeds = seeds(args.length > 0 ? args[0] : "5");
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 600;
    double load = args.length > 2 ? Double.parseDouble(args[2]) : 0.9;
    Path jar = Path.of(System.getProperty("migd.jar", "daemon/target/migd.jar"));
    Path work = Path.of(System.getProperty("fragmentation.work", "/tmp"));
    JUL_ROOT.setLevel(Level.SEVERE);
    Arrays.stream(JUL_ROOT.getHandlers()).forEach(h -> h.setLevel(Level.SEVERE));
    var gpus = Fragmentation.gpus();
    System.out.printf(
        Locale.ROOT,
        "%d x %s through migd serve (DRA), %d events a seed, offered load %.2f%n",
        gpus.size(),
        Fragmentation.MODEL,
        count,
        load);
    System.out.println(
        "seed claims | daemon: migd str/ref  nvidia str/ref  ratio | in process: migd str/ref"
            + "  nvidia str/ref  ratio | diff pp | first claim placed otherwise (migd, nvidia)"
            + " | s");
    var totals = new Fragmentation.Result[5];
    Arrays.fill(totals, new Fragmentation.Result(0, 0, 0, 0));
    for (int seed : seeds) {
      long started = System.nanoTime();
      var events =
          Workload.events(
              seed, count, Fragmentation.mix(gpus), load, Fragmentation.nodeMemorySlices(gpus));
      var migd = new LinkedHashMap<String, String>();
      var nvidia = new LinkedHashMap<String, String>();
      var inMigd = new LinkedHashMap<String, String>();
      var inNvidia = new LinkedHashMap<String, String>();
      var afterPrepare = new LinkedHashMap<String, String>();
      Fragmentation.Result[] results = {
        run(events, gpus, jar, work, UnaryOperator.identity(), migd),
        run(events, gpus, jar, work, NvidiaOrder::slice, nvidia),
        Fragmentation.run(
            events,
            gpus,
            new Recording(new Fragmentation.InProcess(gpus, Fragmentation.MIGD_ORDER), inMigd),
            _ -> {}),
        Fragmentation.run(
            events,
            gpus,
            new Recording(new Fragmentation.InProcess(gpus, Fragmentation.NVIDIA_ORDER), inNvidia),
            _ -> {}),
        Fragmentation.run(
            events, gpus, new Recording(new AfterPrepare(gpus), afterPrepare), _ -> {})
      };
      for (int i = 0; i < totals.length; i++) {
        totals[i] = totals[i].plus(results[i]);
      }
      print(
          Integer.toString(seed),
          results,
          firstOther(migd, inMigd)
              + ", "
              + firstOther(nvidia, inNvidia)
              + " | last prepare as started "
              + results[4].stranded()
              + "/"
              + results[4].refused()
              + " "
              + ratio(results[4], results[3])
              + ", migd otherwise: "
              + firstOther(migd, afterPrepare),
          (System.nanoTime() - started) / 1e9);
    }
    print("all", totals, "", 0);
  }

  private static List<Integer> seeds(String arg) {
    return arg.contains(",")
        ? Arrays.stream(arg.split(",")).map(Integer::parseInt).toList()
        : IntStream.rangeClosed(1, Integer.parseInt(arg)).boxed().toList();
  }

  /** One seed's events through a fresh migd, the allocator listing devices as {@code order}. */
  private static Fragmentation.Result run(
      List<Workload.Event<GpuFacts.MigProfile>> events,
      List<GpuFacts> gpus,
      Path jar,
      Path work,
      UnaryOperator<PoolSlice> order,
      Map<String, String> placed)
      throws Exception {
    try (var node =
        DraNode.start(
            jar,
            work,
            String.join(",", gpus.stream().map(g -> Fragmentation.MODEL).toList()),
            order)) {
      try {
        var result =
            Fragmentation.run(
                events, gpus, new Recording(new ThroughDaemon(node), placed), _ -> {});
        node.checkViolations();
        return result;
      } catch (RuntimeException e) {
        System.out.println("migd's log ends:\n" + node.logTail(40));
        throw e;
      }
    }
  }

  private static void print(
      String seed, Fragmentation.Result[] r, String firstOther, double seconds) {
    System.out.printf(
        Locale.ROOT,
        "%4s %6d | %10d/%-3d %8d/%-3d %6s | %14d/%-3d %8d/%-3d %6s | %7s | %s | %.0f%n",
        seed,
        r[0].claims(),
        r[0].stranded(),
        r[0].refused(),
        r[1].stranded(),
        r[1].refused(),
        ratio(r[0], r[1]),
        r[2].stranded(),
        r[2].refused(),
        r[3].stranded(),
        r[3].refused(),
        ratio(r[2], r[3]),
        r[1].stranded() == 0 || r[3].stranded() == 0
            ? "-"
            : String.format(
                Locale.ROOT,
                "%+.1f",
                100.0
                    * ((double) r[0].stranded() / r[1].stranded()
                        - (double) r[2].stranded() / r[3].stranded())),
        firstOther,
        seconds);
  }

  private static String ratio(Fragmentation.Result migd, Fragmentation.Result nvidia) {
    return nvidia.stranded() == 0
        ? "-"
        : String.format(Locale.ROOT, "%.3f", (double) migd.stranded() / nvidia.stranded());
  }

  /** The node of one run: claims allocated from migd's published slices and prepared by migd. */
  private record ThroughDaemon(DraNode node) implements Fragmentation.Node {
    @Override
    public Optional<String> place(String uid, GpuFacts.MigProfile profile, Collection<Held> held) {
      try {
        return node.prepare(uid, profile.name());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }

    @Override
    public void release(String uid) {
      try {
        node.unprepare(uid);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  /** A node that records where each claim went ({@code -} when refused), in arrival order. */
  private record Recording(Fragmentation.Node inner, Map<String, String> placed)
      implements Fragmentation.Node {
    @Override
    public Optional<String> place(String uid, GpuFacts.MigProfile profile, Collection<Held> held) {
      Optional<String> device = inner.place(uid, profile, held);
      placed.put(uid, device.orElse("-"));
      return device;
    }

    @Override
    public void release(String uid) {
      inner.release(uid);
    }
  }

  /** The first claim {@code run} placed otherwise than {@code reference}, or {@code none}. */
  private static String firstOther(Map<String, String> run, Map<String, String> reference) {
    for (var entry : run.entrySet()) {
      String there = reference.get(entry.getKey());
      if (!entry.getValue().equals(there)) {
        return entry.getKey() + " " + entry.getValue() + " not " + there;
      }
    }
    return "none";
  }
}
