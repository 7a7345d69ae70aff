package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceNamesTest {
  record Case(String name, String written, String expected, DeviceNames.Parsed parsed) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("whole GPU", DeviceNames.wholeGpu(7), "gpu-7", new DeviceNames.Parsed.WholeGpu(7)),
        new Case(
            "MIG placement",
            DeviceNames.mig(0, "1g.10gb", 19, 0),
            "gpu-0-mig-1g10gb-19-0",
            new DeviceNames.Parsed.Mig(0, "1g10gb", 19, 0)),
        new Case(
            "media extensions",
            DeviceNames.mig(12, "1g.10gb+me", 20, 6),
            "gpu-12-mig-1g10gb-me-20-6",
            new DeviceNames.Parsed.Mig(12, "1g10gb-me", 20, 6)),
        new Case(
            "all media extensions",
            DeviceNames.mig(1, "1g.24gb+me.all", 21, 3),
            "gpu-1-mig-1g24gb-meall-21-3",
            new DeviceNames.Parsed.Mig(1, "1g24gb-meall", 21, 3)),
        new Case(
            "graphics",
            DeviceNames.mig(0, "1g.24gb+gfx", 22, 1),
            "gpu-0-mig-1g24gb-gfx-22-1",
            new DeviceNames.Parsed.Mig(0, "1g24gb-gfx", 22, 1)),
        new Case(
            "compute instance not spanning its GPU instance",
            DeviceNames.computeInstance(0, "1c.4g.20gb", 5, 0, 2),
            "gpu-0-mig-1c4g20gb-5-0-ci2",
            new DeviceNames.Parsed.ComputeInstance(0, "1c4g20gb", 5, 0, 2)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void writesNvidiasNames(Case c) {
    assertThat(c.written()).isEqualTo(c.expected());
  }

  @ParameterizedTest
  @MethodSource("cases")
  void parsesNamesBack(Case c) {
    assertThat(DeviceNames.parse(c.written())).contains(c.parsed());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"gpu-01", "gpu-", "gpu-0-mig-1g10gb-19", "gpu-0-mig--19-0", "GPU-0", "mig-1g10gb"})
  void parsesNothingElse(String name) {
    assertThat(DeviceNames.parse(name)).isEqualTo(Optional.empty());
  }
}
