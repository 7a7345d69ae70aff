package io.migd.bench.chaos;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import java.util.List;
import java.util.Map;

/**
 * The sharing a chaos claim asks for with NVIDIA's opaque configs, chosen by its name (so the same
 * seed gives the same claims): none, time-slicing, or MPS (only where the MPS supervisor runs).
 * Each kind writes a {@code GpuConfig} and a {@code MigDeviceConfig} naming no request, so it
 * applies to whichever the test allocator picked.
 */
enum ChaosSharing {
  /** Exclusive use. */
  NONE,
  /** {@code TimeSlicing}: a time slice on whole GPUs, nothing on MIG devices. */
  TIME_SLICING,
  /** {@code MPS}: one daemon per device, multi-user on MIG devices. */
  MPS;

  /** The sharing of claim {@code name}; MPS only when {@code mpsServed}. */
  static ChaosSharing of(String name, boolean mpsServed) {
    return switch (Math.floorMod(name.hashCode(), 3)) {
      case 1 -> TIME_SLICING;
      case 2 -> mpsServed ? MPS : NONE;
      default -> NONE;
    };
  }

  /** The allocation's opaque configs for {@code driver}. */
  List<DeviceAllocationConfiguration> configs(String driver) {
    return switch (this) {
      case NONE -> List.of();
      case TIME_SLICING ->
          List.of(
              config(
                  driver,
                  "GpuConfig",
                  Map.of(
                      "strategy", "TimeSlicing", "timeSlicingConfig", Map.of("interval", "Short"))),
              config(driver, "MigDeviceConfig", Map.of("strategy", "TimeSlicing")));
      case MPS ->
          List.of(
              config(
                  driver,
                  "GpuConfig",
                  Map.of(
                      "strategy",
                      "MPS",
                      "mpsConfig",
                      Map.of(
                          "defaultActiveThreadPercentage",
                          50,
                          "defaultPinnedDeviceMemoryLimit",
                          "1Gi"))),
              config(
                  driver,
                  "MigDeviceConfig",
                  Map.of("strategy", "MPS", "mpsConfig", Map.of("multiUser", true))));
    };
  }

  private static DeviceAllocationConfiguration config(
      String driver, String kind, Map<String, Object> sharing) {
    return new DeviceAllocationConfigurationBuilder()
        .withSource("FromClaim")
        .withNewOpaque()
        .withDriver(driver)
        .withParameters(
            Map.of("apiVersion", "resource.nvidia.com/v1beta1", "kind", kind, "sharing", sharing))
        .endOpaque()
        .build();
  }
}
