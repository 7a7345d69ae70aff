package io.migd.sharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.sharing.MpsConfig.MemoryLimit;
import io.migd.sharing.MpsConfig.ThreadPercentage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class NvidiaConfigDecoderTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String V1BETA1 = "\"apiVersion\": \"resource.nvidia.com/v1beta1\", ";

  record Accepted(String name, String json, NvidiaConfig expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  record Refused(String name, String json, String sentence) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Accepted> accepted() {
    var perDevice = new LinkedHashMap<String, MemoryLimit.Mib>();
    perDevice.put("GPU-a", new MemoryLimit.Mib(1024));
    perDevice.put("1", new MemoryLimit.Mib(512));
    return Stream.of(
        new Accepted(
            "NVIDIA's quickstart MPS claim",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"MPS\","
                + " \"mpsConfig\": {\"defaultActiveThreadPercentage\": 50,"
                + " \"defaultPinnedDeviceMemoryLimit\": \"10Gi\"}}}",
            NvidiaConfig.gpu(
                new DeviceSharing.Mps(
                    new MpsConfig(
                        false,
                        new ThreadPercentage.Percent(50),
                        new MemoryLimit.Mib(10240),
                        Map.of())))),
        new Accepted(
            "no sharing is exclusive",
            "{" + V1BETA1 + "\"kind\": \"GpuConfig\"}",
            NvidiaConfig.gpu(new DeviceSharing.Exclusive())),
        new Accepted(
            "time slicing without a config is the Default interval",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"TimeSlicing\"}}",
            NvidiaConfig.gpu(new DeviceSharing.TimeSlicing(0))),
        new Accepted(
            "time slicing Long is 3",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"TimeSlicing\","
                + " \"timeSlicingConfig\": {\"interval\": \"Long\"}}}",
            NvidiaConfig.gpu(new DeviceSharing.TimeSlicing(3))),
        new Accepted(
            "MPS on a MIG device, multi-user, per device limits by UUID and index",
            "{"
                + V1BETA1
                + "\"kind\": \"MigDeviceConfig\", \"sharing\": {\"strategy\": \"MPS\","
                + " \"mpsConfig\": {\"multiUser\": true, \"defaultPerDevicePinnedMemoryLimit\":"
                + " {\"GPU-a\": \"1Gi\", \"1\": \"536870912\"}}}}",
            NvidiaConfig.mig(
                new DeviceSharing.Mps(
                    new MpsConfig(
                        true,
                        new ThreadPercentage.ServerDefault(),
                        new MemoryLimit.Unlimited(),
                        perDevice)))),
        new Accepted(
            "an empty mpsConfig, decimal quantities floored to MiB",
            "{"
                + V1BETA1
                + "\"kind\": \"MigDeviceConfig\", \"sharing\": {\"strategy\": \"MPS\","
                + " \"mpsConfig\": {\"defaultPinnedDeviceMemoryLimit\": \"2G\"}}}",
            NvidiaConfig.mig(
                new DeviceSharing.Mps(
                    new MpsConfig(
                        false,
                        new ThreadPercentage.ServerDefault(),
                        new MemoryLimit.Mib(1907),
                        Map.of())))));
  }

  static Stream<Refused> refused() {
    return Stream.of(
        new Refused(
            "multiUser misspelt",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"MPS\","
                + " \"mpsConfig\": {\"multiuser\": true}}}",
            "unknown field multiuser in GpuConfig.sharing.mpsConfig"),
        new Refused(
            "an unknown field at the top",
            "{" + V1BETA1 + "\"kind\": \"GpuConfig\", \"replicas\": 2}",
            "unknown field replicas in GpuConfig"),
        new Refused(
            "time slicing config on a MIG device",
            "{"
                + V1BETA1
                + "\"kind\": \"MigDeviceConfig\", \"sharing\": {\"strategy\":"
                + " \"TimeSlicing\", \"timeSlicingConfig\": {\"interval\": \"Short\"}}}",
            "unknown field timeSlicingConfig in MigDeviceConfig.sharing"),
        new Refused(
            "VFIO",
            "{" + V1BETA1 + "\"kind\": \"VfioDeviceConfig\"}",
            "kind VfioDeviceConfig is not served by migd"),
        new Refused(
            "a ComputeDomain channel",
            "{" + V1BETA1 + "\"kind\": \"ComputeDomainChannelConfig\", \"domainID\": \"x\"}",
            "kind ComputeDomainChannelConfig is not served by migd"),
        new Refused(
            "the old API group",
            "{\"apiVersion\": \"gpu.nvidia.com/v1alpha1\", \"kind\": \"GpuConfig\"}",
            "apiVersion gpu.nvidia.com/v1alpha1 is not resource.nvidia.com/v1beta1"),
        new Refused(
            "an unknown strategy",
            "{" + V1BETA1 + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"Fractions\"}}",
            "unknown GPU sharing strategy Fractions"),
        new Refused(
            "a time slicing config with MPS",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"MPS\","
                + " \"timeSlicingConfig\": {}}}",
            "timeSlicingConfig is set, but the strategy is MPS"),
        new Refused(
            "a thread percentage above 100",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"MPS\","
                + " \"mpsConfig\": {\"defaultActiveThreadPercentage\": 101}}}",
            "must not be greater than 100"),
        new Refused(
            "a limit below 1Mi",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"MPS\","
                + " \"mpsConfig\": {\"defaultPinnedDeviceMemoryLimit\": \"512Ki\"}}}",
            "value set too low"),
        new Refused(
            "an unknown interval",
            "{"
                + V1BETA1
                + "\"kind\": \"GpuConfig\", \"sharing\": {\"strategy\": \"TimeSlicing\","
                + " \"timeSlicingConfig\": {\"interval\": \"Forever\"}}}",
            "interval Forever is not one of Default, Short, Medium, Long"));
  }

  @ParameterizedTest
  @MethodSource("accepted")
  void decodesAsNvidiaDoes(Accepted c) {
    assertThat(NvidiaConfigDecoder.decode(JSON.readValue(c.json(), Object.class)))
        .isEqualTo(c.expected());
  }

  @ParameterizedTest
  @MethodSource("refused")
  void refusesNamingWhat(Refused c) {
    assertThatThrownBy(() -> NvidiaConfigDecoder.decode(JSON.readValue(c.json(), Object.class)))
        .isInstanceOf(ConfigRefused.class)
        .hasMessageContaining(c.sentence());
  }

  @Test
  void perDeviceLimitsGoByUuidThenByIndexIntoTheSortedUuids() {
    var perDevice = new LinkedHashMap<String, MemoryLimit.Mib>();
    perDevice.put("MIG-b", new MemoryLimit.Mib(100));
    perDevice.put("0", new MemoryLimit.Mib(200));
    var config =
        new MpsConfig(
            false, new ThreadPercentage.ServerDefault(), new MemoryLimit.Mib(300), perDevice);
    List<String> devices = List.of("MIG-c", "MIG-b", "MIG-a");
    assertThat(config.memoryOf("MIG-b", devices)).isEqualTo(new MemoryLimit.Mib(100));
    assertThat(config.memoryOf("MIG-a", devices)).isEqualTo(new MemoryLimit.Mib(200));
    assertThat(config.memoryOf("MIG-c", devices)).isEqualTo(new MemoryLimit.Mib(300));
    assertThatThrownBy(() -> config.memoryOf("MIG-a", List.of("MIG-a")))
        .hasMessageContaining("names MIG-b");
  }
}
