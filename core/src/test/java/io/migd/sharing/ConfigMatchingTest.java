package io.migd.sharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.sharing.NvidiaConfig.DeviceType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigMatchingTest {
  private static final DeviceSharing EXCLUSIVE = new DeviceSharing.Exclusive();
  private static final DeviceSharing SHORT = new DeviceSharing.TimeSlicing(1);
  private static final DeviceSharing LONG = new DeviceSharing.TimeSlicing(3);
  private static final DeviceSharing MPS = new DeviceSharing.Mps(MpsConfig.DEFAULTS);

  record Case(
      String name, List<SharingConfig> configs, String request, DeviceType type, DeviceSharing to) {
    @Override
    public String toString() {
      return name;
    }
  }

  static SharingConfig gpu(boolean fromClass, List<String> requests, DeviceSharing sharing) {
    return new SharingConfig(fromClass, requests, NvidiaConfig.gpu(sharing));
  }

  static SharingConfig mig(boolean fromClass, List<String> requests, DeviceSharing sharing) {
    return new SharingConfig(fromClass, requests, NvidiaConfig.mig(sharing));
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("no config: exclusive", List.of(), "r", DeviceType.GPU, EXCLUSIVE),
        new Case(
            "the claim's config above the class's, whatever the order",
            List.of(gpu(false, List.of("r"), SHORT), gpu(true, List.of("r"), LONG)),
            "r",
            DeviceType.GPU,
            SHORT),
        new Case(
            "a later claim config above an earlier one",
            List.of(gpu(false, List.of("r"), SHORT), gpu(false, List.of("r"), MPS)),
            "r",
            DeviceType.GPU,
            MPS),
        new Case(
            "a config naming the request above one naming none",
            List.of(gpu(false, List.of("r"), SHORT), gpu(false, List.of(), LONG)),
            "r",
            DeviceType.GPU,
            SHORT),
        new Case(
            "a config naming no request applies to the devices its kind fits",
            List.of(gpu(false, List.of(), LONG), mig(false, List.of(), MPS)),
            "r",
            DeviceType.MIG,
            MPS),
        new Case(
            "a config naming another request does not apply",
            List.of(gpu(false, List.of("other"), LONG)),
            "r",
            DeviceType.GPU,
            EXCLUSIVE),
        new Case(
            "a config naming the request applies to its subrequests",
            List.of(mig(true, List.of("r"), MPS)),
            "r/small",
            DeviceType.MIG,
            MPS));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void picksAsNvidiaDoes(Case c) {
    assertThat(ConfigMatching.sharingOf(c.configs(), c.request(), "dev", c.type()))
        .isEqualTo(c.to());
  }

  @Test
  void refusesAConfigNamingTheRequestOfAnotherKind() {
    assertThatThrownBy(
            () ->
                ConfigMatching.sharingOf(
                    List.of(gpu(false, List.of("r"), MPS)),
                    "r",
                    "gpu-0-mig-1g10gb-19-0",
                    DeviceType.MIG))
        .isInstanceOf(ConfigRefused.class)
        .hasMessageContaining("cannot apply GpuConfig to device gpu-0-mig-1g10gb-19-0 of type mig");
  }
}
