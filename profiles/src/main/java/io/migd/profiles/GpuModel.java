package io.migd.profiles;

import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A GPU model of the built-in catalogue: what NVML would report about it, and its MIG profiles.
 *
 * <p>migd uses the catalogue when NVML cannot answer MIG queries (MIG disabled on an older driver)
 * and to generate and check config files; the simulated NVML reads the same data.
 *
 * @param key the model key used by {@code --simulate} and {@code NVML_SIM_GPUS}, such as {@code
 *     A100-SXM4-40GB}
 * @param nvmlName the name {@code nvmlDeviceGetName} returns, such as {@code NVIDIA A30}
 * @param pciDeviceId the PCI device and vendor id as one number {@code 0xDDDDVVVV}, as {@code
 *     nvmlDeviceGetPciInfo} reports it in {@code pciDeviceId} and mig-parted writes it in a {@code
 *     device-filter}
 * @param architecture the {@code NVML_DEVICE_ARCH_*} constant (7 Ampere, 9 Hopper, 10 Blackwell)
 * @param computeCapability the CUDA compute capability
 * @param memoryMib total memory in MiB, the total the profile names are derived from
 * @param smCount streaming multiprocessors of the whole GPU
 * @param migCapable whether the GPU supports MIG at all
 * @param memorySlices memory slices placements count in (0 without MIG)
 * @param giProfiles the GPU-instance profiles, in catalogue order (empty without MIG)
 */
public record GpuModel(
    String key,
    String nvmlName,
    int pciDeviceId,
    int architecture,
    ComputeCapability computeCapability,
    long memoryMib,
    int smCount,
    boolean migCapable,
    int memorySlices,
    List<GiProfile> giProfiles) {

  /**
   * Validates the model and copies the profile list.
   *
   * @throws IllegalArgumentException if MIG data is given for a model without MIG or missing for
   *     one with it, or a placement lies outside the memory slices
   */
  public GpuModel {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(nvmlName, "nvmlName");
    Objects.requireNonNull(computeCapability, "computeCapability");
    giProfiles = List.copyOf(giProfiles);
    if (memoryMib < 1 || smCount < 1) {
      throw new IllegalArgumentException("model " + key + " needs positive memory and SM count");
    }
    if (migCapable != (memorySlices > 0) || migCapable == giProfiles.isEmpty()) {
      throw new IllegalArgumentException(
          "model "
              + key
              + ": a MIG-capable model needs memory slices and GI profiles, others none");
    }
    for (var profile : giProfiles) {
      for (var placement : profile.placements()) {
        if (placement.end() > memorySlices) {
          throw new IllegalArgumentException(
              "model "
                  + key
                  + ": placement "
                  + placement
                  + " of "
                  + profile.name()
                  + " exceeds "
                  + memorySlices
                  + " memory slices");
        }
      }
    }
  }

  /**
   * Compute slices of the whole GPU: 7 on A100/H100/H200/B200, 4 on A30, 0 without MIG. This is the
   * slice count of the largest GPU-instance profile.
   *
   * @return the compute slices
   */
  public int computeSlices() {
    return giProfiles.stream().mapToInt(GiProfile::slices).max().orElse(0);
  }

  /**
   * The GPU-instance profile a name refers to. A compute-instance name such as {@code 1c.4g.20gb}
   * finds its GPU-instance profile {@code 4g.20gb}.
   *
   * @param name a profile name
   * @return the GI profile, or empty if this model does not offer it
   */
  public Optional<GiProfile> giProfile(ProfileName name) {
    var giName = name.giProfileName();
    return giProfiles.stream().filter(p -> p.name().equals(giName)).findFirst();
  }

  /**
   * The GPU-instance profile with the given NVML profile ID, as NVML reports it for an existing GPU
   * instance.
   *
   * @param id the profile ID
   * @return the GI profile, or empty if this model has none with that ID
   */
  public Optional<GiProfile> giProfileById(int id) {
    return giProfiles.stream().filter(p -> p.id() == id).findFirst();
  }

  /**
   * The PCI device id in mig-parted's {@code device-filter} form.
   *
   * @return for example {@code "0x20B010DE"}
   */
  public String pciDeviceIdHex() {
    return "0x" + HexFormat.of().withUpperCase().toHexDigits(pciDeviceId);
  }
}
