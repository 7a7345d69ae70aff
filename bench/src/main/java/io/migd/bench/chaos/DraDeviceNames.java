package io.migd.bench.chaos;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * migd's DRA device names read against NVML: whether the instance a name stands for exists, and
 * whether two names are slices that overlap.
 */
final class DraDeviceNames {
  /** {@code gpu-<minor>} or {@code gpu-<minor>-mig-<profile>-<giProfileId>-<start>[-ci<n>]}. */
  private static final Pattern DEVICE =
      Pattern.compile("gpu-(\\d+)(?:-mig-([a-z0-9-]+?)-(\\d+)-(\\d+)(-ci\\d+)?)?");

  /** What a shareable twin's name adds to its exclusive device's. */
  private static final String TWIN = "-shared";

  private DraDeviceNames() {}

  /** The exclusive device of twin {@code device}; {@code device} itself when it is not a twin. */
  static String exclusive(String device) {
    return isTwin(device) ? device.substring(0, device.length() - TWIN.length()) : device;
  }

  /** Whether {@code device} is a shareable twin ({@code <device>-shared}). */
  static boolean isTwin(String device) {
    return device.endsWith(TWIN);
  }

  /** The minor of the GPU {@code device} names; empty when it is not a name this runner knows. */
  static Optional<Integer> minor(String device) {
    Matcher m = DEVICE.matcher(device);
    return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  /** Why NVML does not show {@code device} as a prepared claim needs it; empty when it does. */
  static Optional<String> missing(NvmlView nvml, String device) {
    Matcher m = DEVICE.matcher(device);
    if (!m.matches()) {
      return Optional.of("not a device name this runner knows");
    }
    int minor = Integer.parseInt(m.group(1));
    if (minor >= nvml.gpus().size()) {
      return Optional.of("no GPU " + minor);
    }
    NvmlView.Gpu gpu = nvml.gpus().get(minor);
    if (m.group(2) == null) {
      return gpu.migCurrent() ? Optional.of("a whole GPU, but MIG is on") : Optional.empty();
    }
    if (!gpu.migCurrent()) {
      return Optional.of("MIG is off");
    }
    return instance(gpu, m).isPresent()
        ? Optional.empty()
        : Optional.of("NVML shows " + describe(gpu));
  }

  /**
   * The UUIDs NVML shows for {@code device}: the GPU's for a whole GPU, the MIG devices' of its
   * instance for a MIG device; none when NVML does not show it.
   */
  static List<String> uuids(NvmlView nvml, String device) {
    Matcher m = DEVICE.matcher(device);
    if (!m.matches() || missing(nvml, device).isPresent()) {
      return List.of();
    }
    NvmlView.Gpu gpu = nvml.gpus().get(Integer.parseInt(m.group(1)));
    if (m.group(2) == null) {
      return List.of(gpu.uuid());
    }
    return instance(gpu, m).stream()
        .flatMap(gi -> gi.computeInstances().stream())
        .map(NvmlView.ComputeInstance::uuid)
        .toList();
  }

  private static Optional<NvmlView.GpuInstance> instance(NvmlView.Gpu gpu, Matcher m) {
    int profileId = Integer.parseInt(m.group(3));
    int start = Integer.parseInt(m.group(4));
    boolean ciDevice = m.group(5) != null;
    return gpu.instances().stream()
        .filter(gi -> gi.profileId() == profileId && gi.start() == start)
        .filter(gi -> ciDevice || deviceProfile(gi.profile()).equals(m.group(2)))
        .filter(gi -> !gi.computeInstances().isEmpty())
        .findFirst();
  }

  /** Whether the slices {@code a} and {@code b} stand for share memory slices in NVML. */
  static boolean overlap(NvmlView nvml, String a, String b) {
    if (a.equals(b)) {
      return true;
    }
    Matcher ma = DEVICE.matcher(a);
    Matcher mb = DEVICE.matcher(b);
    if (!ma.matches() || !mb.matches()) {
      return false;
    }
    if (ma.group(2) == null || mb.group(2) == null) {
      return true;
    }
    if (ma.group(5) != null || mb.group(5) != null) {
      // compute instances of one static GPU instance: distinct names are distinct slices
      return false;
    }
    NvmlView.Gpu gpu = nvml.gpus().get(Integer.parseInt(ma.group(1)));
    Optional<NvmlView.GpuInstance> ia = instance(gpu, ma);
    Optional<NvmlView.GpuInstance> ib = instance(gpu, mb);
    if (ia.isEmpty() || ib.isEmpty()) {
      return false;
    }
    return ia.get().start() < ib.get().start() + ib.get().size()
        && ib.get().start() < ia.get().start() + ia.get().size();
  }

  /** A profile as device names spell it: {@code 1g.10gb} is {@code 1g10gb}. */
  static String deviceProfile(String profile) {
    return profile.toLowerCase().replace(".", "").replaceAll("[^a-z0-9-]", "-");
  }

  /** The GPU instances NVML shows on {@code gpu}, for a violation's detail. */
  static String describe(NvmlView.Gpu gpu) {
    return gpu.instances().stream()
        .map(gi -> gi.profile() + "@" + gi.start() + "/" + gi.computeInstances().size())
        .toList()
        .toString();
  }
}
