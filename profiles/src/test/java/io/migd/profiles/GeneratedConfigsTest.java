package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GeneratedConfigsTest {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  private static final MigConfigFile GENERATED = GeneratedConfigs.forModels(CATALOG.models());

  private static GpuModel model(String key) {
    return CATALOG.byKey(key).orElseThrow();
  }

  @Test
  void shippedDefaultEqualsTheGeneratedFile() throws Exception {
    assertThat(MigConfigParser.parse(Path.of("configs", "default.yaml"))).isEqualTo(GENERATED);
  }

  @Test
  void namesAConfigForEveryProfileAfterTheFourFixedOnes() {
    var profiles = new LinkedHashSet<String>();
    CATALOG
        .migModels()
        .forEach(m -> m.giProfiles().forEach(p -> profiles.add(p.name().toString())));
    var expected =
        new ArrayList<>(List.of("all-disabled", "all-enabled", "all-balanced", "all-dynamic"));
    profiles.forEach(p -> expected.add("all-" + p.replace('+', '.')));

    assertThat(GENERATED.configNames()).containsExactlyElementsOf(expected);
    assertThat(GENERATED.configNames()).contains("all-1g.10gb.me", "all-7g.141gb");
    assertThat(GENERATED.configNames()).allMatch(n -> n.matches("[a-z0-9]([-a-z0-9_.]*[a-z0-9])?"));
  }

  @Test
  void disablesAndEnablesEveryGpuWithOneItem() {
    assertThat(GENERATED.config("all-disabled").orElseThrow().items())
        .containsExactly(MigConfigItem.of(new DeviceSelection.All(), false));
    assertThat(GENERATED.config("all-enabled").orElseThrow().items())
        .containsExactly(MigConfigItem.of(new DeviceSelection.All(), true));
  }

  @Test
  void makesEveryGpuDynamicWithOneItemWhateverItsModel() {
    var items = GENERATED.config("all-dynamic").orElseThrow().items();

    assertThat(items).hasSize(1);
    var item = items.getFirst();
    assertThat(item.dynamic()).isTrue();
    assertThat(item.migEnabled()).isTrue();
    assertThat(item.migDevices()).isEmpty();
    // NVML says which GPUs are MIG-capable: a model the catalogue lacks is selected too
    assertThat(item.deviceFilters()).isEmpty();
    assertThat(item.selects(0, 0x233110DE, 0)).isTrue();
  }

  @Test
  void sharesAnItemBetweenModelsWithTheSameLayout() {
    var items = GENERATED.config("all-1g.10gb").orElseThrow().items();

    assertThat(items).hasSize(2);
    assertThat(items.get(0).deviceFilters()).containsExactly(new DeviceFilter.Device(0x20B010DE));
    assertThat(items.get(0).migDevices()).containsExactlyEntriesOf(layout("1g.10gb", 4));
    assertThat(items.get(1).deviceFilters())
        .containsExactly(new DeviceFilter.Device(0x20B210DE), new DeviceFilter.Device(0x233010DE));
    assertThat(items.get(1).migDevices()).containsExactlyEntriesOf(layout("1g.10gb", 7));
    assertThat(items).allMatch(i -> i.devices().equals(new DeviceSelection.All()));
  }

  record Balanced(String model, Map<ProfileName, Integer> layout) {
    @Override
    public String toString() {
      return model;
    }
  }

  static Stream<Balanced> balanced() {
    return Stream.of(
        new Balanced("A30", layout("1g.6gb", 2, "2g.12gb", 1)),
        new Balanced("A100-SXM4-40GB", layout("1g.5gb", 2, "2g.10gb", 1, "3g.20gb", 1)),
        new Balanced("A100-SXM4-80GB", layout("1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1)),
        new Balanced("H100-SXM5-80GB", layout("1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1)),
        new Balanced("H100-NVL", layout("1g.12gb", 2, "2g.24gb", 1, "3g.47gb", 1)),
        new Balanced("H200", layout("1g.18gb", 2, "2g.35gb", 1, "3g.71gb", 1)),
        new Balanced("B200", layout("1g.23gb", 2, "2g.45gb", 1, "3g.90gb", 1)),
        new Balanced("T4", layout()));
  }

  @ParameterizedTest
  @MethodSource("balanced")
  void balancesWithTheSmallestVariantOfEachSize(Balanced c) {
    var model = model(c.model());
    var layout = GeneratedConfigs.balancedLayout(model);

    assertThat(layout).containsExactlyEntriesOf(c.layout());
    if (!layout.isEmpty()) {
      assertThat(fits(model, layout)).isTrue();
      var item =
          GENERATED.config("all-balanced").orElseThrow().items().stream()
              .filter(i -> i.mayApplyTo(model))
              .toList();
      assertThat(item).singleElement().extracting(MigConfigItem::migDevices).isEqualTo(layout);
    }
  }

  static Stream<GiCase> everyProfile() {
    return CATALOG.migModels().stream()
        .flatMap(m -> m.giProfiles().stream().map(p -> new GiCase(m, p)));
  }

  record GiCase(GpuModel model, GiProfile profile) {
    @Override
    public String toString() {
      return model.key() + " " + profile.name();
    }
  }

  @ParameterizedTest
  @MethodSource("everyProfile")
  void fillsTheGpuWithTheMostInstancesThatFit(GiCase c) {
    int max = GeneratedConfigs.maxCount(c.profile());
    var name = c.profile().name();

    assertThat(fits(c.model(), layout(name.toString(), max))).isTrue();
    assertThat(max == c.profile().instances() || !fits(c.model(), layout(name.toString(), max + 1)))
        .isTrue();
    var items =
        GENERATED.config(GeneratedConfigs.configName(name)).orElseThrow().items().stream()
            .filter(i -> i.mayApplyTo(c.model()))
            .toList();
    assertThat(items)
        .singleElement()
        .extracting(MigConfigItem::migDevices)
        .isEqualTo(layout(name.toString(), max));
  }

  record MaxCase(String model, String profile, int max) {}

  @Test
  void countsPlacementsAndInstanceLimits() {
    var cases =
        List.of(
            new MaxCase("A100-SXM4-40GB", "1g.5gb", 7),
            new MaxCase("A100-SXM4-40GB", "1g.5gb+me", 1),
            new MaxCase("A100-SXM4-40GB", "1g.10gb", 4),
            new MaxCase("A100-SXM4-40GB", "2g.10gb", 3),
            new MaxCase("A100-SXM4-40GB", "3g.20gb", 2),
            new MaxCase("A100-SXM4-40GB", "7g.40gb", 1),
            new MaxCase("A30", "1g.6gb", 4),
            new MaxCase("A30", "2g.12gb", 2));
    for (var c : cases) {
      var profile = model(c.model()).giProfile(ProfileName.parse(c.profile())).orElseThrow();
      assertThat(GeneratedConfigs.maxCount(profile)).as(c.toString()).isEqualTo(c.max());
    }
  }

  @Test
  void namesConfigsAsValidLabelValues() {
    assertThat(GeneratedConfigs.configName(ProfileName.parse("1g.10gb+me")))
        .isEqualTo("all-1g.10gb.me");
    assertThat(GeneratedConfigs.configName(ProfileName.parse("1g.24gb+me.all")))
        .isEqualTo("all-1g.24gb.me.all");
    assertThat(GeneratedConfigs.configName(ProfileName.parse("1g.24gb-me")))
        .isEqualTo("all-1g.24gb-me");
  }

  @Test
  void generatesOnlyTheConfigsForEveryGpuForGpusWithoutMig() {
    var file = GeneratedConfigs.forModels(List.of(model("T4"), model("L4"), model("T4")));

    // all-dynamic selects by what NVML reports, so it is there whatever the models
    assertThat(file.configNames()).containsExactly("all-disabled", "all-enabled", "all-dynamic");
  }

  @Test
  void ignoresRepeatedModels() {
    var a30 = model("A30");

    assertThat(GeneratedConfigs.forModels(List.of(a30, a30, model("T4"))))
        .isEqualTo(GeneratedConfigs.forModels(List.of(a30)));
  }

  private static Map<ProfileName, Integer> layout(Object... nameThenCount) {
    var layout = new LinkedHashMap<ProfileName, Integer>();
    for (int i = 0; i < nameThenCount.length; i += 2) {
      layout.put(ProfileName.parse((String) nameThenCount[i]), (Integer) nameThenCount[i + 1]);
    }
    return layout;
  }

  /** Complete search: can all these GPU instances be placed at once without overlap? */
  private static boolean fits(GpuModel model, Map<ProfileName, Integer> layout) {
    var wanted = new ArrayList<GiProfile>();
    layout.forEach(
        (name, count) -> {
          var profile = model.giProfile(name).orElseThrow();
          wanted.addAll(Collections.nCopies(count, profile));
        });
    for (var profile : new LinkedHashSet<>(wanted)) {
      if (Collections.frequency(wanted, profile) > profile.instances()) {
        return false;
      }
    }
    return place(wanted, 0, new ArrayList<>());
  }

  private static boolean place(List<GiProfile> wanted, int next, List<Placement> taken) {
    if (next == wanted.size()) {
      return true;
    }
    for (var placement : wanted.get(next).placements()) {
      if (taken.stream().noneMatch(placement::overlaps)) {
        taken.add(placement);
        if (place(wanted, next + 1, taken)) {
          return true;
        }
        taken.removeLast();
      }
    }
    return false;
  }
}
