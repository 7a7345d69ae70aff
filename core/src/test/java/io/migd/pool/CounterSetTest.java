package io.migd.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.DeviceNames;
import io.migd.ownership.ClaimedDevices;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The counter set of a dynamic GPU never refuses a layout for memory or compute the GPU has: every
 * set of GPU instances whose placements do not overlap (at most {@code instances} of each profile)
 * consumes no more memory, memory slices, multiprocessors or copy engines than the set has. Media
 * engines ({@code +me}) are left out: their counters are what keeps two media-extension instances
 * apart, a limit the placements do not show.
 */
class CounterSetTest {
  static Stream<String> migModels() {
    return Facts.CATALOG.migModels().stream().map(GpuModel::key);
  }

  private static final Pattern COMPUTE_AND_MEMORY =
      Pattern.compile("memory|memory-slice-[0-9]+|multiprocessors|copy-engines");

  private record Spot(GiProfile profile, int start, int size, String device) {}

  @ParameterizedTest
  @MethodSource("migModels")
  void everyLayoutTheGpuHoldsFitsItsCounters(String key) {
    GpuModel model = Facts.model(key);
    GpuFacts facts = Facts.of(model, 0);
    BuiltPool pool =
        Pools.build(
            List.of(Pools.dynamic(facts, Facts.migOn(facts))),
            ClaimedDevices.NONE,
            DeviceTaints.NONE);
    Map<String, Long> available = Pools.counterSets(pool).getFirst().counters();
    var spots = new ArrayList<Spot>();
    for (GiProfile gi : model.giProfiles()) {
      gi.placements()
          .forEach(
              at ->
                  spots.add(
                      new Spot(
                          gi,
                          at.start(),
                          at.size(),
                          DeviceNames.mig(0, gi.name().toString(), gi.id(), at.start()))));
    }
    int[] layouts = {0};
    walk(spots, 0, new ArrayList<>(), pool, available, layouts);
    assertThat(layouts[0]).isGreaterThan(model.giProfiles().size());
  }

  private static void walk(
      List<Spot> spots,
      int from,
      List<Spot> chosen,
      BuiltPool pool,
      Map<String, Long> available,
      int[] layouts) {
    layouts[0]++;
    var used = new HashMap<String, Long>();
    for (Spot s : chosen) {
      pool.content()
          .device(s.device())
          .orElseThrow()
          .consumes()
          .getFirst()
          .counters()
          .forEach((name, value) -> used.merge(name, value, Long::sum));
    }
    used.entrySet().removeIf(e -> !COMPUTE_AND_MEMORY.matcher(e.getKey()).matches());
    used.forEach(
        (name, value) ->
            assertThat(value)
                .as("%s of %s", name, chosen.stream().map(Spot::device).toList())
                .isLessThanOrEqualTo(available.get(name)));
    for (int i = from; i < spots.size(); i++) {
      Spot next = spots.get(i);
      boolean fits =
          chosen.stream()
              .noneMatch(
                  s ->
                      s.start() < next.start() + next.size()
                          && next.start() < s.start() + s.size());
      long sameProfile = chosen.stream().filter(s -> s.profile().equals(next.profile())).count();
      if (fits && sameProfile < next.profile().instances()) {
        chosen.add(next);
        walk(spots, i + 1, chosen, pool, available, layouts);
        chosen.removeLast();
      }
    }
  }
}
