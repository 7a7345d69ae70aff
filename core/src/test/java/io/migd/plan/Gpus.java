package io.migd.plan;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.List;

/** Builds observed GPUs and targets for planner tests, the way NVML and a config would. */
final class Gpus {
  static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  static final GpuModel A100_40GB = model("A100-SXM4-40GB");
  static final GpuModel H100_80GB = model("H100-SXM5-80GB");
  static final GpuModel T4 = model("T4");
  static final GpuIndex GPU0 = new GpuIndex(0);

  private Gpus() {}

  static GpuModel model(String key) {
    return CATALOG.byKey(key).orElseThrow();
  }

  static ObservedGpu observed(
      GpuModel model, GpuIndex gpu, boolean current, boolean pending, List<LiveGpuInstance> gis) {
    return new ObservedGpu(
        gpu,
        "GPU-" + model.key() + "-" + gpu,
        model.nvmlName(),
        new PciInfo("00000000:1" + gpu + ":00.0", 0, 0x10 + gpu.value(), 0, model.pciDeviceId(), 0),
        model.memoryMib(),
        model.migCapable(),
        new MigMode(current, pending),
        gis,
        List.of());
  }

  /** MIG enabled, holding {@code gis}. */
  static ObservedGpu migOn(GpuModel model, LiveGpuInstance... gis) {
    return observed(model, GPU0, true, true, List.of(gis));
  }

  /** MIG disabled, nothing pending. */
  static ObservedGpu migOff(GpuModel model) {
    return observed(model, GPU0, false, false, List.of());
  }

  static GiProfile profile(GpuModel model, String name) {
    return model.giProfile(ProfileName.parse(name)).orElseThrow();
  }

  /** A GPU instance whose compute instances are given as (id, slices, start) triples. */
  static LiveGpuInstance gi(GpuModel model, int id, String profile, int start, int... cis) {
    GiProfile p = profile(model, profile);
    var list = new ArrayList<LiveComputeInstance>();
    for (int i = 0; i < cis.length; i += 3) {
      list.add(ci(p, id, cis[i], cis[i + 1], cis[i + 2]));
    }
    return new LiveGpuInstance(id, p.id(), p.name(), new Placement(start, p.memorySlices()), list);
  }

  /** A GPU instance with the one compute instance (id 0) spanning it. */
  static LiveGpuInstance whole(GpuModel model, int id, String profile, int start) {
    return gi(model, id, profile, start, 0, profile(model, profile).slices(), 0);
  }

  static LiveComputeInstance ci(GiProfile gi, int giId, int id, int slices, int start) {
    return new LiveComputeInstance(
        id,
        gi.ciProfileBySlices(slices).orElseThrow().id(),
        gi.name().computeInstance(slices),
        new Placement(start, slices),
        "MIG-" + giId + "-" + id);
  }

  /** Whole GPU instances of these profiles. */
  static List<GpuInstanceSpec> specs(String... profiles) {
    return List.of(profiles).stream()
        .map(p -> GpuInstanceSpec.whole(ProfileName.parse(p)))
        .toList();
  }

  static GpuInstanceSpec split(String profile, Integer... slices) {
    return new GpuInstanceSpec(ProfileName.parse(profile), List.of(slices));
  }
}
