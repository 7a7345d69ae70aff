package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceFilterTest {

  record Case(String text, DeviceFilter filter, String canonical) {
    @Override
    public String toString() {
      return text;
    }
  }

  static Stream<Case> accepted() {
    return Stream.of(
        new Case("0x20B010DE", new DeviceFilter.Device(0x20B010DE), "0x20B010DE"),
        new Case("0x20b010de", new DeviceFilter.Device(0x20B010DE), "0x20B010DE"),
        new Case("0XFFFFFFFF", new DeviceFilter.Device(0xFFFFFFFF), "0xFFFFFFFF"),
        new Case(
            "0x20B010DE:0x134F10DE",
            new DeviceFilter.DeviceAndSubsystem(0x20B010DE, 0x134F10DE),
            "0x20B010DE:0x134F10DE"));
  }

  @ParameterizedTest
  @MethodSource("accepted")
  void parsesMigPartedDeviceIds(Case c) {
    assertThat(DeviceFilter.parse(c.text())).isEqualTo(c.filter()).hasToString(c.canonical());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "20B010DE",
        "0x20B010D",
        "0x20B010DE0",
        "0x20B010DG",
        " 0x20B010DE",
        "0x20B010DE:",
        "0x20B010DE:0x134F10DE:0x1",
        "548405470"
      })
  void rejectsOtherForms(String text) {
    assertThatThrownBy(() -> DeviceFilter.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a PCI id 0xDDDDVVVV");
  }
}
