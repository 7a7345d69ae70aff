package io.migd.bench.fragmentation;

import io.migd.pool.GpuFacts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * A seeded stream of claim and release events: claims arrive one per time unit on average
 * (exponential gaps), ask for what a draw gives (one MIG profile drawn by weight, or a fraction of
 * a GPU), and live an exponential time whose mean gives the offered load (for profiles: memory
 * slices asked for over memory slices the node has). The same seed gives the same events whatever
 * the allocator does; releasing a claim that was refused does nothing.
 */
final class Workload {
  /** A claim, how long it lives and what it asks for. */
  record Claim<T>(int id, double arrives, double leaves, T ask) {}

  /** One event: a claim arrives ({@code release} false) or leaves. */
  record Event<T>(double at, Claim<T> claim, boolean release) {}

  /** A profile and its weight in the mix. */
  record Share(GpuFacts.MigProfile profile, int weight) {}

  private Workload() {}

  /**
   * The first {@code count} events of seed {@code seed}.
   *
   * @param memorySlices the node's memory slices, for the load
   */
  static List<Event<GpuFacts.MigProfile>> events(
      long seed, int count, List<Share> mix, double load, int memorySlices) {
    int total = mix.stream().mapToInt(Share::weight).sum();
    double meanSize =
        mix.stream().mapToDouble(s -> (double) s.weight() * s.profile().sliceCount()).sum() / total;
    return events(seed, count, load * memorySlices / meanSize, random -> pick(random, mix, total));
  }

  /**
   * The first {@code count} events of seed {@code seed}, each claim living {@code meanLifetime} on
   * average and asking what {@code draw} gives (drawn after its lifetime).
   */
  static <T> List<Event<T>> events(
      long seed, int count, double meanLifetime, Function<Random, T> draw) {
    var random = new Random(seed);
    var events = new ArrayList<Event<T>>(2 * count);
    double now = 0;
    for (int id = 0; id < count; id++) {
      now += exponential(random, 1);
      double leaves = now + exponential(random, meanLifetime);
      var claim = new Claim<>(id, now, leaves, draw.apply(random));
      events.add(new Event<>(claim.arrives(), claim, false));
      events.add(new Event<>(claim.leaves(), claim, true));
    }
    events.sort(Comparator.comparingDouble(Event::at));
    return List.copyOf(events.subList(0, count));
  }

  private static double exponential(Random random, double mean) {
    return -mean * Math.log(1 - random.nextDouble());
  }

  private static GpuFacts.MigProfile pick(Random random, List<Share> mix, int total) {
    int draw = random.nextInt(total);
    for (var share : mix) {
      draw -= share.weight();
      if (draw < 0) {
        return share.profile();
      }
    }
    throw new IllegalStateException("weights sum to " + total);
  }
}
