package io.migd.pool.testing;

import io.migd.claims.AllocatedClaim;
import io.migd.pool.CounterConsumption;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A stand-in for the Kubernetes 1.36 scheduler's structured allocator ({@code reference/dra-api.md}
 * section 6, and KEP-5075's consumable capacity as {@code dynamic-resource-allocation} v0.36.2
 * implements it), for tests and benchmarks: it reads published slices the way the scheduler does
 * and remembers what it allocated, so counters and shares hold across claims.
 *
 * <ul>
 *   <li>Only each pool's highest generation counts. A pool that is incomplete or breaks the API's
 *       rules ({@link PoolValidator}) makes {@link #allocate} throw {@link InvalidPoolException}
 *       (the scheduler would allocate nothing from it; a test must fail instead).
 *   <li>Pools by driver then name, slices by name, devices in listed order; the first solution of a
 *       backtracking search over the claim's requests wins. One request never gets a device twice.
 *   <li>Devices tainted {@code NoSchedule} or {@code NoExecute} are skipped (no tolerations).
 *   <li>A device allocated to a claim alone is not allocated again until {@link #release}. What it
 *       consumes of shared counters is what the highest generation publishes it consuming now, as
 *       the scheduler computes it (Kubernetes' {@code checkAvailableCounters} sums the {@code
 *       consumesCounters} of allocated devices found in the current slices): a whole GPU allocated
 *       while it was published static (no counters) holds its whole counter set once it is
 *       published dynamic; a device no longer published consumes nothing.
 *   <li>A device that allows multiple allocations is never in use: each allocation is a share with
 *       a random {@code shareID} and its {@code consumedCapacity} ({@link ConsumedCapacity}), and
 *       the shares' sum of each capacity, committed and in this search, stays within its value. Two
 *       requests of one claim may share a device. Its counters are taken once, by its first share,
 *       and freed with its last (unless {@link SchedulerBugs#SHARES_IGNORED_IN_COUNTERS}).
 * </ul>
 */
public final class TestAllocator {
  private final Set<SchedulerBugs> bugs;
  private final Map<String, List<AllocatedClaim.Result>> byClaim = new LinkedHashMap<>();

  /** A device the search may take: where it is published, and the device. */
  private record Candidate(PoolKey pool, PoolDevice device) {
    DeviceId id() {
      return new DeviceId(pool, device.name());
    }

    /** The allocation result of this device for {@code request}, with no DeviceClass known. */
    AllocatedClaim.Result result(
        String request, Optional<String> shareId, SortedMap<String, Long> consumed) {
      return new AllocatedClaim.Result(
          request, pool.driver(), pool.pool(), device.name(), false, "", shareId, consumed);
    }
  }

  /** Counter key: pool, counter set, counter. */
  private record Counter(PoolKey pool, String set, String name) {}

  /** A device of a pool. */
  private record DeviceId(PoolKey pool, String device) {
    static DeviceId of(AllocatedClaim.Result result) {
      return new DeviceId(new PoolKey(result.driver(), result.pool()), result.device());
    }
  }

  /** An allocator with the given bugs of released schedulers; none: Kubernetes 1.36.2 and later. */
  public TestAllocator(SchedulerBugs... bugs) {
    this.bugs =
        bugs.length == 0 ? EnumSet.noneOf(SchedulerBugs.class) : EnumSet.copyOf(List.of(bugs));
  }

  /**
   * Allocates every request of {@code claim} from the published slices, or nothing.
   *
   * @return the claim as the API server holds it once allocated, or empty when the requests do not
   *     fit (every request must be satisfied)
   * @throws InvalidPoolException when a pool is incomplete or invalid
   * @throws IllegalStateException when the claim is allocated already
   */
  public Optional<AllocatedClaim> allocate(TestClaim claim, List<PublishedSlice> published) {
    if (byClaim.containsKey(claim.uid())) {
      throw new IllegalStateException("claim " + claim.uid() + " is allocated already");
    }
    var pools = PoolValidator.requireValid(published);
    var candidates = new ArrayList<Candidate>();
    var capacity = new HashMap<Counter, Long>();
    pools.forEach(
        (key, slices) -> {
          for (var slice : slices) {
            switch (slice.slice().content()) {
              case PoolSlice.Counters(var sets) ->
                  sets.forEach(
                      set ->
                          set.counters()
                              .forEach(
                                  (name, value) ->
                                      capacity.put(new Counter(key, set.name(), name), value)));
              case PoolSlice.Devices(var _, var devices) ->
                  devices.forEach(d -> candidates.add(new Candidate(key, d)));
            }
          }
        });
    var search = new Search(claim.requests(), candidates, capacity);
    commit(search, candidates);
    if (!search.solve(0, 0, 0)) {
      return Optional.empty();
    }
    var results = search.chosen.stream().map(Pick::result).toList();
    byClaim.put(claim.uid(), results);
    return Optional.of(
        new AllocatedClaim(
            claim.uid(), claim.namespace(), claim.name(), true, results, List.of(), List.of()));
  }

  /**
   * Tells the search what other claims hold, as the scheduler rebuilds it each cycle: devices
   * allocated alone are in use and consume their counters; devices with shares add up the shares'
   * {@code consumedCapacity} and consume their counters once.
   */
  private void commit(Search search, List<Candidate> candidates) {
    var listed = new HashMap<DeviceId, Candidate>();
    candidates.forEach(c -> listed.put(c.id(), c));
    var counted = new HashSet<DeviceId>();
    for (var results : byClaim.values()) {
      for (var result : results) {
        var id = DeviceId.of(result);
        if (result.shareId().isEmpty()) {
          search.taken.add(id);
        } else if (!result.consumedCapacity().isEmpty()) {
          result
              .consumedCapacity()
              .forEach(
                  (name, amount) ->
                      search
                          .committed
                          .computeIfAbsent(id, _ -> new HashMap<>())
                          .merge(name, amount, Long::sum));
        }
        boolean countsCounters =
            result.shareId().isEmpty() || !bugs.contains(SchedulerBugs.SHARES_IGNORED_IN_COUNTERS);
        var candidate = listed.get(id);
        if (countsCounters && candidate != null && counted.add(id)) {
          search.consume(candidate.pool(), candidate.device().consumes(), 1);
        }
      }
    }
  }

  /**
   * Frees the claim's devices and shares and what they consumed; a claim not allocated is a no-op.
   */
  public void release(String claimUid) {
    byClaim.remove(claimUid);
  }

  /** The names of the devices allocated to {@code claim}, in result order. */
  public static List<String> deviceNames(AllocatedClaim claim) {
    return claim.results().stream().map(AllocatedClaim.Result::device).toList();
  }

  /** The devices allocated to any claim, alone or as shares, by name. */
  public Set<String> allocatedDevices() {
    var names = new HashSet<String>();
    byClaim.values().forEach(list -> list.forEach(r -> names.add(r.device())));
    return names;
  }

  /** A device the search took for a request: alone, or as a share. */
  private sealed interface Pick {
    Candidate candidate();

    AllocatedClaim.Result result();

    record Alone(Candidate candidate, String request) implements Pick {
      @Override
      public AllocatedClaim.Result result() {
        return candidate.result(request, Optional.empty(), new TreeMap<>());
      }
    }

    /**
     * @param tookCounters whether this share is the device's first, which consumed its counters
     */
    record Share(
        Candidate candidate,
        String request,
        SortedMap<String, Long> consumed,
        boolean tookCounters,
        String shareId)
        implements Pick {
      @Override
      public AllocatedClaim.Result result() {
        return candidate.result(request, Optional.of(shareId), consumed);
      }
    }
  }

  /** The backtracking search of one claim, over what other claims hold. */
  private static final class Search {
    private final List<DeviceRequest> requests;
    private final List<Candidate> candidates;
    private final Map<Counter, Long> capacity;
    private final Map<Counter, Long> used = new HashMap<>();
    private final Set<DeviceId> taken = new HashSet<>();
    private final Map<DeviceId, Map<String, Long>> committed = new HashMap<>();
    private final List<Pick> chosen = new ArrayList<>();

    Search(List<DeviceRequest> requests, List<Candidate> candidates, Map<Counter, Long> capacity) {
      this.requests = requests;
      this.candidates = candidates;
      this.capacity = capacity;
    }

    /**
     * Fills slot {@code slot} of request {@code request} from candidate {@code from} on; devices of
     * one request are taken in listed order, so each set of devices is tried once.
     */
    boolean solve(int request, int slot, int from) {
      if (request == requests.size()) {
        return true;
      }
      var wanted = requests.get(request);
      if (slot == wanted.count()) {
        return solve(request + 1, 0, 0);
      }
      for (int i = from; i < candidates.size(); i++) {
        var candidate = candidates.get(i);
        var device = candidate.device();
        if (taken.contains(candidate.id())
            || isRepelled(device)
            || !wanted.matches(candidate.pool().driver(), device)) {
          continue;
        }
        var pick = device.shared() ? share(candidate, wanted) : alone(candidate, wanted);
        if (pick.isEmpty()) {
          continue;
        }
        take(pick.get(), 1);
        if (solve(request, slot + 1, i + 1)) {
          return true;
        }
        take(pick.get(), -1);
      }
      return false;
    }

    private Optional<Pick> alone(Candidate candidate, DeviceRequest wanted) {
      var device = candidate.device();
      if (!ConsumedCapacity.fitsDedicated(device, wanted.capacity())
          || !fits(candidate.pool(), device.consumes())) {
        return Optional.empty();
      }
      return Optional.of(new Pick.Alone(candidate, wanted.name()));
    }

    private Optional<Pick> share(Candidate candidate, DeviceRequest wanted) {
      var device = candidate.device();
      var consumed = ConsumedCapacity.ofShare(device, wanted.capacity());
      if (consumed.isEmpty()) {
        return Optional.empty();
      }
      var id = candidate.id();
      var inFlight = inFlight(id);
      var sharedBefore = committed.getOrDefault(id, Map.of());
      for (var entry : consumed.get().entrySet()) {
        long sum =
            sharedBefore.getOrDefault(entry.getKey(), 0L)
                + inFlight.consumed().getOrDefault(entry.getKey(), 0L)
                + entry.getValue();
        if (sum > device.capacity().get(entry.getKey())) {
          return Optional.empty();
        }
      }
      // The scheduler checks a shared device's counters only while no share of it is in use
      // (skipCounterCheck): an AggregatedCapacity entry, or a share taken earlier in this cycle.
      boolean firstShare = !committed.containsKey(id) && inFlight.shares() == 0;
      if (firstShare && !fits(candidate.pool(), device.consumes())) {
        return Optional.empty();
      }
      return Optional.of(
          new Pick.Share(
              candidate, wanted.name(), consumed.get(), firstShare, UUID.randomUUID().toString()));
    }

    /** The shares this search has taken of one device so far, and their sum per capacity. */
    private record InFlight(int shares, Map<String, Long> consumed) {}

    private InFlight inFlight(DeviceId id) {
      int shares = 0;
      var consumed = new HashMap<String, Long>();
      for (var pick : chosen) {
        if (pick instanceof Pick.Share share && share.candidate().id().equals(id)) {
          shares++;
          share.consumed().forEach((name, amount) -> consumed.merge(name, amount, Long::sum));
        }
      }
      return new InFlight(shares, consumed);
    }

    /** Takes ({@code sign} 1) or gives back ({@code sign} -1) a pick. */
    private void take(Pick pick, int sign) {
      var candidate = pick.candidate();
      switch (pick) {
        case Pick.Alone _ -> {
          if (sign > 0) {
            taken.add(candidate.id());
          } else {
            taken.remove(candidate.id());
          }
          consume(candidate.pool(), candidate.device().consumes(), sign);
        }
        case Pick.Share share -> {
          if (share.tookCounters()) {
            consume(candidate.pool(), candidate.device().consumes(), sign);
          }
        }
      }
      if (sign > 0) {
        chosen.add(pick);
      } else {
        chosen.removeLast();
      }
    }

    private static boolean isRepelled(PoolDevice device) {
      return device.taints().stream()
          .anyMatch(
              t -> t.effect() == Taint.Effect.NO_SCHEDULE || t.effect() == Taint.Effect.NO_EXECUTE);
    }

    private boolean fits(PoolKey pool, List<CounterConsumption> consumes) {
      for (var consumption : consumes) {
        for (var entry : consumption.counters().entrySet()) {
          var counter = new Counter(pool, consumption.counterSet(), entry.getKey());
          long free = capacity.getOrDefault(counter, 0L) - used.getOrDefault(counter, 0L);
          if (entry.getValue() > free) {
            return false;
          }
        }
      }
      return true;
    }

    void consume(PoolKey pool, List<CounterConsumption> consumes, int sign) {
      for (var consumption : consumes) {
        consumption
            .counters()
            .forEach(
                (name, value) ->
                    used.merge(
                        new Counter(pool, consumption.counterSet(), name),
                        sign * value,
                        Long::sum));
      }
    }
  }
}
