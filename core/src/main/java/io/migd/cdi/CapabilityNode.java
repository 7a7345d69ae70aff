package io.migd.cdi;

/**
 * A MIG capability device node a container needs for one GPU or compute instance: {@code
 * /dev/nvidia-caps/nvidia-cap<minor>}, a character device of the {@code nvidia-caps} major.
 *
 * @param major the {@code nvidia-caps} major from {@code /proc/devices}
 * @param minor {@code DeviceFileMinor} of the instance's access file
 * @param fileMode {@code DeviceFileMode} of the access file (decimal, {@code 292} is 0444)
 */
public record CapabilityNode(int major, int minor, int fileMode) {
  /** The path of the node in the container (and on the host). */
  public String path() {
    return "/dev/nvidia-caps/nvidia-cap" + minor;
  }
}
