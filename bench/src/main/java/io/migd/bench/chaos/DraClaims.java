package io.migd.bench.chaos;

import io.migd.claims.AllocatedClaim;
import io.migd.dra.FakeDraKubelet;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.InvalidPoolException;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The kubelet's side of a chaos run in DRA mode: claims allocated by the test allocator from the
 * published pool ({@link DraPoolReader}), created in the API server ({@link ClaimObjects}),
 * prepared and unprepared over the real sockets ({@link DraCalls}), and the runner's ledger of
 * them, which {@link DraInvariants} checks against NVML and migd's checkpoint.
 */
final class DraClaims {
  /**
   * A claim the kubelet knows: prepared (its answer was success), or in doubt.
   *
   * @param shares its shares of shareable twins, one per device; empty for a claim of exclusive
   *     devices
   */
  record Known(
      String name, String uid, List<String> devices, boolean prepared, List<Share> shares) {
    Known {
      devices = List.copyOf(devices);
      shares = List.copyOf(shares);
    }

    /** The sharing its opaque configs ask for: none for shares (MPS limits come with them). */
    ChaosSharing sharing(boolean mpsServed) {
      return shares.isEmpty() ? ChaosSharing.of(name, mpsServed) : ChaosSharing.NONE;
    }
  }

  /** A share of twin {@code device} as the allocator gave it, with its {@code consumedCapacity}. */
  record Share(String device, String shareId, Map<String, Long> consumed) {
    Share {
      consumed = Map.copyOf(consumed);
    }

    static Share of(AllocatedClaim.Result result) {
      return new Share(result.device(), result.shareId().orElseThrow(), result.consumedCapacity());
    }

    /** Its {@code memory}, bytes. */
    long memoryBytes() {
      return consumed.getOrDefault(MEMORY, 0L);
    }

    /** Its {@code compute}, percent of the device's multiprocessors. */
    long compute() {
      return consumed.getOrDefault(COMPUTE, 0L);
    }
  }

  /** A twin's capacity in bytes, and in percent of its multiprocessors. */
  static final String MEMORY = "memory";

  static final String COMPUTE = "compute";

  /** How long a prepare waits for the published pool to be whole and readable. */
  private static final Duration POOL_PATIENCE = Duration.ofSeconds(3);

  /**
   * The same once the node settled (and the wait for migd's registration then): a pool still not
   * whole, or migd not registered, then is a finding.
   */
  private static final Duration SETTLED_POOL_PATIENCE = Duration.ofSeconds(30);

  private final ChaosNode node;
  private final ChaosReport report;
  private final UnaryOperator<PoolSlice> order;
  private final TestAllocator allocator = new TestAllocator();
  private final List<Known> known = new ArrayList<>();

  /** Each shareable twin's capacities as last published (a name's never change). */
  private final Map<String, Map<String, Long>> twins = new HashMap<>();

  private final ClaimObjects objects;
  private final DraCalls calls;
  private final DraPoolReader pool;
  private final DraInvariants invariants;

  DraClaims(ChaosNode node, ChaosReport report) {
    this(node, report, UnaryOperator.identity());
  }

  /**
   * Claims allocated from the published slices as {@code order} lists their devices (the
   * scheduler's view of another driver's order; the identity for migd's own).
   */
  DraClaims(ChaosNode node, ChaosReport report, UnaryOperator<PoolSlice> order) {
    this.node = node;
    this.report = report;
    this.order = order;
    this.objects = new ClaimObjects(node);
    this.calls = new DraCalls(node, report);
    this.pool = new DraPoolReader(node, report);
    this.invariants = new DraInvariants(node, report);
  }

  /** The claims whose prepare answered success and that were not unprepared since. */
  List<Known> prepared() {
    return known.stream().filter(Known::prepared).toList();
  }

  /**
   * Allocates a claim for {@code request} from the published pool, creates it and prepares it;
   * returns how that went.
   */
  String prepare(int step, String request, String name) throws InterruptedException {
    return prepare(step, request, name, POOL_PATIENCE);
  }

