package io.migd.pool;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.nvml.ProcessInfo;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * {@link GpuFacts} and {@link ObservedGpu}s of the built-in catalogue's models, as NVML would
 * report them on a node, for tests of the pool and of what reads it. GPU {@code i} has minor {@code
 * i}, UUID {@code GPU-<model>-<i>} and PCI bus {@code 0000:<10+i>:00.0}.
 */
public final class Facts {
  /** The built-in catalogue. */
  public static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  /** Driver version as NVML gives it. */
  public static final String DRIVER_VERSION = "580.95.05";

  /** CUDA driver version as migd formats NVML's integer. */
  public static final String CUDA_DRIVER_VERSION = "13.0";

  private Facts() {}

  /** The catalogue's model of this key ({@code H100-SXM5-80GB}). */
  public static GpuModel model(String key) {
    return CATALOG
        .byKey(key)
        .orElseThrow(() -> new IllegalArgumentException("no model " + key + " in the catalogue"));
  }

  /** The facts of GPU {@code index} (minor {@code index}) of model {@code key}. */
  public static GpuFacts of(String key, int index) {
    return of(model(key), index);
  }

  /** The facts of GPU {@code index} (minor {@code index}) of {@code model}. */
  public static GpuFacts of(GpuModel model, int index) {
    return new GpuFacts(
        new GpuIndex(index),
        index,
        uuid(model, index),
        model.nvmlName(),
        model.nvmlName().startsWith("Tesla") ? "Tesla" : "Nvidia",
        architecture(model.architecture()),
        model.computeCapability().toString(),
        DRIVER_VERSION,
        CUDA_DRIVER_VERSION,
        String.format("0000:%02x:00.0", 0x10 + index),
        "pci0000:" + String.format("%02x", 0x10 + index),
        OptionalInt.of(index < 4 ? 0 : 1),
        model.memoryMib() << 20,
        model.giProfiles().stream().map(Facts::profile).toList());
  }

  /** The GPU's UUID in these facts. */
  public static String uuid(GpuModel model, int index) {
    return "GPU-" + model.key() + "-" + index;
  }

  /** NVIDIA's name of an {@code NVML_DEVICE_ARCH_*} value. */
  public static String architecture(int nvmlArch) {
    return switch (nvmlArch) {
      case 2 -> "Kepler";
      case 3 -> "Maxwell";
      case 4 -> "Pascal";
      case 5 -> "Volta";
      case 6 -> "Turing";
      case 7 -> "Ampere";
      case 8 -> "Ada Lovelace";
      case 9 -> "Hopper";
      case 10 -> "Blackwell";
      default -> "Unknown";
    };
  }

  /** What NVML shows of the GPU: MIG mode, its GPU instances and the processes on it. */
  public static ObservedGpu observed(
      GpuFacts facts,
      boolean migCurrent,
      boolean migPending,
      List<LiveGpuInstance> instances,
      List<ProcessInfo> processes) {
    GpuModel model = modelOf(facts);
    return new ObservedGpu(
        facts.gpu(),
        facts.uuid(),
        model.nvmlName(),
        new PciInfo(
            "0000" + facts.pciBusId().toUpperCase(Locale.ROOT),
            0,
            0x10 + facts.gpu().value(),
            0,
            model.pciDeviceId(),
            0),
        model.memoryMib(),
        model.migCapable(),
        new MigMode(migCurrent, migPending),
        instances,
        processes,
        facts.minor());
  }

  /** MIG on, holding {@code instances}, nothing running. */
  public static ObservedGpu migOn(GpuFacts facts, LiveGpuInstance... instances) {
    return observed(facts, true, true, List.of(instances), List.of());
  }

  /** MIG off, nothing pending, nothing running. */
  public static ObservedGpu migOff(GpuFacts facts) {
    return observed(facts, false, false, List.of(), List.of());
  }

  /**
   * GPU instance {@code id} of {@code profile} at memory slice {@code start}, with one compute
   * instance (id 0) spanning it whose MIG UUID is {@code MIG-<gpu uuid>-<id>}.
   */
  public static LiveGpuInstance instance(GpuFacts facts, int id, String profile, int start) {
    GiProfile gi = giProfile(facts, profile);
    return new LiveGpuInstance(
        id,
        gi.id(),
        gi.name(),
        new Placement(start, gi.memorySlices()),
        List.of(computeInstance(facts, gi, id, 0, gi.slices(), 0)));
  }

  /**
   * GPU instance {@code id} of {@code profile} at {@code start} split into compute instances given
   * as (id, compute slices, start) triples: {@code split(facts, 3, "4g.40gb", 0, 0, 1, 0, 1, 2,
   * 2)}.
   */
  public static LiveGpuInstance split(
      GpuFacts facts, int id, String profile, int start, int... idSlicesStart) {
    GiProfile gi = giProfile(facts, profile);
    var cis = new ArrayList<LiveComputeInstance>();
    for (int i = 0; i + 2 < idSlicesStart.length; i += 3) {
      cis.add(
          computeInstance(
              facts, gi, id, idSlicesStart[i], idSlicesStart[i + 1], idSlicesStart[i + 2]));
    }
    return new LiveGpuInstance(
        id, gi.id(), gi.name(), new Placement(start, gi.memorySlices()), cis);
  }

  /** The MIG UUID these helpers give compute instance {@code ciId} of GPU instance {@code giId}. */
  public static String migUuid(GpuFacts facts, int giId, int ciId) {
    return "MIG-" + facts.uuid() + "-" + giId + (ciId == 0 ? "" : "-" + ciId);
  }

  private static LiveComputeInstance computeInstance(
      GpuFacts facts, GiProfile gi, int giId, int ciId, int slices, int ciStart) {
    return new LiveComputeInstance(
        ciId,
        gi.ciProfileBySlices(slices).orElseThrow().id(),
        gi.name().computeInstance(slices),
        new Placement(ciStart, slices),
        migUuid(facts, giId, ciId));
  }

  private static GiProfile giProfile(GpuFacts facts, String profile) {
    return modelOf(facts).giProfile(ProfileName.parse(profile)).orElseThrow();
  }

  private static GpuModel modelOf(GpuFacts facts) {
    return CATALOG.models().stream()
        .filter(m -> m.nvmlName().equals(facts.productName()))
        .findFirst()
        .orElseThrow();
  }

  private static GpuFacts.MigProfile profile(GiProfile gi) {
    return new GpuFacts.MigProfile(
        gi.id(),
        gi.name().toString(),
        gi.memoryMib(),
        gi.memorySlices(),
        gi.smCount(),
        gi.copyEngines(),
        gi.decoders(),
        gi.encoders(),
        gi.jpegDecoders(),
        gi.opticalFlowAccelerators(),
        gi.placements().stream().map(at -> new InstancePlacement(at.start(), at.size())).toList());
  }
}
