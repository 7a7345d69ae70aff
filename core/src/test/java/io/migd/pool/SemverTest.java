package io.migd.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SemverTest {
  @ParameterizedTest
  @CsvSource({
    "8.0, 8.0.0",
    "580.95.05, 580.95.5",
    "13.0, 13.0.0",
    "9.0, 9.0.0",
    "12, 12.0.0",
    "535.104.05, 535.104.5",
    "00.00.00, 0.0.0",
    "10.0, 10.0.0"
  })
  void writesNvmlVersionsAsSemver(String nvml, String semver) {
    assertThat(Semver.of(nvml)).isEqualTo(new Attribute.Version(semver));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "580.95.05.1", "v13.0", "13.0-rc1", "a.b"})
  void refusesWhatIsNotAVersion(String nvml) {
    assertThatThrownBy(() -> Semver.of(nvml)).isInstanceOf(IllegalArgumentException.class);
  }
}
