package io.migd.bench.fragmentation;

import io.migd.bench.fragmentation.MigdPool.Held;
import io.migd.bench.fragmentation.MigdPool.HeldShare;
import io.migd.layout.DeviceNames;
import io.migd.ownership.CheckpointClaim;
import io.migd.pool.GpuFacts;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.DeviceRequest.Selector;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * How many claims for a fraction of a GPU a node admits when they share GPUs through consumable
 * capacity (issue 34, DESIGN section 14 "Fractions"), against exclusive MIG devices: an all-dynamic
 * node of 8 H100 whose GPUs all ask for shares, and a seeded stream of claim and release events,
 * each claim asking memory (1 to 40 GiB, uniform in MiB) and compute (5 to 50 % of the GPU,
 * uniform). Each claim is allocated by the test allocator (the 1.36.2 scheduler's rules) over the
 * pool {@code PoolBuilder} publishes at that moment:
 *
 * <ul>
 *   <li>shares: one share of a whole GPU's twin ({@code share.migd.io}, {@code type ==
 *       "gpu-share"}, so compute is a percent of the GPU) asking its memory and compute;
 *   <li>exclusive: one MIG device of the smallest profile holding both its memory and its compute
 *       (compute percent of the GPU's multiprocessors, as a share's compute is).
 * </ul>
 *
 * <p>Arguments: seeds (default 10, seeds 1..n), events per seed (default 2,000), offered load
 * (default 0.6: memory asked over the node's memory, on average), asks ({@code uniform}, the
 * default, or {@code log-uniform}). With {@code -Dfractions.order=fuller-gpu-first} or {@code
 * emptier-gpu-first} the shares meet the GPUs in that {@link ShareGpuOrder} experiment's order.
 */
public final class Fractions {
  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;

  /** What a claim asks: bytes of memory and a percent of a GPU's compute. */
  record Ask(long memory, int compute) {}

  /** What an admitted claim got: bytes of memory and percent of compute (the profile's, if MIG). */
  record Grant(Ask ask, long memory, long compute) {}

  /** What one run counted. */
  record Result(int claims, List<Grant> grants) {
    Result {
      grants = List.copyOf(grants);
    }

    int admitted() {
      return grants.size();
    }

    int refused() {
      return claims - admitted();
    }

    long asked() {
      return grants.stream().mapToLong(g -> g.ask().memory()).sum();
    }

    long granted() {
      return grants.stream().mapToLong(Grant::memory).sum();
    }

    Result plus(Result other) {
      var all = new ArrayList<>(grants);
      all.addAll(other.grants);
      return new Result(claims + other.claims, all);
    }
  }

  private Fractions() {}

