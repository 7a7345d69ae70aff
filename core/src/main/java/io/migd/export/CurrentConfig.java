package io.migd.export;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.profiles.DeviceSelection;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigItem;
import io.migd.profiles.MpsSharing;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import io.migd.profiles.TimeSlicing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * The node's current layout as a mig-parted v1 config named {@code current}: one item per group of
 * GPUs that look the same, so that {@code migd apply} of it reproduces the MIG modes and profile
 * counts, with the sharing the persisted intent asks for (time-slicing and MPS of whole GPUs,
 * {@code sharing} of the slices it finds). A GPU the intent makes dynamic (DRA mode) is exported as
 * {@code dynamic: true} whatever instances its claims hold now: applying the export keeps it
 * dynamic instead of pinning the claims' instances as a static layout. The intent's {@code shares}
 * are exported with a dynamic GPU and with a whole GPU whose MIG mode is off.
 */
public final class CurrentConfig {
  /** The name of the exported config. */
  public static final String NAME = "current";

  private CurrentConfig() {}

  /** Builds the config from what was observed, nothing shared. */
  public static MigConfigFile of(ObservedNode node) {
    return of(node, Map.of());
  }

  /** Builds the config from what was observed, shared as {@code targets} (the intent) ask. */
  public static MigConfigFile of(ObservedNode node, Map<GpuIndex, GpuTarget> targets) {
    Map<Shape, List<Integer>> groups = new LinkedHashMap<>();
    for (ObservedGpu gpu : node.gpus()) {
      groups
          .computeIfAbsent(shapeOf(gpu, targets.get(gpu.index())), s -> new ArrayList<>())
          .add(gpu.index().value());
    }
    var items = new ArrayList<MigConfigItem>();
    groups.forEach(
        (shape, indexes) -> {
          DeviceSelection devices =
              groups.size() == 1 ? new DeviceSelection.All() : new DeviceSelection.Indexes(indexes);
          if (shape.dynamic()) {
            items.add(MigConfigItem.dynamic(devices, List.of(), shape.shares()));
            return;
          }
          items.add(
              shape.shares()
                  ? MigConfigItem.sharedWhole(devices, List.of())
                  : new MigConfigItem(
                      devices,
                      List.of(),
                      shape.migEnabled(),
                      shape.migDevices(),
                      shape.gpuSharing() instanceof Sharing.TimeSliced(var n, _) && n > 1
                          ? new TimeSlicing.Replicas(n)
                          : new TimeSlicing.Unset(),
                      shape.gpuSharing() instanceof Sharing.Mps(var n, _)
                          ? new MpsSharing.Replicas(n)
                          : new MpsSharing.Unset(),
                      shape.sliceSharing()));
        });
    return MigConfigFile.of(List.of(new MigConfig(NAME, items)));
  }

  private record Shape(
      boolean dynamic,
      boolean shares,
      boolean migEnabled,
      SequencedMap<ProfileName, Integer> migDevices,
      Sharing gpuSharing,
      SequencedMap<ProfileName, Sharing> sliceSharing) {}

  /**
   * A GPU instance whose single compute instance spans it counts under the GPU-instance name; one
   * split into smaller compute instances counts each under the compute-instance name ({@code
   * 1c.4g.20gb}), as mig-parted reads it. A GPU instance without compute instances counts under its
   * own name, so applying the export completes it.
   */
  private static Shape shapeOf(ObservedGpu gpu, GpuTarget target) {
    if (target != null && target.dynamic()) {
      return new Shape(
          true,
          target.shares(),
          true,
          new LinkedHashMap<>(),
          new Sharing.TimeSliced(1),
          new LinkedHashMap<>());
    }
    var counts = new TreeMap<String, Integer>();
    var names = new LinkedHashMap<String, ProfileName>();
    for (LiveGpuInstance gi : gpu.gpuInstances()) {
      if (gi.computeInstances().isEmpty()) {
        count(counts, names, gi.profile());
      }
      for (LiveComputeInstance ci : gi.computeInstances()) {
        count(counts, names, ci.profile());
      }
    }
    var migDevices = new LinkedHashMap<ProfileName, Integer>();
    counts.forEach((name, n) -> migDevices.put(names.get(name), n));
    Sharing gpuSharing = new Sharing.TimeSliced(1);
    var sliceSharing = new LinkedHashMap<ProfileName, Sharing>();
    if (target != null && gpu.migMode().current()) {
      target
          .sliceSharing()
          .forEach(
              (profile, sharing) -> {
                if (migDevices.containsKey(profile)) {
                  sliceSharing.put(profile, sharing);
                }
              });
    } else if (target != null) {
      gpuSharing = target.sharing();
    }
    boolean shares = target != null && target.shares() && !gpu.migMode().current();
    return new Shape(false, shares, gpu.migMode().current(), migDevices, gpuSharing, sliceSharing);
  }

  private static void count(
      Map<String, Integer> counts, Map<String, ProfileName> names, ProfileName profile) {
    counts.merge(profile.toString(), 1, Integer::sum);
    names.putIfAbsent(profile.toString(), profile);
  }
}