  private String prepare(int step, String request, String name, Duration poolPatience)
      throws InterruptedException {
    // once the node settled, migd registers again within its socket check (slow on a loaded box)
    Optional<FakeDraKubelet.Plugin> plugin =
        poolPatience.equals(SETTLED_POOL_PATIENCE)
            ? node.draPlugin(SETTLED_POOL_PATIENCE)
            : node.draPlugin();
    if (plugin.isEmpty()) {
      return "migd not registered";
    }
    // a generation being written is incomplete for a moment, and an outage hides it
    Optional<List<PublishedSlice>> pool = this.pool.read(step, poolPatience);
    if (pool.isEmpty()) {
      return "pool not readable";
    }
    rememberTwins(pool.get());
    Optional<AllocatedClaim> allocation;
    try {
      allocation =
          allocator.allocate(
              TestClaim.of(name, deviceRequest(request)),
              pool.get().stream()
                  .map(
                      s ->
                          new PublishedSlice(
                              s.driver(),
                              s.pool(),
                              order.apply(s.slice()),
                              s.generation(),
                              s.sliceCount()))
                  .toList());
    } catch (InvalidPoolException e) {
      report.violation(step, "the published pool is valid", e.getMessage());
      return "invalid pool";
    }
    if (allocation.isEmpty()) {
      return "does not fit" + DraPoolReader.whyNothingFits(deviceRequest(request), pool.get());
    }
    List<Share> shares =
        allocation.get().results().stream()
            .filter(r -> r.shareId().isPresent())
            .map(Share::of)
            .toList();
    String uid;
    try {
      uid =
          shares.isEmpty()
              ? objects.create(name, TestAllocator.deviceNames(allocation.get()))
              : objects.createShares(name, deviceRequest(request).capacity(), shares);
    } catch (RuntimeException e) {
      allocator.release(name);
      return "API server refused the claim";
    }
    var claim = new Known(name, uid, TestAllocator.deviceNames(allocation.get()), false, shares);
    known.add(claim);
    return prepare(step, plugin.get(), claim);
  }

  private String prepare(int step, FakeDraKubelet.Plugin plugin, Known claim) {
    Optional<String> failed = calls.prepare(step, plugin, claim);
    if (failed.isPresent()) {
      return failed.get();
    }
    replace(claim, true);
    report.preparedWith(
        claim.shares().isEmpty()
            ? claim.sharing(node.mpsRoot().isPresent()).name()
            : "SHARE of a twin");
    return "prepared";
  }

  /** Unprepares the {@code which}-th claim the kubelet knows; deletes it once that succeeded. */
  String unprepare(int step, int which) throws InterruptedException {
    if (known.isEmpty()) {
      return "no claim";
    }
    Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin();
    if (plugin.isEmpty()) {
      return "migd not registered";
    }
    return unprepare(step, plugin.get(), known.get(which % known.size()));
  }

  /** Unprepares the claim named {@code name}; deletes it once that succeeded. */
  String unprepare(int step, String name) throws InterruptedException {
    Optional<Known> claim = claimNamed(name);
    if (claim.isEmpty()) {
      return "no claim";
    }
    Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin();
    if (plugin.isEmpty()) {
      return "migd not registered";
    }
    return unprepare(step, plugin.get(), claim.get());
  }

  /** The devices the kubelet's claim {@code name} was allocated; empty when there is none. */
  List<String> devices(String name) {
    return claimNamed(name).map(Known::devices).orElse(List.of());
  }

  private String unprepare(int step, FakeDraKubelet.Plugin plugin, Known claim) {
    // from the call on, the claim's instance may be half destroyed until migd answers
    replace(claim, false);
    Optional<String> failed = calls.unprepare(step, plugin, claim);
    if (failed.isPresent()) {
      return failed.get();
    }
    known.removeIf(k -> k.uid().equals(claim.uid()));
    allocator.release(claim.name());
    objects.delete(claim.name());
    return claim.prepared() ? "unprepared" : "unprepared (was in doubt)";
  }

  /**
   * At a settle: unprepares every claim in doubt and every prepared one {@code keep} does not keep
   * (retrying while migd answers an error), deletes them; returns the claims left prepared, or
   * empty when an unprepare did not succeed within {@code patience} (a violation).
   */
  Optional<List<Known>> unprepareAllBut(int step, boolean keepEveryOther, long deadlineNanos)
      throws InterruptedException {
    var keep = new ArrayList<Known>();
    var go = new ArrayList<Known>();
    int i = 0;
    for (Known k : known) {
      if (k.prepared() && keepEveryOther && i++ % 2 == 0) {
        keep.add(k);
      } else {
        go.add(k);
      }
    }
    for (Known claim : go) {
      String outcome = "";
      while (System.nanoTime() < deadlineNanos) {
        Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin();
        if (plugin.isPresent()) {
          outcome = unprepare(step, plugin.get(), claim);
          if (outcome.startsWith("unprepared")) {
            break;
          }
        }
        Thread.sleep(500);
      }
      if (!outcome.startsWith("unprepared")) {
        report.violation(
            step,
            "a claim unprepares once the faults stopped",
            claim.name() + " " + claim.devices() + ": " + outcome);
        return Optional.empty();
      }
    }
    while (objects.pending() && System.nanoTime() < deadlineNanos) {
      objects.deletePending();
      if (objects.pending()) {
        Thread.sleep(500);
      }
    }
    return Optional.of(List.copyOf(keep));
  }

