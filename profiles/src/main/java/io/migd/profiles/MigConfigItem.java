package io.migd.profiles;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * One item of a named config: which GPUs it applies to and what they should look like.
 *
 * <pre>{@code
 * - devices: all
 *   device-filter: ["0x20B010DE"]
 *   mig-enabled: true
 *   mig-devices: {"1g.5gb": 2, "2g.10gb": 1, "3g.20gb": 1}
 *   sharing: {"3g.20gb": {mps: {replicas: 2}}, "1g.5gb": {time-slicing: {replicas: 3}}}
 * - devices: [1]
 *   mig-enabled: false
 *   mps: {replicas: 4}
 * - devices: [2]
 *   mig-enabled: true
 *   dynamic: true
 * }</pre>
 *
 * @param devices the {@code devices} key: all GPUs or a list of indexes
 * @param deviceFilters the {@code device-filter} entries; empty when the key is absent, and then
 *     the item applies to every model
 * @param migEnabled the {@code mig-enabled} key
 * @param migDevices the {@code mig-devices} key, profile name to count, in file order; empty when
 *     MIG is disabled. A compute-instance name such as {@code 1c.4g.20gb: 4} means one {@code
 *     4g.20gb} GPU instance holding four 1-slice compute instances (mig-parted's reading)
 * @param timeSlicing migd's {@code time-slicing} extension, {@link TimeSlicing.Unset} when absent
 * @param mps migd's {@code mps} extension, {@link MpsSharing.Unset} when absent; a GPU without MIG
 *     is shared by MPS instead of time-sliced
 * @param sharing migd's {@code sharing} extension: how every MIG slice of a profile is shared, in
 *     file order; each profile must be one the item asks for in {@code mig-devices}
 * @param dynamic migd's {@code dynamic} extension (DRA mode): the GPUs it selects publish every
 *     profile at every placement, and an instance is created only when a claim is prepared; needs
 *     {@code mig-enabled: true} and no {@code mig-devices}, {@code sharing}, {@code time-slicing}
 *     or {@code mps}
 * @param shares migd's {@code shares} extension (DRA mode): each device of the GPUs it selects is
 *     also published as a shareable twin, shared by claims with MPS limits; needs {@code dynamic:
 *     true} or {@code mig-enabled: false} (a whole GPU), and no {@code time-slicing} or {@code mps}
 */
public record MigConfigItem(
    DeviceSelection devices,
    List<DeviceFilter> deviceFilters,
    boolean migEnabled,
    SequencedMap<ProfileName, Integer> migDevices,
    TimeSlicing timeSlicing,
    MpsSharing mps,
    SequencedMap<ProfileName, Sharing> sharing,
    boolean dynamic,
    boolean shares) {

  /**
   * Validates the item and copies its collections.
   *
   * @throws IllegalArgumentException if MIG devices are given with MIG disabled, a count is
   *     negative, a filter repeats, both {@code time-slicing} and {@code mps} are set, {@code
   *     sharing} names a profile the item does not ask for, a dynamic item has MIG disabled, MIG
   *     devices or sharing, or a shares item is static with MIG enabled or has time-slicing or mps
   */
  public MigConfigItem {
    Objects.requireNonNull(devices, "devices");
    Objects.requireNonNull(timeSlicing, "timeSlicing");
    Objects.requireNonNull(mps, "mps");
    if (timeSlicing instanceof TimeSlicing.Replicas && mps instanceof MpsSharing.Replicas) {
      throw new IllegalArgumentException("time-slicing and mps are both set; choose one");
    }
    deviceFilters = List.copyOf(deviceFilters);
    if (deviceFilters.stream().distinct().count() != deviceFilters.size()) {
      throw new IllegalArgumentException("device-filter repeats an id: " + deviceFilters);
    }
    var copy = new LinkedHashMap<ProfileName, Integer>();
    migDevices.forEach(
        (name, count) -> {
          if (count < 0) {
            throw new IllegalArgumentException("count of " + name + " is negative: " + count);
          }
          copy.put(Objects.requireNonNull(name), count);
        });
    if (!migEnabled && !copy.isEmpty()) {
      throw new IllegalArgumentException("mig-devices given with mig-enabled false");
    }
    migDevices = Collections.unmodifiableSequencedMap(copy);
    var shared = new LinkedHashMap<ProfileName, Sharing>();
    for (var entry : sharing.entrySet()) {
      var profile = Objects.requireNonNull(entry.getKey());
      if (migDevices.getOrDefault(profile, 0) == 0) {
        throw new IllegalArgumentException(
            "sharing names profile " + profile + ", which mig-devices does not ask for");
      }
      shared.put(profile, Objects.requireNonNull(entry.getValue()));
    }
    sharing = Collections.unmodifiableSequencedMap(shared);
    if (dynamic) {
      if (!migEnabled) {
        throw new IllegalArgumentException("dynamic needs mig-enabled true");
      }
      if (!migDevices.isEmpty()
          || !(timeSlicing instanceof TimeSlicing.Unset)
          || !(mps instanceof MpsSharing.Unset)) {
        throw new IllegalArgumentException(
            "dynamic takes no mig-devices, time-slicing or mps: claims make the instances");
      }
    }
    if (shares) {
      if (migEnabled && !dynamic) {
        throw new IllegalArgumentException(
            "shares needs dynamic true or mig-enabled false: static MIG slices are not shared");
      }
      if (!(timeSlicing instanceof TimeSlicing.Unset) || !(mps instanceof MpsSharing.Unset)) {
        throw new IllegalArgumentException(
            "shares takes no time-slicing or mps: shares are MPS clients with their own limits");
      }
    }
  }

  /**
   * A static item (not {@code dynamic}).
   *
   * @param devices the {@code devices} key
   * @param deviceFilters the {@code device-filter} entries
   * @param migEnabled the {@code mig-enabled} key
   * @param migDevices the {@code mig-devices} key
   * @param timeSlicing the {@code time-slicing} key
   * @param mps the {@code mps} key
   * @param sharing the {@code sharing} key
   */
  public MigConfigItem(
      DeviceSelection devices,
      List<DeviceFilter> deviceFilters,
      boolean migEnabled,
      SequencedMap<ProfileName, Integer> migDevices,
      TimeSlicing timeSlicing,
      MpsSharing mps,
      SequencedMap<ProfileName, Sharing> sharing) {
    this(devices, deviceFilters, migEnabled, migDevices, timeSlicing, mps, sharing, false, false);
  }

  /**
   * A dynamic item: MIG enabled, instances made only when claims are prepared (DRA mode).
   *
   * @param devices which GPUs
   * @param deviceFilters the {@code device-filter} entries
   * @return the item
   */
  public static MigConfigItem dynamic(DeviceSelection devices, List<DeviceFilter> deviceFilters) {
    return dynamic(devices, deviceFilters, false);
  }

  /**
   * A dynamic item, its devices also published as shareable twins when {@code shares} is true.
   *
   * @param devices which GPUs
   * @param deviceFilters the {@code device-filter} entries
   * @param shares the {@code shares} key
   * @return the item
   */
  public static MigConfigItem dynamic(
      DeviceSelection devices, List<DeviceFilter> deviceFilters, boolean shares) {
    return new MigConfigItem(
        devices,
        deviceFilters,
        true,
        new LinkedHashMap<>(),
        new TimeSlicing.Unset(),
        new MpsSharing.Unset(),
        new LinkedHashMap<>(),
        true,
        shares);
  }

  /**
   * A whole GPU (MIG disabled) whose device is also published as a shareable twin (DRA mode).
   *
   * @param devices which GPUs
   * @param deviceFilters the {@code device-filter} entries
   * @return the item
   */
  public static MigConfigItem sharedWhole(
      DeviceSelection devices, List<DeviceFilter> deviceFilters) {
    return new MigConfigItem(
        devices,
        deviceFilters,
        false,
        new LinkedHashMap<>(),
        new TimeSlicing.Unset(),
        new MpsSharing.Unset(),
        new LinkedHashMap<>(),
        false,
        true);
  }

  /**
   * An item without {@code mps} or {@code sharing}.
   *
   * @param devices the {@code devices} key
   * @param deviceFilters the {@code device-filter} entries
   * @param migEnabled the {@code mig-enabled} key
   * @param migDevices the {@code mig-devices} key
   * @param timeSlicing the {@code time-slicing} key
   */
  public MigConfigItem(
      DeviceSelection devices,
      List<DeviceFilter> deviceFilters,
      boolean migEnabled,
      SequencedMap<ProfileName, Integer> migDevices,
      TimeSlicing timeSlicing) {
    this(
        devices,
        deviceFilters,
        migEnabled,
        migDevices,
        timeSlicing,
        new MpsSharing.Unset(),
        new LinkedHashMap<>());
  }

  /**
   * How the item shares a GPU without MIG when it says so: {@code time-slicing} or {@code mps}.
   *
   * @return the sharing, empty when the item has neither key (migd then falls back to the MIG
   *     device count)
   */
  public Optional<Sharing> gpuSharing() {
    return switch (mps) {
      case MpsSharing.Replicas(var n) -> Optional.of(new Sharing.Mps(n));
      case MpsSharing.Unset() ->
          switch (timeSlicing) {
            case TimeSlicing.Replicas(var n) -> Optional.of(new Sharing.TimeSliced(n));
            case TimeSlicing.Unset() -> Optional.empty();
          };
    };
  }

  /**
   * An item without MIG devices or time-slicing: {@code all-disabled} and {@code all-enabled}
   * items.
   *
   * @param devices which GPUs
   * @param migEnabled the MIG mode they should have
   * @return the item
   */
  public static MigConfigItem of(DeviceSelection devices, boolean migEnabled) {
    return new MigConfigItem(
        devices, List.of(), migEnabled, new LinkedHashMap<>(), new TimeSlicing.Unset());
  }

  /**
   * Whether the item applies to a GPU: its index is among {@code devices} and, if there is a {@code
   * device-filter}, one of its entries matches the GPU's PCI ids.
   *
   * @param gpuIndex the GPU's NVML index
   * @param pciDeviceId the GPU's PCI device id, {@code 0xDDDDVVVV}
   * @param pciSubsystemId the GPU's PCI subsystem id, {@code 0xSSSSVVVV}
   * @return true if the item applies
   */
  public boolean selects(int gpuIndex, int pciDeviceId, int pciSubsystemId) {
    return devices.includes(gpuIndex)
        && (deviceFilters.isEmpty()
            || deviceFilters.stream().anyMatch(f -> f.matches(pciDeviceId, pciSubsystemId)));
  }

  /**
   * Whether the item's {@code device-filter} can select GPUs of this model: no filter, or an entry
   * with the model's device id (a subsystem entry may select only some boards of it).
   *
   * @param model a catalogue model
   * @return true if GPUs of the model may be selected
   */
  public boolean mayApplyTo(GpuModel model) {
    return deviceFilters.isEmpty()
        || deviceFilters.stream().anyMatch(f -> f.deviceId() == model.pciDeviceId());
  }

  /**
   * The number of MIG devices the item asks for, compute instances counted one each: {@code
   * all-1g.5gb} gives 7. migd gives a GPU without MIG this many time-sliced replicas when the item
   * sets no {@code time-slicing}.
   *
   * @return the sum of the {@code mig-devices} counts
   */
  public int migDeviceCount() {
    return migDevices.values().stream().mapToInt(Integer::intValue).sum();
  }
}
