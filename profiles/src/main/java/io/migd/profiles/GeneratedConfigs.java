package io.migd.profiles;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.function.Function;

/**
 * The config file migd uses when it is given none, generated from GPU models (docs/contract.md):
 * {@code all-disabled}, {@code all-enabled}, {@code all-balanced}, {@code all-dynamic} (every GPU
 * NVML reports as MIG-capable dynamic, whatever its model; one without MIG keeps its whole GPU),
 * and {@code all-<profile>} with the largest count that fits, for every GPU-instance profile.
 *
 * <p>Like mig-parted's own default config, a config whose layout differs between models has one
 * item per distinct layout, selected with {@code device-filter} by the PCI device ids of the models
 * that share it, and {@code devices: all}. GPUs without MIG get no per-model item: they are
 * selected only by {@code all-disabled} and {@code all-enabled}, and the time-slicing fallback
 * decides what they get.
 */
public final class GeneratedConfigs {
  /** Name of the config that disables MIG on every GPU. */
  public static final String ALL_DISABLED = "all-disabled";

  /** Name of the config that enables MIG on every GPU and creates no instances. */
  public static final String ALL_ENABLED = "all-enabled";

  /** Name of the config with a mix of small and large instances on every MIG GPU. */
  public static final String ALL_BALANCED = "all-balanced";

  /**
   * Name of the config that makes every MIG-capable GPU dynamic (DRA mode): instances are created
   * when claims are prepared.
   */
  public static final String ALL_DYNAMIC = "all-dynamic";

  private GeneratedConfigs() {}

  /**
   * Builds the generated config file for a set of models, such as the built-in catalogue or the
   * models found on a node. Duplicates (by key) and models without MIG add no items; models keep
   * their order, and {@code all-<profile>} configs follow the order in which profiles first appear.
   *
   * @param models the GPU models
   * @return the config file
   */
  public static MigConfigFile forModels(Collection<GpuModel> models) {
    var migModels = new LinkedHashMap<String, GpuModel>();
    models.stream().filter(GpuModel::migCapable).forEach(m -> migModels.putIfAbsent(m.key(), m));
    var configs = new ArrayList<MigConfig>();
    configs.add(new MigConfig(ALL_DISABLED, List.of(MigConfigItem.of(all(), false))));
    configs.add(new MigConfig(ALL_ENABLED, List.of(MigConfigItem.of(all(), true))));
    perModel(ALL_BALANCED, migModels.values(), GeneratedConfigs::balancedLayout)
        .ifPresent(configs::add);
    // every GPU, as all-enabled: NVML says which are MIG-capable (a model the catalogue lacks
    // included), and one without MIG keeps its whole GPU
    configs.add(new MigConfig(ALL_DYNAMIC, List.of(MigConfigItem.dynamic(all(), List.of()))));
    var profiles = new LinkedHashSet<ProfileName>();
    migModels.values().forEach(m -> m.giProfiles().forEach(p -> profiles.add(p.name())));
    for (var profile : profiles) {
      Function<GpuModel, SequencedMap<ProfileName, Integer>> layout =
          model -> {
            var devices = new LinkedHashMap<ProfileName, Integer>();
            model.giProfile(profile).ifPresent(p -> devices.put(profile, maxCount(p)));
            return devices;
          };
      perModel(configName(profile), migModels.values(), layout).ifPresent(configs::add);
    }
    return MigConfigFile.of(configs);
  }

  /**
   * The name of the generated config that fills GPUs with one profile: {@code all-} and the profile
   * name with {@code +} written {@code .}, as mig-parted names them ({@code all-1g.10gb.me}), so
   * the name is a valid Kubernetes label value.
   *
   * @param profile a GPU-instance profile name
   * @return the config name
   */
  public static String configName(ProfileName profile) {
    return "all-" + profile.toString().replace('+', '.');
  }

  /**
   * The balanced layout of a model: 2 × 1g + 1 × 2g + 1 × 3g on a 7-slice GPU, 2 × 1g + 1 × 2g on a
   * 4-slice GPU, each the variant with the least memory and no attributes.
   *
   * @param model a GPU model
   * @return profile to count, or empty if the model has no MIG, another slice count, or lacks a
   *     size
   */
  public static SequencedMap<ProfileName, Integer> balancedLayout(GpuModel model) {
    Map<Integer, Integer> countBySlices =
        switch (model.computeSlices()) {
          case 7 -> Map.of(1, 2, 2, 1, 3, 1);
          case 4 -> Map.of(1, 2, 2, 1);
          default -> Map.of();
        };
    var layout = new LinkedHashMap<ProfileName, Integer>();
    for (int size : List.of(1, 2, 3)) {
      var count = countBySlices.get(size);
      if (count == null) {
        continue;
      }
      var smallest =
          model.giProfiles().stream()
              .filter(p -> p.slices() == size && p.name().attributes().isEmpty())
              .min(Comparator.comparingLong(GiProfile::memoryMib));
      if (smallest.isEmpty()) {
        return new LinkedHashMap<>();
      }
      layout.put(smallest.get().name(), count);
    }
    return layout;
  }

  /**
   * The most GPU instances of one profile that fit on a GPU together: the largest set of pairwise
   * non-overlapping placements, capped by the profile's instance count ({@code 1g.10gb+me} offers 7
   * placements but 1 instance).
   *
   * @param profile a GPU-instance profile
   * @return the maximum count, at least 1
   */
  public static int maxCount(GiProfile profile) {
    // Earliest end first is optimal for the largest set of disjoint intervals.
    var byEnd = new ArrayList<>(profile.placements());
    byEnd.sort(Comparator.comparingInt(Placement::end));
    int count = 0;
    int freeFrom = 0;
    for (var placement : byEnd) {
      if (placement.start() >= freeFrom) {
        count++;
        freeFrom = placement.end();
      }
    }
    return Math.min(count, profile.instances());
  }

  private static Optional<MigConfig> perModel(
      String name,
      Collection<GpuModel> models,
      Function<GpuModel, SequencedMap<ProfileName, Integer>> layoutOf) {
    var groups = new LinkedHashMap<SequencedMap<ProfileName, Integer>, List<DeviceFilter>>();
    for (var model : models) {
      var layout = layoutOf.apply(model);
      if (!layout.isEmpty()) {
        groups
            .computeIfAbsent(layout, l -> new ArrayList<>())
            .add(new DeviceFilter.Device(model.pciDeviceId()));
      }
    }
    if (groups.isEmpty()) {
      return Optional.empty();
    }
    var items = new ArrayList<MigConfigItem>();
    groups.forEach(
        (layout, filters) ->
            items.add(new MigConfigItem(all(), filters, true, layout, new TimeSlicing.Unset())));
    return Optional.of(new MigConfig(name, items));
  }

  private static DeviceSelection all() {
    return new DeviceSelection.All();
  }
}
