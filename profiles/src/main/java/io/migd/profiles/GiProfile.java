package io.migd.profiles;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A GPU-instance profile of a GPU model, as {@code nvmlDeviceGetGpuInstanceProfileInfoV} and {@code
 * nvmlDeviceGetGpuInstancePossiblePlacements_v2} report it: what one GPU instance of this profile
 * gets, where it may sit, and which compute instances it can hold.
 *
 * @param name the profile name, such as {@code 1g.10gb+me}; never a compute-instance name
 * @param index the {@code NVML_GPU_INSTANCE_PROFILE_*} constant to ask NVML for the profile
 * @param id the profile ID NVML reports and {@code nvmlDeviceCreateGpuInstance*} uses
 * @param slices compute slices of the GPU instance (the {@code g} of the name)
 * @param instances how many GPU instances of this profile the GPU can hold at most
 * @param memoryMib memory of one GPU instance in MiB
 * @param smCount streaming multiprocessors
 * @param copyEngines copy engines (CE)
 * @param decoders video decoders (NVDEC)
 * @param encoders video encoders (NVENC)
 * @param jpegDecoders JPEG decoders (NVJPG)
 * @param opticalFlowAccelerators optical flow accelerators (OFA)
 * @param placements the possible placements, in the order NVML lists them
 * @param ciProfiles the compute-instance profiles a GPU instance of this profile offers
 */
public record GiProfile(
    ProfileName name,
    int index,
    int id,
    int slices,
    int instances,
    long memoryMib,
    int smCount,
    int copyEngines,
    int decoders,
    int encoders,
    int jpegDecoders,
    int opticalFlowAccelerators,
    List<Placement> placements,
    List<CiProfile> ciProfiles) {

  /**
   * Validates the profile and copies the lists.
   *
   * @throws IllegalArgumentException if the name has a compute-instance part or disagrees with
   *     {@code slices}, a count is out of range, or there is no placement
   */
  public GiProfile {
    Objects.requireNonNull(name, "name");
    placements = List.copyOf(placements);
    ciProfiles = List.copyOf(ciProfiles);
    if (name.hasComputeInstancePart() || name.gpuSlices() != slices) {
      throw new IllegalArgumentException(
          "GI profile " + name + " does not name a GPU instance of " + slices + " slices");
    }
    if (index < 0 || id < 0 || instances < 1 || memoryMib < 1 || smCount < 1) {
      throw new IllegalArgumentException("GI profile " + name + " has an invalid count");
    }
    if (Math.min(Math.min(copyEngines, decoders), Math.min(encoders, jpegDecoders)) < 0
        || opticalFlowAccelerators < 0) {
      throw new IllegalArgumentException("GI profile " + name + " has a negative engine count");
    }
    if (placements.isEmpty()) {
      throw new IllegalArgumentException("GI profile " + name + " has no placement");
    }
    for (var ci : ciProfiles) {
      if (ci.slices() > slices || ci.placements().stream().anyMatch(at -> at.end() > slices)) {
        throw new IllegalArgumentException(
            "GI profile " + name + ": CI profile id " + ci.id() + " does not fit inside it");
      }
    }
  }

  /**
   * The compute-instance profile of the given size, used for names such as {@code 1c.4g.20gb}.
   *
   * @param computeSlices compute slices of the compute instance
   * @return the CI profile, or empty if this GPU instance offers none of that size
   */
  public Optional<CiProfile> ciProfileBySlices(int computeSlices) {
    return ciProfiles.stream().filter(ci -> ci.slices() == computeSlices).findFirst();
  }

  /**
   * The compute instance a GPU instance of this profile gets when the config names no
   * compute-instance profile: the one that spans all its slices.
   *
   * @return the full-size CI profile (the catalogue guarantees there is one)
   */
  public CiProfile defaultCiProfile() {
    return ciProfileBySlices(slices)
        .orElseThrow(() -> new IllegalStateException("GI profile " + name + " has no full CI"));
  }

  /**
   * The number of memory slices one GPU instance of this profile occupies.
   *
   * @return the size of its placements
   */
  public int memorySlices() {
    return placements.getFirst().size();
  }
}