  /** Runs every seed over shares and exclusive devices and prints one line per seed and totals. */
  public static void main(String[] args) {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    double load = args.length > 2 ? Double.parseDouble(args[2]) : 0.6;
    var asks =
        args.length > 3
            ? Asks.valueOf(args[3].toUpperCase(Locale.ROOT).replace('-', '_'))
            : Asks.UNIFORM;
    var order = ShareGpuOrder.fromSystemProperty();
    var gpus = Fragmentation.gpus();
    System.out.printf(
        Locale.ROOT,
        "%d x %s, %d events a seed, asks %s, offered load %.2f of %d GiB, shares' GPU order %s%n",
        Fragmentation.GPUS,
        Fragmentation.MODEL,
        count,
        asks.name().toLowerCase(Locale.ROOT).replace('_', '-'),
        load,
        nodeMemory(gpus) / GIB,
        order.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    System.out.println(
        "seed  claims   shares: admitted refused granted/asked"
            + "   exclusive: admitted refused granted/asked   ratio");
    long started = System.nanoTime();
    var results = new Result[seeds + 1][];
    // Seeds are independent and deterministic: run them on every core, print them in order.
    IntStream.rangeClosed(1, seeds)
        .parallel()
        .forEach(
            seed -> {
              var events = events(seed, count, load, asks, gpus);
              results[seed] = new Result[] {shares(events, gpus, order), exclusive(events, gpus)};
            });
    var sharesTotal = new Result(0, List.of());
    var exclusiveTotal = new Result(0, List.of());
    int atLeastHalfMore = 0;
    for (int seed = 1; seed <= seeds; seed++) {
      print(Integer.toString(seed), results[seed][0], results[seed][1]);
      sharesTotal = sharesTotal.plus(results[seed][0]);
      exclusiveTotal = exclusiveTotal.plus(results[seed][1]);
      atLeastHalfMore += ratio(results[seed][0], results[seed][1]) >= 1.5 ? 1 : 0;
    }
    print("all", sharesTotal, exclusiveTotal);
    System.out.printf(
        Locale.ROOT,
        "exclusive refused %.1f %%; shares admit >= 1.5x exclusive on %d of %d seeds; %.1f s%n",
        100.0 * exclusiveTotal.refused() / exclusiveTotal.claims(),
        atLeastHalfMore,
        seeds,
        (System.nanoTime() - started) / 1e9);
  }

  /** How claims draw their asks: memory from 1 to 40 GiB (in MiB), compute from 5 to 50 %. */
  enum Asks {
    /** Every amount as likely. */
    UNIFORM {
      @Override
      Ask draw(Random random) {
        return new Ask(
            (LEAST_MIB + random.nextLong(MOST_MIB - LEAST_MIB + 1)) * MIB,
            LEAST_COMPUTE + random.nextInt(MOST_COMPUTE - LEAST_COMPUTE + 1));
      }

      @Override
      double meanMemory() {
        return (LEAST_MIB + MOST_MIB) / 2.0 * MIB;
      }
    },
    /** Each doubling as likely: as many claims from 1 to 2 GiB as from 20 to 40 GiB. */
    LOG_UNIFORM {
      @Override
      Ask draw(Random random) {
        long mib = Math.round(logUniform(random, LEAST_MIB, MOST_MIB));
        int compute = (int) Math.round(logUniform(random, LEAST_COMPUTE, MOST_COMPUTE));
        return new Ask(mib * MIB, compute);
      }

      @Override
      double meanMemory() {
        return (MOST_MIB - LEAST_MIB) / Math.log((double) MOST_MIB / LEAST_MIB) * MIB;
      }
    };

    private static final long LEAST_MIB = 1024;
    private static final long MOST_MIB = 40 * 1024;
    private static final int LEAST_COMPUTE = 5;
    private static final int MOST_COMPUTE = 50;

    abstract Ask draw(Random random);

    /** The memory a claim asks on average, bytes. */
    abstract double meanMemory();

    private static double logUniform(Random random, double least, double most) {
      return least * Math.exp(random.nextDouble() * Math.log(most / least));
    }
  }

  /**
   * The first {@code count} events of seed {@code seed}: claims living long enough that the memory
   * they ask is {@code load} of the node's, on average.
   */
  static List<Workload.Event<Ask>> events(
      long seed, int count, double load, Asks asks, List<GpuFacts> gpus) {
    return Workload.events(seed, count, load * nodeMemory(gpus) / asks.meanMemory(), asks::draw);
  }

  /** Plays the events with each claim asking one share of a whole GPU's twin. */
  static Result shares(List<Workload.Event<Ask>> events, List<GpuFacts> gpus) {
    return shares(events, gpus, ShareGpuOrder.MIGD);
  }

  /** Plays the events as {@link #shares(List, List)} does, the GPUs' slices in {@code order}. */
  static Result shares(List<Workload.Event<Ask>> events, List<GpuFacts> gpus, ShareGpuOrder order) {
    var allocator = new TestAllocator();
    var held = new HashMap<Integer, HeldShare>();
    var grants = new ArrayList<Grant>();
    int claims = 0;
    long generation = 0;
    for (var event : events) {
      var claim = event.claim();
      String uid = "claim-" + claim.id();
      if (event.release()) {
        if (held.remove(claim.id()) != null) {
          allocator.release(uid);
        }
        continue;
      }
      claims++;
      var ask = claim.ask();
      var request =
          new DeviceRequest(
              "gpu",
              1,
              List.of(
                  new Selector.AllowsMultipleAllocations(true),
                  new Selector.TextIs("type", "gpu-share")),
              new TreeMap<>(Map.of("memory", ask.memory(), "compute", (long) ask.compute())));
      var content =
          order.apply(
              MigdPool.withShares(
                  Fragmentation.DRIVER, Fragmentation.NODE, gpus, List.of(), held.values()),
              held.values());
      var allocated =
          allocator.allocate(TestClaim.of(uid, request), PublishedSlice.of(content, ++generation));
      if (allocated.isEmpty()) {
        continue;
      }
      var result = allocated.get().results().getFirst();
      String device = DeviceNames.sharedDevice(result.device()).orElseThrow();
      if (!(DeviceNames.parse(device).orElse(null) instanceof DeviceNames.Parsed.WholeGpu whole)) {
        throw new IllegalStateException(result.device() + " is not a whole GPU's twin");
      }
      long memory = result.consumedCapacity().get("memory");
      long compute = result.consumedCapacity().get("compute");
      held.put(
          claim.id(),
          new HeldShare(
              result.device(),
              gpus.get(whole.minor()),
              claim.id(),
              new CheckpointClaim.Share(result.shareId().orElseThrow(), memory, (int) compute)));
      grants.add(new Grant(ask, memory, compute));
    }
    return new Result(claims, grants);
  }

  /**
   * Plays the events with each claim asking one exclusive MIG device of the smallest profile that
   * holds its memory and its compute.
   */
  static Result exclusive(List<Workload.Event<Ask>> events, List<GpuFacts> gpus) {
    var asks = new HashMap<String, Ask>();
    var profiles = new ArrayList<Workload.Event<GpuFacts.MigProfile>>();
    for (var event : events) {
      var claim = event.claim();
      asks.put("claim-" + claim.id(), claim.ask());
      var profile = smallestProfile(claim.ask(), gpus.getFirst());
      profiles.add(
          new Workload.Event<>(
              event.at(),
              new Workload.Claim<>(claim.id(), claim.arrives(), claim.leaves(), profile),
              event.release()));
    }
    var node = new Exclusive(gpus, asks);
    var counted = Fragmentation.run(profiles, gpus, node, _ -> {});
    return new Result(counted.claims(), node.grants);
  }

  /**
   * The smallest profile (fewest memory slices, then fewest multiprocessors) with at least the
   * asked memory and at least {@code compute} percent of the GPU's multiprocessors: a share's
   * compute is a percent of its device's multiprocessors (MPS's active thread percentage), so the
   * exclusive device must offer as many ({@code 1g.10gb} has 16 of an H100's 132, 12 %).
   */
  static GpuFacts.MigProfile smallestProfile(Ask ask, GpuFacts gpu) {
    long needed = ((long) ask.compute() * gpuMultiprocessors(gpu) + 99) / 100;
    return gpu.profiles().stream()
        .filter(p -> !p.name().contains("+"))
        .filter(p -> p.multiprocessors() >= needed && p.memoryMiB() * MIB >= ask.memory())
        .min(
            Comparator.comparingInt(GpuFacts.MigProfile::sliceCount)
                .thenComparingInt(GpuFacts.MigProfile::multiprocessors))
        .orElseThrow(() -> new IllegalArgumentException("no profile holds " + ask));
  }

  /** The GPU's multiprocessors: its largest profile's (132 on an H100). */
  static int gpuMultiprocessors(GpuFacts gpu) {
    return gpu.profiles().stream()
        .mapToInt(GpuFacts.MigProfile::multiprocessors)
        .max()
        .orElseThrow();
  }

  /**
   * The node in process for exclusive claims: migd's pool with twins, republished before each
   * claim, and a request for {@code type == "mig"} and the profile, as a class for exclusive MIG
   * devices writes it.
   */
  private static final class Exclusive implements Fragmentation.Node {
    private final List<GpuFacts> gpus;
    private final Map<String, Ask> asks;
    private final TestAllocator allocator = new TestAllocator();
    private final List<Grant> grants = new ArrayList<>();
    private long generation;

    Exclusive(List<GpuFacts> gpus, Map<String, Ask> asks) {
      this.gpus = gpus;
      this.asks = asks;
    }

    @Override
    public Optional<String> place(String uid, GpuFacts.MigProfile profile, Collection<Held> held) {
      var content =
          MigdPool.withShares(Fragmentation.DRIVER, Fragmentation.NODE, gpus, held, List.of());
      var request =
          new DeviceRequest(
              "mig",
              1,
              List.of(
                  new Selector.TextIs("type", "mig"),
                  new Selector.TextIs("profile", profile.name())));
      Optional<String> device =
          allocator
              .allocate(TestClaim.of(uid, request), PublishedSlice.of(content, ++generation))
              .map(allocated -> TestAllocator.deviceNames(allocated).getFirst());
      if (device.isPresent()) {
        grants.add(
            new Grant(
                asks.get(uid),
                profile.memoryMiB() * MIB,
                100L * profile.multiprocessors() / gpuMultiprocessors(gpus.getFirst())));
      }
      return device;
    }

    @Override
    public void release(String uid) {
      allocator.release(uid);
    }
  }

  private static long nodeMemory(List<GpuFacts> gpus) {
    return gpus.stream().mapToLong(GpuFacts::memoryBytes).sum();
  }

  private static double ratio(Result shares, Result exclusive) {
    return (double) shares.admitted() / exclusive.admitted();
  }

  private static void print(String seed, Result shares, Result exclusive) {
    System.out.printf(
        Locale.ROOT,
        "%4s  %6d  %16d %7d %13.3f  %19d %7d %13.3f  %6.2f%n",
        seed,
        shares.claims(),
        shares.admitted(),
        shares.refused(),
        (double) shares.granted() / shares.asked(),
        exclusive.admitted(),
        exclusive.refused(),
        (double) exclusive.granted() / exclusive.asked(),
        ratio(shares, exclusive));
  }
}
