package io.migd.bench.fragmentation;

import io.migd.bench.fragmentation.MigdPool.Held;
import io.migd.layout.DeviceNames;
import io.migd.pool.Facts;
import io.migd.pool.GpuFacts;
import io.migd.pool.PoolContent;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * How often a claim is refused although a GPU's free memory slices would hold it (fragmentation),
 * when the scheduler allocates first-fit over migd's device order versus NVIDIA's (issue 18,
 * "Benchmarks"): an all-dynamic node of 8 H100, a seeded stream of claim and release events for
 * profiles 1g:2g:3g:4g:7g = 50:20:15:10:5, each claim allocated by the test allocator (the 1.36
 * scheduler's rules) over the pool as published at that moment, and prepared at once.
 *
 * <p>Arguments: seeds (default 20, seeds 1..n), events per seed (default 10,000), offered load
 * (default 0.9: memory slices asked for over the node's, on average), and optionally one seed to
 * trace: only that seed runs, and migd's order prints the node at each refusal. With {@code
 * -Dfragmentation.order=fuller-gpu-first} the first column is the {@link FullerGpuFirst} experiment
 * instead of migd's order.
 */
public final class Fragmentation {
  static final String DRIVER = "gpu.nvidia.com";
  static final String NODE = "bench-node";
  static final String MODEL = "H100-SXM5-80GB";
  static final int GPUS = 8;

  /** An order: the pool published over the node's GPUs and the devices claims hold. */
  interface Order {
    PoolContent pool(List<GpuFacts> gpus, Collection<Held> held);
  }

  /** migd's order: the pool as {@code PoolBuilder} builds it. */
  static final Order MIGD_ORDER = (gpus, held) -> MigdPool.build(DRIVER, NODE, gpus, held);

  /** The experiment {@link FullerGpuFirst}: migd's devices, fuller GPUs' slices first. */
  static final Order FULLER_GPU_FIRST =
      (gpus, held) -> FullerGpuFirst.of(MIGD_ORDER.pool(gpus, held), held);

  /** NVIDIA's order: the same devices, each GPU's sorted by name. */
  static final Order NVIDIA_ORDER = (gpus, held) -> NvidiaOrder.of(MIGD_ORDER.pool(gpus, held));

  private static final Map<String, Integer> MIX =
      Map.of("1g.10gb", 50, "2g.20gb", 20, "3g.40gb", 15, "4g.40gb", 10, "7g.80gb", 5);

  /**
   * What one run counted.
   *
   * @param stranded refused although a GPU had as many free memory slices as the profile takes
   * @param movable refused although a GPU could hold it with its instances placed elsewhere
   */
  record Result(int claims, int refused, int stranded, int movable) {
    Result plus(Result other) {
      return new Result(
          claims + other.claims,
          refused + other.refused,
          stranded + other.stranded,
          movable + other.movable);
    }
  }

  private Fragmentation() {}

  /** Runs every seed over both orders and prints one line per seed and the totals. */
  public static void main(String[] args) {
    Order first =
        switch (System.getProperty("fragmentation.order", "migd")) {
          case "migd" -> MIGD_ORDER;
          case "fuller-gpu-first" -> FULLER_GPU_FIRST;
          default ->
              throw new IllegalArgumentException("-Dfragmentation.order: migd or fuller-gpu-first");
        };
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    double load = args.length > 2 ? Double.parseDouble(args[2]) : 0.9;
    var gpus = gpus();
    var mix = mix(gpus);
    int memorySlices = nodeMemorySlices(gpus);
    System.out.printf(
        Locale.ROOT,
        "%d x %s, %d events a seed, offered load %.2f of %d memory slices%n",
        GPUS,
        MODEL,
        count,
        load,
        memorySlices);
    System.out.println(
        "seed  claims   migd: stranded movable refused   nvidia: stranded movable refused");
    long started = System.nanoTime();
    var migdTotal = new Result(0, 0, 0, 0);
    var nvidiaTotal = new Result(0, 0, 0, 0);
    int strandsMore = 0;
    int refusesMore = 0;
    if (args.length > 3) {
      int seed = Integer.parseInt(args[3]);
      var events = Workload.events(seed, count, mix, load, memorySlices);
      print(
          args[3],
          run(events, gpus, first, System.out::println),
          run(events, gpus, NVIDIA_ORDER, _ -> {}));
      return;
    }
    // Seeds are independent and deterministic: run them on every core, print them in order.
    var results = new Result[seeds + 1][];
    IntStream.rangeClosed(1, seeds)
        .parallel()
        .forEach(
            seed -> {
              var events = Workload.events(seed, count, mix, load, memorySlices);
              results[seed] =
                  new Result[] {
                    run(events, gpus, first, _ -> {}), run(events, gpus, NVIDIA_ORDER, _ -> {})
                  };
            });
    for (int seed = 1; seed <= seeds; seed++) {
      var migd = results[seed][0];
      var nvidia = results[seed][1];
      print(Integer.toString(seed), migd, nvidia);
      migdTotal = migdTotal.plus(migd);
      nvidiaTotal = nvidiaTotal.plus(nvidia);
      strandsMore += migd.stranded() > nvidia.stranded() ? 1 : 0;
      refusesMore += migd.refused() > nvidia.refused() ? 1 : 0;
    }
    print("all", migdTotal, nvidiaTotal);
    System.out.printf(
        Locale.ROOT,
        "migd/nvidia: stranded %.3f, refused %.3f; seeds where migd strands more %d, refuses more"
            + " %d; %.1f s%n",
        (double) migdTotal.stranded() / nvidiaTotal.stranded(),
        (double) migdTotal.refused() / nvidiaTotal.refused(),
        strandsMore,
        refusesMore,
        (System.nanoTime() - started) / 1e9);
  }

  /** The node's GPUs: {@value #GPUS} x {@value #MODEL}, facts of the built-in catalogue. */
  static List<GpuFacts> gpus() {
    var model = Facts.model(MODEL);
    return IntStream.range(0, GPUS).mapToObj(i -> Facts.of(model, i)).toList();
  }

  /** The claims' profiles and their weights, 1g:2g:3g:4g:7g = 50:20:15:10:5. */
  static List<Workload.Share> mix(List<GpuFacts> gpus) {
    return gpus.getFirst().profiles().stream()
        .filter(p -> MIX.containsKey(p.name()))
        .map(p -> new Workload.Share(p, MIX.get(p.name())))
        .toList();
  }

  /** The node's memory slices, for the offered load. */
  static int nodeMemorySlices(List<GpuFacts> gpus) {
    return gpus.stream().mapToInt(Fragmentation::memorySlices).sum();
  }

  private static void print(String seed, Result migd, Result nvidia) {
    System.out.printf(
        Locale.ROOT,
        "%4s  %6d  %15d %7d %7d  %16d %7d %7d%n",
        seed,
        migd.claims(),
        migd.stranded(),
        migd.movable(),
        migd.refused(),
        nvidia.stranded(),
        nvidia.movable(),
        nvidia.refused());
  }

  /**
   * Where the claims go: a claim is allocated one device of its profile from the pool as published
   * now and prepared, or refused; a placed claim is unprepared and its device freed.
   */
  interface Node {
    /**
     * Allocates and prepares claim {@code uid} one device of {@code profile}, {@code held} being
     * the claims placed and not released; the device's name, or empty when nothing fits.
     */
    Optional<String> place(String uid, GpuFacts.MigProfile profile, Collection<Held> held);

    /** Unprepares placed claim {@code uid} and frees its device. */
    void release(String uid);
  }

  /**
   * The node in process: before each claim the pool {@code order} builds from the held claims is
   * published again (the order may have moved after the previous prepare), and the test allocator
   * takes the first device that fits.
   */
  static final class InProcess implements Node {
    private final List<GpuFacts> gpus;
    private final Order order;
    private final TestAllocator allocator = new TestAllocator();
    private long generation;

    InProcess(List<GpuFacts> gpus, Order order) {
      this.gpus = List.copyOf(gpus);
      this.order = order;
    }

    @Override
    public Optional<String> place(String uid, GpuFacts.MigProfile profile, Collection<Held> held) {
      var content = order.pool(gpus, held);
      return allocator
          .allocate(
              TestClaim.of(uid, DeviceRequest.profile("mig", profile.name())),
              PublishedSlice.of(content, ++generation))
          .map(allocated -> TestAllocator.deviceNames(allocated).getFirst());
    }

    @Override
    public void release(String uid) {
      allocator.release(uid);
    }
  }

  /**
   * Plays the events against a fresh allocator over the pool {@code order} publishes, telling
   * {@code refusals} the node's state at each refusal.
   */
  static Result run(
      List<Workload.Event<GpuFacts.MigProfile>> events,
      List<GpuFacts> gpus,
      Order order,
      Consumer<String> refusals) {
    return run(events, gpus, new InProcess(gpus, order), refusals);
  }

  /** Plays the events against {@code node}, telling {@code refusals} the node's state at each. */
  static Result run(
      List<Workload.Event<GpuFacts.MigProfile>> events,
      List<GpuFacts> gpus,
      Node node,
      Consumer<String> refusals) {
    var held = new HashMap<Integer, Held>();
    int claims = 0;
    int refused = 0;
    int stranded = 0;
    int movable = 0;
    for (var event : events) {
      var claim = event.claim();
      String uid = "claim-" + claim.id();
      if (event.release()) {
        if (held.remove(claim.id()) != null) {
          node.release(uid);
        }
        continue;
      }
      claims++;
      Optional<String> device = node.place(uid, claim.ask(), held.values());
      if (device.isPresent()) {
        if (!(DeviceNames.parse(device.get()).orElse(null) instanceof DeviceNames.Parsed.Mig mig)) {
          throw new IllegalStateException(device.get() + " is not a MIG placement");
        }
        held.put(
            claim.id(),
            new Held(device.get(), gpus.get(mig.minor()), claim.ask(), mig.start(), claim.id()));
      } else {
        refused++;
        boolean fits = wouldFit(claim.ask(), gpus, held);
        boolean moves = couldMove(claim.ask(), gpus, held);
        stranded += fits ? 1 : 0;
        movable += moves ? 1 : 0;
        refusals.accept(
            "claim %d %s refused%s%s: %s"
                .formatted(
                    claim.id(),
                    claim.ask().name(),
                    fits ? " stranded" : "",
                    moves ? " movable" : "",
                    occupancy(gpus, held.values())));
      }
    }
    return new Result(claims, refused, stranded, movable);
  }

  /** Each GPU's memory slices: {@code .} free, else the held profile's first digit. */
  private static String occupancy(List<GpuFacts> gpus, Collection<Held> held) {
    var out = new StringBuilder();
    for (var gpu : gpus) {
      var slices = new char[memorySlices(gpu)];
      Arrays.fill(slices, '.');
      held.stream()
          .filter(h -> h.gpu().equals(gpu))
          .forEach(
              h ->
                  Arrays.fill(
                      slices,
                      h.start(),
                      h.start() + h.profile().sliceCount(),
                      h.profile().name().charAt(0)));
      out.append(out.isEmpty() ? "" : " ").append(slices);
    }
    return out.toString();
  }

  private static int memorySlices(GpuFacts gpu) {
    return gpu.profiles().stream()
        .flatMap(p -> p.placements().stream())
        .mapToInt(at -> at.start() + at.size())
        .max()
        .orElse(0);
  }

  /** Whether some GPU's free memory slices are as many as the profile takes. */
  private static boolean wouldFit(
      GpuFacts.MigProfile profile, List<GpuFacts> gpus, Map<Integer, Held> held) {
    for (var gpu : gpus) {
      int used =
          held.values().stream()
              .filter(h -> h.gpu().equals(gpu))
              .mapToInt(h -> h.profile().sliceCount())
              .sum();
      if (memorySlices(gpu) - used >= profile.sliceCount()) {
        return true;
      }
    }
    return false;
  }

  /** Whether some GPU holds its claims' profiles and this one too, at placements of its own. */
  private static boolean couldMove(
      GpuFacts.MigProfile profile, List<GpuFacts> gpus, Map<Integer, Held> held) {
    for (var gpu : gpus) {
      var wanted = new ArrayList<GpuFacts.MigProfile>();
      wanted.add(profile);
      held.values().stream().filter(h -> h.gpu().equals(gpu)).forEach(h -> wanted.add(h.profile()));
      wanted.sort(Comparator.comparingInt(GpuFacts.MigProfile::sliceCount).reversed());
      if (place(wanted, 0, 0L)) {
        return true;
      }
    }
    return false;
  }

  private static boolean place(List<GpuFacts.MigProfile> wanted, int next, long used) {
    if (next == wanted.size()) {
      return true;
    }
    for (var at : wanted.get(next).placements()) {
      long mask = ((1L << at.size()) - 1) << at.start();
      if ((used & mask) == 0 && place(wanted, next + 1, used | mask)) {
        return true;
      }
    }
    return false;
  }
}
