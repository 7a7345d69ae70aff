package io.migd.plan;

import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every placed layout of GPU instances a GPU model allows, enumerated plainly (lists, no bitmasks)
 * and apart from the planner's search, so tests can check the planner against it.
 */
final class Layouts {
  /** One GPU instance of a layout. */
  record Placed(GiProfile profile, Placement placement) {
    @Override
    public String toString() {
      return profile.name() + "@" + placement;
    }
  }

  final GpuModel model;

  /** Every layout that obeys the placement rules, the empty one included. */
  final List<List<Placed>> all = new ArrayList<>();

  /** The layouts to which no further GPU instance can be added. */
  final List<List<Placed>> maximal = new ArrayList<>();

  /** Every placeable profile multiset (profiles in catalogue order), with its layouts. */
  final Map<List<GiProfile>, List<List<Placed>>> byMultiset = new LinkedHashMap<>();

  private final List<Placed> candidates = new ArrayList<>();

  private Layouts(GpuModel model) {
    this.model = model;
    for (GiProfile profile : model.giProfiles()) {
      for (Placement placement : profile.placements()) {
        candidates.add(new Placed(profile, placement));
      }
    }
    walk(0, new ArrayList<>());
    for (List<Placed> layout : all) {
      if (candidates.stream().noneMatch(c -> fits(layout, c))) {
        maximal.add(layout);
      }
      byMultiset.computeIfAbsent(multiset(layout), k -> new ArrayList<>()).add(layout);
    }
  }

  static Layouts of(GpuModel model) {
    return new Layouts(model);
  }

  private void walk(int from, List<Placed> layout) {
    all.add(List.copyOf(layout));
    for (int i = from; i < candidates.size(); i++) {
      Placed c = candidates.get(i);
      if (fits(layout, c)) {
        layout.add(c);
        walk(i + 1, layout);
        layout.removeLast();
      }
    }
  }

  /** Whether {@code c} can join {@code layout} by the driver's rules. */
  static boolean fits(List<Placed> layout, Placed c) {
    int same = 0;
    boolean optical = c.profile().opticalFlowAccelerators() > 0;
    for (Placed p : layout) {
      if (p.placement().overlaps(c.placement())) {
        return false;
      }
      if (p.profile().equals(c.profile())) {
        same++;
      }
      if (optical && p.profile().opticalFlowAccelerators() > 0) {
        return false;
      }
    }
    return same < c.profile().instances();
  }

  /** A multiset as {@code [1g.5gb, 3g.20gb]}. */
  static String show(List<GiProfile> profiles) {
    return profiles.stream().map(p -> p.name().toString()).toList().toString();
  }

  List<GiProfile> multiset(List<Placed> layout) {
    return layout.stream()
        .map(Placed::profile)
        .sorted(Comparator.comparingInt(p -> model.giProfiles().indexOf(p)))
        .toList();
  }
}