  /**
   * At a settle, on a converged node: a fresh claim for each request that the pool still fits is
   * allocated, prepared (it must succeed, its instance must show in NVML), then unprepared.
   */
  void probe(int step, List<String> requests) throws InterruptedException {
    int n = 0;
    for (String request : requests) {
      String name = "probe-" + step + "-" + n++;
      String outcome = prepare(step, request, name, SETTLED_POOL_PATIENCE);
      // The API server's pool can lag migd's for a while after an outage (a republish waits out
      // its backoff), as a scheduler's view does: a device migd withdrew is refused, not wrong.
      // Like a rescheduled pod, the claim goes and a new one is allocated from the newer pool;
      // still refused once SETTLED_POOL_PATIENCE has passed is a violation.
      long until = System.nanoTime() + SETTLED_POOL_PATIENCE.toNanos();
      while (outcome.contains("(not published now)") && System.nanoTime() < until) {
        release(step, name);
        Thread.sleep(1_000);
        name = "probe-" + step + "-" + n++;
        outcome = prepare(step, request, name, SETTLED_POOL_PATIENCE);
      }
      if (outcome.startsWith("does not fit")) {
        continue;
      }
      if (!outcome.equals("prepared")) {
        report.violation(
            step, "a fresh claim can be prepared once the node settled", request + ": " + outcome);
      } else {
        invariants.checkInstances(step, node.nvml(), prepared());
      }
      Optional<Known> claim = claimNamed(name);
      if (claim.isEmpty()) {
        continue;
      }
      Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin(SETTLED_POOL_PATIENCE);
      String unprepared =
          plugin.isEmpty() ? "migd not registered" : unprepare(step, plugin.get(), claim.get());
      if (!unprepared.startsWith("unprepared")) {
        report.violation(
            step,
            "a fresh claim can be unprepared once the node settled",
            request + ": " + unprepared);
      }
    }
  }

  /** A probe claim that was not prepared: unprepared (nothing to undo) and deleted. */
  private void release(int step, String name) throws InterruptedException {
    Optional<Known> claim = claimNamed(name);
    Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin(SETTLED_POOL_PATIENCE);
    if (claim.isPresent() && plugin.isPresent()) {
      unprepare(step, plugin.get(), claim.get());
    }
  }

  private void replace(Known claim, boolean prepared) {
    known.replaceAll(
        k ->
            k.uid().equals(claim.uid())
                ? new Known(k.name(), k.uid(), k.devices(), prepared, k.shares())
                : k);
  }

  private Optional<Known> claimNamed(String name) {
    return known.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /**
   * The invariants that hold at any moment while migd runs: every prepared claim's instance exists
   * at its placement with its profile (the ledger's claims and the checkpoint's completed ones), no
   * two prepared claims overlap.
   */
  void check(int step) {
    invariants.check(step, known, twins);
  }

  private void rememberTwins(List<PublishedSlice> pool) {
    for (PublishedSlice slice : pool) {
      if (slice.slice().content() instanceof PoolSlice.Devices(var _, var devices)) {
        devices.stream().filter(PoolDevice::shared).forEach(d -> twins.put(d.name(), d.capacity()));
      }
    }
  }

  /** Also each operation: the published pool, when readable and whole, is valid. */
  void checkPool(int step) {
    pool.read(step);
  }

  /**
   * {@code profile=<name>} or {@code type=<type>} (an exclusive device, never a twin), or {@code
   * share=<MiB>Mi,<percent>} (a share of a twin asking that much memory and compute), as the
   * operation names it.
   */
  static DeviceRequest deviceRequest(String request) {
    String[] f = request.split("=", 2);
    var exclusive = new DeviceRequest.Selector.AllowsMultipleAllocations(false);
    return switch (f[0]) {
      case "profile" ->
          new DeviceRequest(
              "gpu", 1, List.of(new DeviceRequest.Selector.TextIs("profile", f[1]), exclusive));
      case "type" ->
          new DeviceRequest(
              "gpu", 1, List.of(new DeviceRequest.Selector.TextIs("type", f[1]), exclusive));
      case "share" -> {
        String[] asked = f[1].split(",", 2);
        long mib = Long.parseLong(asked[0].substring(0, asked[0].length() - "Mi".length()));
        yield DeviceRequest.share(
            "gpu", Map.of(MEMORY, mib << 20, COMPUTE, Long.parseLong(asked[1])));
      }
      default -> throw new IllegalArgumentException("not a request: " + request);
    };
  }
}
