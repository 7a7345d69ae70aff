package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MigConfigParserTest {

  private static String file(String configs) {
    return "version: v1\nmig-configs:\n" + configs;
  }

  /** A file with one config "c" holding one item with these lines. */
  private static String item(String... lines) {
    return file("  c:\n    - " + String.join("\n      ", lines) + "\n");
  }

  @Test
  void readsEveryKeyIntoRecords() {
    var yaml =
        file(
            """
              custom:
                - devices: [0, 2]
                  device-filter: ["0x20B010DE", "0x233010de:0x16C110DE"]
                  mig-enabled: true
                  mig-devices:
                    "1c.4g.20gb": 4
                    3g.20gb: 1
                    "1g.5gb+me": 0
                  time-slicing: {replicas: 3}
                - devices: all
                  device-filter: "0x1EB810DE"
                  mig-enabled: false
              all-enabled:
                - devices: all
                  mig-enabled: true
                  mig-devices: {}
            """);

    var parsed = MigConfigParser.parse(yaml);

    var devices = new LinkedHashMap<ProfileName, Integer>();
    devices.put(ProfileName.parse("1c.4g.20gb"), 4);
    devices.put(ProfileName.parse("3g.20gb"), 1);
    devices.put(ProfileName.parse("1g.5gb+me"), 0);
    var expected =
        MigConfigFile.of(
            List.of(
                new MigConfig(
                    "custom",
                    List.of(
                        new MigConfigItem(
                            new DeviceSelection.Indexes(List.of(0, 2)),
                            List.of(
                                new DeviceFilter.Device(0x20B010DE),
                                new DeviceFilter.DeviceAndSubsystem(0x233010DE, 0x16C110DE)),
                            true,
                            devices,
                            new TimeSlicing.Replicas(3)),
                        new MigConfigItem(
                            new DeviceSelection.All(),
                            List.of(new DeviceFilter.Device(0x1EB810DE)),
                            false,
                            new LinkedHashMap<>(),
                            new TimeSlicing.Unset()))),
                new MigConfig(
                    "all-enabled", List.of(MigConfigItem.of(new DeviceSelection.All(), true)))));
    assertThat(parsed).isEqualTo(expected);
    assertThat(parsed.configNames()).containsExactly("custom", "all-enabled");
    assertThat(parsed.config("custom").orElseThrow().items().getFirst().migDevices().keySet())
        .extracting(ProfileName::toString)
        .containsExactly("1c.4g.20gb", "3g.20gb", "1g.5gb+me");
    assertThat(parsed.config("Custom")).isEmpty();
  }

  @Test
  void namesTheFileInMessages(@TempDir Path dir) throws Exception {
    var path = dir.resolve("layout.yaml");
    Files.writeString(path, item("devices: all", "mig-enabled: true", "mig-device: {}"));

    assertThatThrownBy(() -> MigConfigParser.parse(path))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage("layout.yaml: config \"c\", item 0: unknown key \"mig-device\" (line 6)");
  }

  /** Every error names the line of its key, else of its item, config or file. */
  static Stream<Rejected> placed() {
    var ok = "  a:\n    - devices: all\n      mig-enabled: false\n";
    return Stream.of(
        new Rejected("unknown top key", file(ok) + "extra: 1\n", "unknown key \"extra\" (line 6)"),
        new Rejected(
            "wrong version", "\n\nversion: v2\nmig-configs:\n" + ok, "got \"v2\" (line 3)"),
        new Rejected(
            "unknown key of the second config's second item",
            file(
                ok
                    + "  b:\n    - devices: all\n      mig-enabled: false\n"
                    + "    - devices: [0]\n      mig-enabled: true\n      mig-devices: {}\n"
                    + "      time-slice: {replicas: 2}\n"),
            "config \"b\", item 1: unknown key \"time-slice\" (line 12)"),
        new Rejected(
            "a wrong value names its key's line",
            file(ok + "  b:\n    - devices: all\n\n      mig-enabled: \"yes\"\n"),
            "\"mig-enabled\" must be true or false, got \"yes\" (line 9)"),
        new Rejected(
            "a bad profile count names its own line",
            file(
                "  b:\n    - devices: all\n      mig-enabled: true\n      mig-devices:\n"
                    + "        1g.5gb: 2\n        3g.20gb: -1\n"),
            "count of \"3g.20gb\" must be an integer >= 0, got -1 (line 8)"),
        new Rejected(
            "nested sharing key",
            file(
                "  b:\n    - devices: all\n      mig-enabled: true\n      mig-devices:\n"
                    + "        1g.5gb: 2\n      sharing:\n        1g.5gb:\n"
                    + "          time-slicing: {replica: 2}\n"),
            "unknown key \"sharing.1g.5gb.time-slicing.replica\" (line 10)"),
        new Rejected(
            "a missing key names its item's line",
            file(ok + "  b:\n    - mig-enabled: false\n"),
            "config \"b\", item 0: missing key \"devices\" (line 7)"));
  }

  @ParameterizedTest
  @MethodSource("placed")
  void namesTheLine(Rejected c) {
    assertThatThrownBy(() -> MigConfigParser.parse(c.yaml(), "f.yaml"))
        .isInstanceOf(ConfigFileException.class)
        .hasMessageEndingWith(c.message());
  }

  record Rejected(String why, String yaml, String message) {
    @Override
    public String toString() {
      return why;
    }
  }

  static Stream<Rejected> rejected() {
    var ok = "  c:\n    - devices: all\n      mig-enabled: false\n";
    return Stream.of(
        new Rejected("empty file", "", "is empty; expected version: v1 and mig-configs"),
        new Rejected("not YAML", "version: [v1\n", "not valid YAML: "),
        new Rejected(
            "duplicate key", file(ok + ok), "not valid YAML: duplicate key \"c\" (line 6)"),
        new Rejected("two documents", file(ok) + "---\n" + file(ok), "more than one YAML document"),
        new Rejected(
            "alias", "x: &a v1\nversion: *a\nmig-configs: {}\n", "YAML aliases (*name) are not"),
        new Rejected("a list", "- v1\n", "the file must be a mapping with the keys version"),
        new Rejected("unknown top key", file(ok) + "extra: 1\n", "unknown key \"extra\""),
        new Rejected("no version", "mig-configs:\n" + ok, "missing key \"version\""),
        new Rejected("v2", file(ok).replace("v1", "v2"), "\"version\" must be \"v1\", got \"v2\""),
        new Rejected("numeric version", file(ok).replace("v1", "1"), "must be \"v1\", got 1"),
        new Rejected("no configs key", "version: v1\n", "missing key \"mig-configs\""),
        new Rejected("no configs", file("  {}\n"), "\"mig-configs\" has no configs"),
        new Rejected("configs as list", file("  - a\n"), "\"mig-configs\" must be a mapping"),
        new Rejected(
            "config not a list",
            file("  c:\n    devices: all\n"),
            "config \"c\": must be a list of items, got a mapping"),
        new Rejected("config empty", file("  c: []\n"), "config \"c\": has no items"),
        new Rejected("config without value", file("  c:\n"), "config \"c\": must be a list of"),
        new Rejected(
            "item not a mapping",
            file("  c:\n    - all\n"),
            "config \"c\", item 0: the item must be a mapping with devices and mig-enabled, got"
                + " \"all\""),
        new Rejected(
            "second item reports its index",
            file(ok + "    - devices: all\n      mig-enable: true\n"),
            "config \"c\", item 1: unknown key \"mig-enable\""),
        new Rejected(
            "unknown item key",
            item("devices: all", "mig-enabled: true", "mig-device: {}"),
            "config \"c\", item 0: unknown key \"mig-device\""),
        new Rejected("no devices", item("mig-enabled: true"), "item 0: missing key \"devices\""),
        new Rejected("no mig-enabled", item("devices: all"), "item 0: missing key \"mig-enabled\""),
        new Rejected(
            "devices misspelt",
            item("devices: All", "mig-enabled: true"),
            "item 0: \"devices\" must be \"all\" or a non-empty list of GPU indexes, got \"All\""),
        new Rejected(
            "devices empty",
            item("devices: []", "mig-enabled: true"),
            "\"devices\" must be \"all\" or a non-empty list of GPU indexes, got a list"),
        new Rejected(
            "negative index",
            item("devices: [-1]", "mig-enabled: true"),
            "\"devices\" entries must be GPU indexes (integers >= 0), got -1"),
        new Rejected(
            "quoted index",
            item("devices: [\"0\"]", "mig-enabled: true"),
            "\"devices\" entries must be GPU indexes (integers >= 0), got \"0\""),
        new Rejected(
            "repeated index",
            item("devices: [1, 1]", "mig-enabled: true"),
            "\"devices\" lists GPU index 1 twice"),
        new Rejected(
            "mig-enabled yes",
            item("devices: all", "mig-enabled: yes"),
            "item 0: \"mig-enabled\" must be true or false, got \"yes\""),
        new Rejected(
            "mig-enabled quoted",
            item("devices: all", "mig-enabled: \"true\""),
            "\"mig-enabled\" must be true or false, got \"true\""),
        new Rejected(
            "mig-devices list",
            item("devices: all", "mig-enabled: true", "mig-devices: [a]"),
            "\"mig-devices\" must be a mapping of profile names to counts, got a list"),
        new Rejected(
            "bad profile name",
            item("devices: all", "mig-enabled: true", "mig-devices: {\"1g.10gbx\": 1}"),
            "item 0: \"mig-devices\": invalid MIG profile name \"1g.10gbx\": unknown attribute"
                + " \"x\""),
        new Rejected(
            "negative count",
            item("devices: all", "mig-enabled: true", "mig-devices: {\"1g.10gb\": -1}"),
            "\"mig-devices\" count of \"1g.10gb\" must be an integer >= 0, got -1"),
        new Rejected(
            "fractional count",
            item("devices: all", "mig-enabled: true", "mig-devices: {\"1g.10gb\": 1.5}"),
            "count of \"1g.10gb\" must be an integer >= 0, got 1.5"),
        new Rejected(
            "quoted count",
            item("devices: all", "mig-enabled: true", "mig-devices: {\"1g.10gb\": \"2\"}"),
            "count of \"1g.10gb\" must be an integer >= 0, got \"2\""),
        new Rejected(
            "huge count",
            item("devices: all", "mig-enabled: true", "mig-devices: {\"1g.10gb\": 9999999999}"),
            "count of \"1g.10gb\" must be an integer >= 0, got 9999999999"),
        new Rejected(
            "same profile twice",
            item("devices: all", "mig-enabled: true", "mig-devices: {3c.3g.20gb: 1, 3g.20gb: 1}"),
            "\"mig-devices\" names profile 3g.20gb twice (as \"3c.3g.20gb\" and \"3g.20gb\")"),
        new Rejected(
            "MIG enabled without mig-devices",
            item("devices: all", "mig-enabled: true"),
            "config \"c\", item 0: \"mig-enabled\" is true but \"mig-devices\" is missing;"
                + " write mig-devices: {} for MIG enabled without instances"),
        new Rejected(
            "MIG enabled with an empty mig-devices value",
            item("devices: all", "mig-enabled: true", "mig-devices:"),
            "config \"c\", item 0: \"mig-enabled\" is true but \"mig-devices\" is empty"),
        new Rejected(
            "second item without mig-devices reports its index",
            file(ok + "    - devices: [1]\n      mig-enabled: true\n"),
            "config \"c\", item 1: \"mig-enabled\" is true but \"mig-devices\" is missing"),
        new Rejected(
            "all counts zero",
            item("devices: all", "mig-enabled: true", "mig-devices: {\"1g.10gb\": 0, 2g.20gb: 0}"),
            "config \"c\", item 0: \"mig-devices\" counts are all zero; write mig-devices: {}"),
        new Rejected(
            "devices without MIG",
            item("devices: all", "mig-enabled: false", "mig-devices: {\"1g.10gb\": 1}"),
            "item 0: \"mig-devices\" must be empty or absent when \"mig-enabled\" is false"),
        new Rejected(
            "short filter",
            item("devices: all", "device-filter: \"0x20B0\"", "mig-enabled: false"),
            "item 0: \"device-filter\": \"0x20B0\" is not a PCI id 0xDDDDVVVV, optionally"
                + " followed by :0xSSSSVVVV"),
        new Rejected(
            "bad subsystem",
            item("devices: all", "device-filter: [\"0x20B010DE:0x1\"]", "mig-enabled: false"),
            "\"device-filter\": \"0x20B010DE:0x1\" is not a PCI id"),
        new Rejected(
            "empty filter",
            item("devices: all", "device-filter: []", "mig-enabled: false"),
            "\"device-filter\" is an empty list; leave the key out to select every model"),
        new Rejected(
            "numeric filter",
            item("devices: all", "device-filter: [123]", "mig-enabled: false"),
            "\"device-filter\" entries must be strings like \"0x20B010DE\", got 123"),
        new Rejected(
            "repeated filter",
            item(
                "devices: all",
                "device-filter: [\"0x20B010DE\", \"0x20b010de\"]",
                "mig-enabled: false"),
            "\"device-filter\" lists 0x20B010DE twice"),
        new Rejected(
            "time-slicing scalar",
            item("devices: all", "mig-enabled: false", "time-slicing: 4"),
            "\"time-slicing\" must be a mapping with the key replicas, got 4"),
        new Rejected(
            "time-slicing key misspelt",
            item("devices: all", "mig-enabled: false", "time-slicing: {replica: 4}"),
            "item 0: unknown key \"time-slicing.replica\""),
        new Rejected(
            "time-slicing without replicas",
            item("devices: all", "mig-enabled: false", "time-slicing: {}"),
            "item 0: missing key \"replicas\""),
        new Rejected(
            "zero replicas",
            item("devices: all", "mig-enabled: false", "time-slicing: {replicas: 0}"),
            "\"time-slicing.replicas\" must be an integer >= 1, got 0"),
        new Rejected(
            "time-slicing and mps",
            item(
                "devices: all",
                "mig-enabled: false",
                "time-slicing: {replicas: 2}",
                "mps: {replicas: 2}"),
            "item 0: \"time-slicing\" and \"mps\" are both set"),
        new Rejected(
            "zero MPS replicas",
            item("devices: all", "mig-enabled: false", "mps: {replicas: 0}"),
            "\"mps.replicas\" must be an integer >= 1, got 0"),
        new Rejected(
            "49 MPS replicas",
            item("devices: all", "mig-enabled: false", "mps: {replicas: 49}"),
            "\"mps.replicas\" is 49, above 48"),
        new Rejected(
            "sharing a profile not asked for",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7}",
                "sharing: {\"2g.10gb\": {mps: {replicas: 2}}}"),
            "item 0: \"sharing\" names profile \"2g.10gb\", which \"mig-devices\" does not ask"),
        new Rejected(
            "sharing a profile counted zero",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7, \"2g.10gb\": 0}",
                "sharing: {\"2g.10gb\": {mps: {replicas: 2}}}"),
            "\"sharing\" names profile \"2g.10gb\", which \"mig-devices\" does not ask"),
        new Rejected(
            "both kinds for one profile",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7}",
                "sharing: {\"1g.5gb\": {mps: {replicas: 2}, time-slicing: {replicas: 2}}}"),
            "\"sharing.1g.5gb\" must set exactly one of time-slicing and mps, got both"),
        new Rejected(
            "neither kind for one profile",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7}",
                "sharing: {\"1g.5gb\": {}}"),
            "\"sharing.1g.5gb\" must set exactly one of time-slicing and mps, got neither"),
        new Rejected(
            "unknown sharing kind",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7}",
                "sharing: {\"1g.5gb\": {vgpu: {replicas: 2}}}"),
            "unknown key \"sharing.1g.5gb.vgpu\""),
        new Rejected(
            "zero slice replicas",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7}",
                "sharing: {\"1g.5gb\": {time-slicing: {replicas: 0}}}"),
            "\"sharing.1g.5gb.time-slicing.replicas\" must be an integer >= 1, got 0"),
        new Rejected(
            "too many MPS replicas of a slice",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7}",
                "sharing: {\"1g.5gb\": {mps: {replicas: 100}}}"),
            "\"sharing.1g.5gb.mps.replicas\" is 100, above 48"),
        new Rejected(
            "bad profile name in sharing",
            item(
                "devices: all",
                "mig-enabled: true",
                "mig-devices: {\"1g.5gb\": 7}",
                "sharing: {\"1x.5gb\": {mps: {replicas: 2}}}"),
            "item 0: \"sharing\": "),
        new Rejected(
            "dynamic with MIG disabled",
            item("devices: all", "mig-enabled: false", "dynamic: true"),
            "item 0: \"dynamic\" is true but \"mig-enabled\" is false"),
        new Rejected(
            "dynamic with mig-devices",
            item("devices: all", "mig-enabled: true", "dynamic: true", "mig-devices: {}"),
            "item 0: \"dynamic\" is true, so \"mig-devices\" cannot be set"),
        new Rejected(
            "dynamic with sharing",
            item(
                "devices: all",
                "mig-enabled: true",
                "dynamic: true",
                "sharing: {\"1g.5gb\": {mps: {replicas: 2}}}"),
            "item 0: \"dynamic\" is true, so \"sharing\" cannot be set"),
        new Rejected(
            "dynamic with time-slicing",
            item(
                "devices: all",
                "mig-enabled: true",
                "dynamic: true",
                "time-slicing: {replicas: 2}"),
            "item 0: \"dynamic\" is true, so \"time-slicing\" cannot be set"),
        new Rejected(
            "dynamic with mps",
            item("devices: all", "mig-enabled: true", "dynamic: true", "mps: {replicas: 2}"),
            "item 0: \"dynamic\" is true, so \"mps\" cannot be set"),
        new Rejected(
            "dynamic not a boolean",
            item("devices: all", "mig-enabled: true", "dynamic: \"yes\""),
            "item 0: \"dynamic\" must be true or false, got"),
        new Rejected(
            "shares on static MIG slices",
            item("devices: all", "mig-enabled: true", "mig-devices: {}", "shares: true"),
            "item 0: \"shares\" is true with \"mig-enabled\" true but no \"dynamic\": true"),
        new Rejected(
            "shares with time-slicing",
            item(
                "devices: all",
                "mig-enabled: false",
                "shares: true",
                "time-slicing: {replicas: 2}"),
            "item 0: \"shares\" is true, so \"time-slicing\" cannot be set"),
        new Rejected(
            "shares with mps",
            item("devices: all", "mig-enabled: false", "shares: true", "mps: {replicas: 2}"),
            "item 0: \"shares\" is true, so \"mps\" cannot be set"),
        new Rejected(
            "shares not a boolean",
            item("devices: all", "mig-enabled: true", "dynamic: true", "shares: 1"),
            "item 0: \"shares\" must be true or false, got"));
  }

  @Test
  void readsSharesOfDynamicAndWholeGpus() {
    var parsed =
        MigConfigParser.parse(
            file(
                """
                  fractions:
                    - devices: [0]
                      mig-enabled: true
                      dynamic: true
                      shares: true
                    - devices: [1]
                      mig-enabled: false
                      shares: true
                    - devices: [2]
                      mig-enabled: true
                      dynamic: true
                      shares: false
                """));

    var items = parsed.config("fractions").orElseThrow().items();
    assertThat(items).extracting(MigConfigItem::shares).containsExactly(true, true, false);
    assertThat(items.get(1).migEnabled()).isFalse();
  }

  @Test
  void readsDynamicItemsWithoutMigDevices() {
    var parsed =
        MigConfigParser.parse(
            file(
                """
                  dra:
                    - devices: [0]
                      mig-enabled: true
                      dynamic: true
                    - devices: [1]
                      mig-enabled: true
                      dynamic: false
                      mig-devices: {"1g.5gb": 7}
                """));

    var items = parsed.config("dra").orElseThrow().items();
    assertThat(items.get(0).dynamic()).isTrue();
    assertThat(items.get(0).migEnabled()).isTrue();
    assertThat(items.get(0).migDevices()).isEmpty();
    assertThat(items.get(1).dynamic()).isFalse();
    assertThat(items.get(1).migDeviceCount()).isEqualTo(7);
  }

  @Test
  void readsTheSharingOfSlicesAndOfWholeGpus() {
    var parsed =
        MigConfigParser.parse(
            file(
                """
                  shared:
                    - devices: [0]
                      mig-enabled: true
                      mig-devices: {"3g.20gb": 1, "1g.5gb": 4}
                      sharing: {"3g.20gb": {mps: {replicas: 2}}, "1g.5gb": {time-slicing: {replicas: 3}}}
                    - devices: [1]
                      mig-enabled: false
                      mps: {replicas: 4}
                """));

    var items = parsed.config("shared").orElseThrow().items();
    assertThat(items.get(0).sharing())
        .containsExactly(
            java.util.Map.entry(ProfileName.parse("3g.20gb"), new Sharing.Mps(2)),
            java.util.Map.entry(ProfileName.parse("1g.5gb"), new Sharing.TimeSliced(3)));
    assertThat(items.get(0).gpuSharing()).isEmpty();
    assertThat(items.get(1).mps()).isEqualTo(new MpsSharing.Replicas(4));
    assertThat(items.get(1).gpuSharing()).contains(new Sharing.Mps(4));
  }

  @ParameterizedTest
  @MethodSource("rejected")
  void rejectsInvalidFilesNamingPlaceAndKey(Rejected c) {
    assertThatThrownBy(() -> MigConfigParser.parse(c.yaml(), "f.yaml"))
        .isInstanceOf(ConfigFileException.class)
        .hasMessageStartingWith("f.yaml: ")
        .hasMessageContaining(c.message());
  }

  @Test
  void acceptsMigEnabledWithoutInstancesAndSomeZeroCounts() {
    var parsed =
        MigConfigParser.parse(
            file(
                """
                  enabled:
                    - devices: all
                      mig-enabled: true
                      mig-devices: {}
                  some-zero:
                    - devices: all
                      mig-enabled: true
                      mig-devices: {"1g.10gb": 0, "3g.40gb": 2}
                """));

    assertThat(parsed.config("enabled").orElseThrow().items().getFirst().migDevices()).isEmpty();
    assertThat(parsed.config("some-zero").orElseThrow().items().getFirst().migDeviceCount())
        .isEqualTo(2);
  }

  @Test
  void readsAnEmptyMigDevicesValueAsNoDevices() {
    var parsed = MigConfigParser.parse(item("devices: all", "mig-enabled: false", "mig-devices:"));

    assertThat(parsed.configs().getFirst().items().getFirst().migDevices()).isEmpty();
  }

  @Test
  void selectsGpusByIndexAndFilter() {
    var parsed =
        MigConfigParser.parse(
            item(
                "devices: [1]",
                "device-filter: [\"0x20B010DE\", \"0x233010DE:0x16C110DE\"]",
                "mig-enabled: false"));
    var item = parsed.configs().getFirst().items().getFirst();

    assertThat(item.selects(1, 0x20B010DE, 0x12345678)).isTrue();
    assertThat(item.selects(0, 0x20B010DE, 0x12345678)).isFalse();
    assertThat(item.selects(1, 0x233010DE, 0x16C110DE)).isTrue();
    assertThat(item.selects(1, 0x233010DE, 0x16C210DE)).isFalse();
    assertThat(item.selects(1, 0x1EB810DE, 0)).isFalse();
  }
}
