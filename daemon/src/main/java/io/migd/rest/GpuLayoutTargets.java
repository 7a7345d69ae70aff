package io.migd.rest;

import static io.migd.rest.LayoutRequests.MAX_MIG_DEVICES;
import static io.migd.rest.LayoutRequests.MAX_REPLICAS;
import static io.migd.rest.LayoutRequests.printable;

import io.migd.api.rest.GpuLayout;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.TargetResolver;
import io.migd.profiles.ProfileName;
import io.migd.profiles.ProfileNameException;
import io.migd.profiles.Sharing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One GPU of a {@code PUT /api/v1/layout} body read into its target, part by part: the GPU's index,
 * a whole GPU shared by time-slicing or MPS (or not at all), its MIG devices, and the sharing of
 * its MIG slices. Every failure is a {@link RestProblem} (422 for what the body says) that names
 * the GPU and the key.
 */
final class GpuLayoutTargets {
  private GpuLayoutTargets() {}

  /** The target {@code gpu}, at {@code gpus[i]} of the body, asks for, or 422. */
  static GpuTarget target(GpuLayout gpu, int i) {
    String at = "gpus[" + i + "]";
    if (gpu.gpu() == null) {
      throw RestProblem.unprocessable(at + " has no \"gpu\" (the GPU's index)");
    }
    int index = gpu.gpu();
    if (index < 0) {
      throw RestProblem.unprocessable(
          "GPU index " + index + " is out of range: GPU indices start at 0");
    }
    var gpuIndex = new GpuIndex(index);
    if (Boolean.TRUE.equals(gpu.dynamic())) {
      return dynamic(gpu, gpuIndex);
    }
    if (Boolean.TRUE.equals(gpu.shares())) {
      return sharedWhole(gpu, gpuIndex);
    }
    boolean migEnabled = gpu.migEnabled() != null ? gpu.migEnabled() : gpu.migDevices() != null;
    if (gpu.timeSlicing() != null && gpu.mps() != null) {
      throw RestProblem.unprocessable(
          "GPU " + index + ": \"timeSlicing\" and \"mps\" are both given; a GPU is shared one way");
    }
    if (gpu.timeSlicing() != null || gpu.mps() != null) {
      return sharedWhole(gpu, gpuIndex, migEnabled);
    }
    if (!migEnabled) {
      return unsharedWhole(gpu, gpuIndex);
    }
    var devices = migDevices(gpu, index);
    var sliceSharing = sliceSharing(gpu, index, devices);
    try {
      return GpuTarget.mig(gpuIndex, TargetResolver.gpuInstances(devices), sliceSharing);
    } catch (IllegalArgumentException e) {
      throw RestProblem.unprocessable("GPU " + index + ": " + e.getMessage());
    }
  }

  /**
   * A dynamic GPU ({@code "dynamic": true}): MIG enabled (a {@code "migEnabled"} of false is
   * refused), and none of the keys that say what it holds or how it is shared, since claims decide
   * that. Whether the kubelet mode allows it is the decision's part.
   */
  private static GpuTarget dynamic(GpuLayout gpu, GpuIndex gpuIndex) {
    int index = gpuIndex.value();
    if (Boolean.FALSE.equals(gpu.migEnabled())) {
      throw RestProblem.unprocessable(
          "GPU " + index + ": \"dynamic\": true needs MIG enabled, but \"migEnabled\" is false");
    }
    requireNone(
        gpu,
        "\"dynamic\": true",
        "a dynamic GPU's instances are made when claims are prepared, and it is not shared");
    return GpuTarget.dynamic(gpuIndex, Boolean.TRUE.equals(gpu.shares()));
  }

  /**
   * A whole GPU published with a shareable twin ({@code "shares": true} without {@code "dynamic"}):
   * MIG disabled (a {@code "migEnabled"} of true is refused, since static MIG slices are not
   * shared), and not shared by replicas.
   */
  private static GpuTarget sharedWhole(GpuLayout gpu, GpuIndex gpuIndex) {
    if (Boolean.TRUE.equals(gpu.migEnabled())) {
      throw RestProblem.unprocessable(
          "GPU "
              + gpuIndex
              + ": \"shares\": true needs \"dynamic\": true or \"migEnabled\": false; static MIG"
              + " slices are not shared");
    }
    requireNone(
        gpu,
        "\"shares\": true",
        "each share is an MPS client of the whole GPU with its own memory and compute limits");
    return GpuTarget.sharedWhole(gpuIndex);
  }

  /**
   * 422 naming the keys when any of those that say what a GPU holds or how replicas share it is
   * given beside {@code what}.
   */
  private static void requireNone(GpuLayout gpu, String what, String why) {
    var set = new ArrayList<String>();
    if (gpu.migDevices() != null) {
      set.add("migDevices");
    }
    if (gpu.timeSlicing() != null) {
      set.add("timeSlicing");
    }
    if (gpu.mps() != null) {
      set.add("mps");
    }
    if (gpu.sharing() != null) {
      set.add("sharing");
    }
    if (!set.isEmpty()) {
      throw RestProblem.unprocessable(
          "GPU "
              + gpu.gpu()
              + ": "
              + what
              + " takes no \""
              + String.join("\", \"", set)
              + "\": "
              + why);
    }
  }

