package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PciSysfsTest {

  @Test
  void writesNvmlsBusIdInSysfsForm() {
    assertThat(PciSysfs.busId("00000000:3B:00.0")).isEqualTo("0000:3b:00.0");
    assertThat(PciSysfs.busId("00000001:C1:00.0")).isEqualTo("0001:c1:00.0");
    assertThat(PciSysfs.busId("0000:07:00.0")).isEqualTo("0000:07:00.0");
  }

  @Test
  void refusesABusIdWithoutDomainBusAndDevice() {
    assertThatThrownBy(() -> PciSysfs.busId("3B:00.0")).hasMessageContaining("3B:00.0");
  }
}
