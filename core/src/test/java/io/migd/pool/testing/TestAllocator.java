package io.migd.pool.testing;

import io.migd.claims.AllocatedClaim;
import io.migd.pool.CounterConsumption;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.Taint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A stand-in for the Kubernetes 1.36 scheduler's structured allocator ({@code reference/dra-api.md}
 * section 6), for tests and benchmarks: it reads published slices the way the scheduler does and
 * remembers what it allocated, so counters hold across claims.
 *
 * <ul>
 *   <li>Only each pool's highest generation counts. A pool that is incomplete or breaks the API's
 *       rules ({@link PoolValidator}) makes {@link #allocate} throw {@link InvalidPoolException}
 *       (the scheduler would allocate nothing from it; a test must fail instead).
 *   <li>Pools by driver then name, slices by name, devices in listed order; the first solution of a
 *       backtracking search over the claim's requests wins.
 *   <li>Devices tainted {@code NoSchedule} or {@code NoExecute} are skipped (no tolerations).
 *   <li>A device allocated to a claim is not allocated again until {@link #release}. What it
 *       consumes of shared counters is what the highest generation publishes it consuming now, as
 *       the scheduler computes it (Kubernetes' {@code checkAvailableCounters} sums the {@code
 *       consumesCounters} of allocated devices found in the current slices): a whole GPU allocated
 *       while it was published static (no counters) holds its whole counter set once it is
 *       published dynamic; a device no longer published consumes nothing.
 * </ul>
 */
public final class TestAllocator {
  private final Map<String, List<Taken>> byClaim = new LinkedHashMap<>();

  /** A device held by a claim. */
  private record Taken(PoolKey pool, String request, String device) {}

  /** A device the search may take: where it is published, and the device. */
  private record Candidate(PoolKey pool, PoolDevice device) {}

  /** Counter key: pool, counter set, counter. */
  private record Counter(PoolKey pool, String set, String name) {}

  /** A device of a pool. */
  private record DeviceId(PoolKey pool, String device) {}

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
    var listed = new HashMap<DeviceId, PoolDevice>();
    candidates.forEach(c -> listed.put(new DeviceId(c.pool(), c.device().name()), c.device()));
    var search = new Search(claim.requests(), candidates, capacity);
    byClaim
        .values()
        .forEach(
            list ->
                list.forEach(
                    held ->
                        search.hold(
                            held,
                            Optional.ofNullable(
                                    listed.get(new DeviceId(held.pool(), held.device())))
                                .map(PoolDevice::consumes)
                                .orElse(List.of()))));
    if (!search.solve(0, 0, 0)) {
      return Optional.empty();
    }
    byClaim.put(claim.uid(), List.copyOf(search.chosen));
    var results =
        search.chosen.stream()
            .map(
                t ->
                    new AllocatedClaim.Result(
                        t.request(), t.pool().driver(), t.pool().pool(), t.device(), false))
            .toList();
    return Optional.of(
        new AllocatedClaim(
            claim.uid(), claim.namespace(), claim.name(), true, results, List.of(), List.of()));
  }

  /** Frees the claim's devices and what they consumed; a claim not allocated is a no-op. */
  public void release(String claimUid) {
    byClaim.remove(claimUid);
  }

  /** The names of the devices allocated to {@code claim}, in result order. */
  public static List<String> deviceNames(AllocatedClaim claim) {
    return claim.results().stream().map(AllocatedClaim.Result::device).toList();
  }

  /** The devices allocated to any claim, by name. */
  public Set<String> allocatedDevices() {
    var names = new HashSet<String>();
    byClaim.values().forEach(list -> list.forEach(t -> names.add(t.device())));
    return names;
  }

  /** The backtracking search of one claim, over devices already held by others. */
  private static final class Search {
    private final List<DeviceRequest> requests;
    private final List<Candidate> candidates;
    private final Map<Counter, Long> capacity;
    private final Map<Counter, Long> used = new HashMap<>();
    private final Set<DeviceId> taken = new HashSet<>();
    private final List<Taken> chosen = new ArrayList<>();

    Search(List<DeviceRequest> requests, List<Candidate> candidates, Map<Counter, Long> capacity) {
      this.requests = requests;
      this.candidates = candidates;
      this.capacity = capacity;
    }

    /** A device another claim holds, consuming {@code consumes} as published now. */
    void hold(Taken held, List<CounterConsumption> consumes) {
      taken.add(new DeviceId(held.pool(), held.device()));
      consume(held.pool(), consumes, 1);
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
        var id = new DeviceId(candidate.pool(), device.name());
        if (taken.contains(id)
            || isRepelled(device)
            || !wanted.matches(candidate.pool().driver(), device)
            || !fits(candidate.pool(), device.consumes())) {
          continue;
        }
        var held = new Taken(candidate.pool(), wanted.name(), device.name());
        taken.add(id);
        consume(candidate.pool(), device.consumes(), 1);
        chosen.add(held);
        if (solve(request, slot + 1, i + 1)) {
          return true;
        }
        chosen.removeLast();
        consume(candidate.pool(), device.consumes(), -1);
        taken.remove(id);
      }
      return false;
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

    private void consume(PoolKey pool, List<CounterConsumption> consumes, int sign) {
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