  /** A whole GPU (MIG disabled) shared by {@code "timeSlicing"} or {@code "mps"}. */
  private static GpuTarget sharedWhole(GpuLayout gpu, GpuIndex gpuIndex, boolean migEnabled) {
    int index = gpuIndex.value();
    String key = gpu.timeSlicing() != null ? "timeSlicing" : "mps";
    if (migEnabled) {
      throw RestProblem.unprocessable(
          "GPU " + index + ": \"" + key + "\" applies to a GPU with MIG disabled");
    }
    requireNoSliceSharing(gpu, index);
    return GpuTarget.whole(
        gpuIndex,
        gpu.timeSlicing() != null
            ? sharing("GPU " + index + ": \"timeSlicing", gpu.timeSlicing().replicas(), false)
            : sharing("GPU " + index + ": \"mps", gpu.mps().replicas(), true));
  }

  /** A whole GPU (MIG disabled), not shared. */
  private static GpuTarget unsharedWhole(GpuLayout gpu, GpuIndex gpuIndex) {
    int index = gpuIndex.value();
    if (gpu.migDevices() != null && !gpu.migDevices().isEmpty()) {
      throw RestProblem.unprocessable(
          "GPU " + index + ": \"migDevices\" given with \"migEnabled\": false");
    }
    requireNoSliceSharing(gpu, index);
    return GpuTarget.whole(gpuIndex, 1);
  }

  private static void requireNoSliceSharing(GpuLayout gpu, int index) {
    if (gpu.sharing() != null) {
      throw RestProblem.unprocessable(
          "GPU " + index + ": \"sharing\" applies to the MIG slices of a GPU with MIG enabled");
    }
  }

  /**
   * The MIG devices {@code "migDevices"} asks for, by profile, those with a count of 0 left out.
   */
  private static Map<ProfileName, Integer> migDevices(GpuLayout gpu, int index) {
    var devices = new LinkedHashMap<ProfileName, Integer>();
    long total = 0;
    Map<String, Integer> asked = gpu.migDevices() == null ? Map.of() : gpu.migDevices();
    for (var entry : asked.entrySet()) {
      ProfileName profile = profile(entry.getKey(), "GPU " + index + ": unknown profile: ");
      Integer count = entry.getValue();
      if (count == null || count < 0) {
        throw RestProblem.unprocessable(
            "GPU " + index + ": the count of " + profile + " must be 0 or more, got " + count);
      }
      total += count;
      if (total > MAX_MIG_DEVICES) {
        throw RestProblem.unprocessable(
            "GPU "
                + index
                + ": too many instances: "
                + total
                + " or more MIG devices asked for, no GPU has more than "
                + MAX_MIG_DEVICES);
      }
      if (count > 0) {
        devices.put(profile, count);
      }
    }
    return devices;
  }

  /** The sharing {@code "sharing"} gives the MIG slices of {@code devices}, by profile. */
  private static Map<ProfileName, Sharing> sliceSharing(
      GpuLayout gpu, int index, Map<ProfileName, Integer> devices) {
    var sliceSharing = new LinkedHashMap<ProfileName, Sharing>();
    Map<String, GpuLayout.SliceSharing> shared = gpu.sharing() == null ? Map.of() : gpu.sharing();
    for (var entry : shared.entrySet()) {
      ProfileName profile = profile(entry.getKey(), "GPU " + index + ": \"sharing\": ");
      if (!devices.containsKey(profile)) {
        throw RestProblem.unprocessable(
            "GPU "
                + index
                + ": \"sharing\" names profile "
                + profile
                + ", which \"migDevices\" does not ask for");
      }
      var kinds = entry.getValue();
      String where = "GPU " + index + ": \"sharing." + profile;
      if (kinds == null || (kinds.timeSlicing() == null) == (kinds.mps() == null)) {
        throw RestProblem.unprocessable(
            where
                + "\" must give exactly one of \"timeSlicing\" and \"mps\", got "
                + (kinds == null || kinds.mps() == null ? "neither" : "both"));
      }
      if (sliceSharing.put(
              profile,
              kinds.mps() != null
                  ? sharing(where + ".mps", kinds.mps().replicas(), true)
                  : sharing(where + ".timeSlicing", kinds.timeSlicing().replicas(), false))
          != null) {
        throw RestProblem.unprocessable(
            "GPU " + index + ": \"sharing\" names profile " + profile + " twice");
      }
    }
    return sliceSharing;
  }

  /** The profile {@code name} names, or 422 with {@code prefix} (naming where) and why not. */
  private static ProfileName profile(String name, String prefix) {
    try {
      return ProfileName.parse(name);
    } catch (ProfileNameException e) {
      throw RestProblem.unprocessable(prefix + printable(e.getMessage(), 300));
    }
  }

  /** The sharing a {@code replicas} value at {@code at} (a message prefix) asks for, or 422. */
  private static Sharing sharing(String at, Integer replicas, boolean mps) {
    int max = mps ? Sharing.MAX_MPS_REPLICAS : MAX_REPLICAS;
    if (replicas == null || replicas < 1 || replicas > max) {
      throw RestProblem.unprocessable(
          at
              + ".replicas\" must be between 1 and "
              + max
              + (mps ? " (CUDA MPS serves at most 48 clients per device)" : "")
              + ", got "
              + replicas);
    }
    return mps ? new Sharing.Mps(replicas) : new Sharing.TimeSliced(replicas);
  }
}
