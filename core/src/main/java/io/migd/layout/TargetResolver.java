package io.migd.layout;

import io.migd.profiles.CiProfile;
import io.migd.profiles.MigConfig;
import io.migd.profiles.MigConfigItem;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * Resolves a named config against the GPUs of this node: which GPUs it selects and what each of
 * them should look like. A config name resolves per GPU, because its items filter by PCI id.
 */
public final class TargetResolver {
  private TargetResolver() {}

  /**
   * The target of every GPU the config selects, by index. The first item that selects a GPU wins;
   * GPUs no item selects are absent (left as they are). A GPU without MIG that an item asks MIG of
   * gets time-sliced replicas instead: the item's {@code time-slicing.replicas}, else as many as
   * the MIG devices it asks for, else 1; an item's {@code mps} shares it by MPS instead. The item's
   * {@code sharing} shares the MIG slices of the profiles it names.
   */
  public static SequencedMap<GpuIndex, GpuTarget> resolve(MigConfig config, ObservedNode node) {
    return resolve(config, node, true);
  }

  /**
   * As {@link #resolve(MigConfig, ObservedNode)}; a {@code dynamic} item makes the MIG-capable GPUs
   * it selects dynamic (one without MIG gets the whole GPU, as for any MIG item). Without {@code
   * replicasFromMigDevices} (DRA mode, where nothing is time-sliced) a GPU without MIG that an item
   * asks MIG of is the whole GPU, unshared, unless the item says {@code time-slicing} or {@code
   * mps}. A {@code shares} item keeps the GPUs it selects unshared by replicas (whole ones
   * included, whatever the defaults) and publishes their devices' twins.
   */
  public static SequencedMap<GpuIndex, GpuTarget> resolve(
      MigConfig config, ObservedNode node, boolean replicasFromMigDevices) {
    return resolve(config, node, replicasFromMigDevices, SharingDefaults.NONE);
  }

  /**
   * As {@link #resolve(MigConfig, ObservedNode, boolean)}, each GPU and slice its item does not
   * share itself ({@code time-slicing}, {@code mps}, {@code sharing}) shared as {@code defaults}
   * (NVIDIA's device-plugin config) says; the item's own sharing overrides them for its GPUs.
   */
  public static SequencedMap<GpuIndex, GpuTarget> resolve(
      MigConfig config,
      ObservedNode node,
      boolean replicasFromMigDevices,
      SharingDefaults defaults) {
    var targets = new LinkedHashMap<GpuIndex, GpuTarget>();
    for (ObservedGpu gpu : node.gpus()) {
      for (MigConfigItem item : config.items()) {
        if (item.selects(gpu.index().value(), gpu.pci().deviceId(), gpu.pci().subsystemId())) {
          targets.put(gpu.index(), targetOf(item, gpu, replicasFromMigDevices, defaults));
          break;
        }
      }
    }
    return targets;
  }

  /**
   * Where the config item that selects {@code gpu} shares it otherwise than {@code defaults} would
   * (its own {@code time-slicing}, {@code mps} or {@code sharing} wins), as a clause for the GPU's
   * reason; empty when it does not.
   */
  public static String overriddenDefaults(
      MigConfig config, ObservedGpu gpu, SharingDefaults defaults) {
    var item =
        config.items().stream()
            .filter(
                i -> i.selects(gpu.index().value(), gpu.pci().deviceId(), gpu.pci().subsystemId()))
            .findFirst();
    if (item.isEmpty() || item.get().dynamic()) {
      return "";
    }
    var keys = new ArrayList<String>();
    boolean whole = !item.get().migEnabled() || !gpu.migCapable();
    if (whole && defaults.wholeGpu().isPresent()) {
      item.get().gpuSharing().ifPresent(own -> keys.add(own.strategy()));
    }
    if (!whole) {
      item.get().sharing().keySet().stream()
          .filter(profile -> defaults.slices(profile).isPresent())
          .forEach(profile -> keys.add("sharing." + profile));
    }
    return keys.isEmpty()
        ? ""
        : "its config item's own "
            + String.join(", ", keys)
            + " overrides the device-plugin config "
            + defaults.source();
  }

  private static GpuTarget targetOf(
      MigConfigItem item,
      ObservedGpu gpu,
      boolean replicasFromMigDevices,
      SharingDefaults defaults) {
    if (item.shares() && (!item.migEnabled() || !gpu.migCapable())) {
      return GpuTarget.sharedWhole(gpu.index());
    }
    var asked = item.gpuSharing().or(defaults::wholeGpu);
    if (!item.migEnabled()) {
      return GpuTarget.whole(gpu.index(), asked.orElse(new Sharing.TimeSliced(1)));
    }
    if (!gpu.migCapable()) {
      int replicas = replicasFromMigDevices ? Math.max(1, item.migDeviceCount()) : 1;
      return GpuTarget.whole(gpu.index(), asked.orElse(new Sharing.TimeSliced(replicas)));
    }
    if (item.dynamic()) {
      return GpuTarget.dynamic(gpu.index(), item.shares());
    }
    var sliceSharing = new LinkedHashMap<ProfileName, Sharing>(item.sharing());
    item.migDevices()
        .forEach(
            (profile, count) -> {
              if (count > 0 && !sliceSharing.containsKey(profile)) {
                defaults.slices(profile).ifPresent(shared -> sliceSharing.put(profile, shared));
              }
            });
    return GpuTarget.mig(gpu.index(), gpuInstances(item.migDevices()), sliceSharing);
  }

  /**
   * mig-parted's reading of {@code mig-devices}: a GPU-instance name asks for that many GPU
   * instances, each with the compute instance spanning it; a compute-instance name ({@code
   * 1c.4g.20gb: 4}) asks for that many compute instances, packed as many to a GPU instance as the
   * slice rule fits (a config names no model, so NVML's placements cannot be asked here).
   */
  public static List<GpuInstanceSpec> gpuInstances(Map<ProfileName, Integer> migDevices) {
    var specs = new ArrayList<GpuInstanceSpec>();
    migDevices.forEach(
        (name, count) -> {
          if (!name.hasComputeInstancePart()) {
            for (int i = 0; i < count; i++) {
              specs.add(GpuInstanceSpec.whole(name));
            }
            return;
          }
          ProfileName gi = name.giProfileName();
          int perGpuInstance =
              CiProfile.slicePlacements(name.computeSlices(), gi.gpuSlices()).size();
          for (int left = count; left > 0; left -= perGpuInstance) {
            int here = Math.min(left, perGpuInstance);
            specs.add(new GpuInstanceSpec(gi, Collections.nCopies(here, name.computeSlices())));
          }
        });
    return specs;
  }
}
