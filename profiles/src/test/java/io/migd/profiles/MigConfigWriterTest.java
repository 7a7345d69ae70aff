package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MigConfigWriterTest {

  record Case(String name, MigConfigFile file) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> files() throws IOException {
    var cases = Stream.<Case>builder();
    try (var shipped = Files.list(Path.of("configs"))) {
      for (var path : shipped.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        cases.add(new Case(path.getFileName().toString(), MigConfigParser.parse(path)));
      }
    }
    var catalog = GpuModelCatalog.builtIn();
    cases.add(new Case("generated", GeneratedConfigs.forModels(catalog.models())));
    for (var model : catalog.models()) {
      cases.add(new Case("generated " + model.key(), GeneratedConfigs.forModels(List.of(model))));
    }
    cases.add(new Case("awkward names and every key", awkward()));
    cases.add(new Case("sharing of slices and GPUs", shared()));
    cases.add(new Case("shares of dynamic and whole GPUs", fractions()));
    return cases.build();
  }

  private static MigConfigFile awkward() {
    var devices = new LinkedHashMap<ProfileName, Integer>();
    devices.put(ProfileName.parse("1c.4g.20gb"), 4);
    devices.put(ProfileName.parse("1g.24gb-me+gfx"), 0);
    var item =
        new MigConfigItem(
            new DeviceSelection.Indexes(List.of(3, 0)),
            List.of(new DeviceFilter.DeviceAndSubsystem(0x20B010DE, 0x134F10DE)),
            true,
            devices,
            new TimeSlicing.Replicas(2));
    var names =
        List.of(
            "yes",
            "true",
            "1.0",
            "a b",
            "x: y",
            "# not a comment",
            "quote \" and \\",
            "-x",
            "tab\there",
            "ünïcode",
            "line\u2028separator");
    return MigConfigFile.of(names.stream().map(n -> new MigConfig(n, List.of(item))).toList());
  }

  private static MigConfigFile shared() {
    var devices = new LinkedHashMap<ProfileName, Integer>();
    devices.put(ProfileName.parse("3g.20gb"), 1);
    devices.put(ProfileName.parse("1g.5gb"), 4);
    var sharing = new LinkedHashMap<ProfileName, Sharing>();
    sharing.put(ProfileName.parse("3g.20gb"), new Sharing.Mps(2));
    sharing.put(ProfileName.parse("1g.5gb"), new Sharing.TimeSliced(3));
    var a100 =
        new MigConfigItem(
            new DeviceSelection.Indexes(List.of(0)),
            List.of(),
            true,
            devices,
            new TimeSlicing.Unset(),
            new MpsSharing.Unset(),
            sharing);
    var t4 =
        new MigConfigItem(
            new DeviceSelection.Indexes(List.of(1)),
            List.of(),
            false,
            new LinkedHashMap<>(),
            new TimeSlicing.Unset(),
            new MpsSharing.Replicas(4),
            new LinkedHashMap<>());
    return MigConfigFile.of(List.of(new MigConfig("shared", List.of(a100, t4))));
  }

  private static MigConfigFile fractions() {
    return MigConfigFile.of(
        List.of(
            new MigConfig(
                "fractions",
                List.of(
                    MigConfigItem.dynamic(new DeviceSelection.Indexes(List.of(0)), List.of(), true),
                    MigConfigItem.sharedWhole(new DeviceSelection.All(), List.of())))));
  }

  @Test
  void writesSharesBack() {
    assertThat(MigConfigWriter.write(fractions()))
        .contains(
            """
                - devices: [0]
                  mig-enabled: true
                  dynamic: true
                  shares: true
                - devices: all
                  mig-enabled: false
                  shares: true
            """);
  }

  @Test
  void writesSharingBack() {
    assertThat(MigConfigWriter.write(shared()))
        .contains(
            """
                  sharing:
                    "3g.20gb": {mps: {replicas: 2}}
                    "1g.5gb": {time-slicing: {replicas: 3}}
            """)
        .contains("      mps: {replicas: 4}\n");
  }

  @ParameterizedTest
  @MethodSource("files")
  void readsBackWhatItWrites(Case c) {
    var yaml = MigConfigWriter.write(c.file());

    assertThat(MigConfigParser.parse(yaml, c.name())).isEqualTo(c.file());
  }

  @Test
  void writesMigPartedLayout() {
    var devices = new LinkedHashMap<ProfileName, Integer>();
    devices.put(ProfileName.parse("1g.10gb+me"), 1);
    devices.put(ProfileName.parse("3g.40gb"), 2);
    var file =
        MigConfigFile.of(
            List.of(
                new MigConfig(
                    "all-disabled", List.of(MigConfigItem.of(new DeviceSelection.All(), false))),
                new MigConfig(
                    "custom",
                    List.of(
                        new MigConfigItem(
                            new DeviceSelection.Indexes(List.of(0, 1)),
                            List.of(new DeviceFilter.Device(0x233010DE)),
                            true,
                            devices,
                            new TimeSlicing.Replicas(4)),
                        MigConfigItem.of(new DeviceSelection.Indexes(List.of(2)), true)))));

    assertThat(MigConfigWriter.write(file))
        .isEqualTo(
            """
            version: v1
            mig-configs:
              all-disabled:
                - devices: all
                  mig-enabled: false

              custom:
                - devices: [0, 1]
                  device-filter: ["0x233010DE"]
                  mig-enabled: true
                  mig-devices:
                    "1g.10gb+me": 1
                    "3g.40gb": 2
                  time-slicing: {replicas: 4}
                - devices: [2]
                  mig-enabled: true
                  mig-devices: {}
            """);
  }
}
