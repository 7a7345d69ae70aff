package io.migd.layout;

import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.GpuInstanceProfile;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.profiles.CiProfile;
import io.migd.profiles.ComputeCapability;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MIG profiles and placements of a GPU: from NVML when it answers, otherwise from the built-in
 * catalogue by PCI device id. NVML wins where both exist, and a difference is logged once per GPU.
 * Compute-instance profiles cannot be asked of NVML without a GPU instance, so they come from the
 * catalogue, or follow the slice rule for a model migd does not know; their placements come from
 * NVML once a GPU instance of the profile has existed ({@link #learn}), and follow the slice rule
 * until then.
 */
public final class ModelSource {
  private static final Logger log = LoggerFactory.getLogger(ModelSource.class);
  private static final int[] CI_SLICES = {1, 2, 3, 4, 6, 7, 8};
  private static final int[] CI_INDEX = {0, 1, 2, 3, 6, 4, 5};

  private final Nvml nvml;
  private final GpuModelCatalog catalog;
  private final Map<String, GpuModel> byUuid = new ConcurrentHashMap<>();
  private final ComputeInstancePlacements ciPlacements = new ComputeInstancePlacements();

  /** A source over an NVML session and the built-in catalogue. */
  public ModelSource(Nvml nvml, GpuModelCatalog catalog) {
    this.nvml = nvml;
    this.catalog = catalog;
  }

  /**
   * The model of an observed GPU, empty when neither NVML nor the catalogue knows its MIG profiles.
   * Compute-instance placements are learned from the GPU instances the observation shows.
   */
  public Optional<GpuModel> modelOf(ObservedGpu gpu) {
    Optional<GpuModel> builtIn = catalog.byPciDeviceId(gpu.pci().deviceId());
    if (!gpu.migCapable()) {
      return builtIn;
    }
    Optional<GpuModel> model = Optional.ofNullable(byUuid.get(gpu.uuid()));
    if (model.isEmpty()) {
      Optional<GpuModel> fromNvml = nvml.inSequence(() -> fromNvml(gpu, builtIn));
      fromNvml.ifPresent(
          reported -> {
            builtIn.ifPresent(known -> logDifferences(gpu, known, reported));
            byUuid.put(gpu.uuid(), reported);
          });
      model = fromNvml.or(() -> builtIn);
    }
    model.ifPresent(m -> learnFrom(gpu, m));
    return model.map(ciPlacements::applyTo);
  }

  /**
   * Learns the compute-instance placements of a GPU instance's profile from it, once per model and
   * profile. The executor can call it right after creating a GPU instance, so that NVML's
   * placements are known before the next decision.
   *
   * @param gpuInstance a GPU instance that exists
   */
  public void learn(GpuInstanceHandle gpuInstance) {
    nvml.inSequence(
        () -> {
          var info = nvml.gpuInstanceInfo(gpuInstance);
          int pci = nvml.pciInfo(info.device()).deviceId();
          if (!ciPlacements.known(pci, info.profileId())) {
            int slices = nvml.gpuInstanceProfileById(info.device(), info.profileId()).sliceCount();
            ciPlacements.learn(nvml, pci, info.profileId(), slices, gpuInstance);
          }
          return null;
        });
  }

  private void learnFrom(ObservedGpu gpu, GpuModel model) {
    int pci = gpu.pci().deviceId();
    var missing =
        gpu.gpuInstances().stream()
            .filter(gi -> !ciPlacements.known(pci, gi.profileId()))
            .filter(gi -> model.giProfileById(gi.profileId()).isPresent())
            .toList();
    if (missing.isEmpty()) {
      return;
    }
    nvml.inSequence(
        () -> {
          DeviceHandle device = nvml.deviceByIndex(gpu.index().value());
          for (LiveGpuInstance gi : missing) {
            int slices = model.giProfileById(gi.profileId()).orElseThrow().slices();
            try {
              GpuInstanceHandle handle = nvml.gpuInstanceById(device, gi.id());
              ciPlacements.learn(nvml, pci, gi.profileId(), slices, handle);
            } catch (NvmlException e) {
              log.debug(
                  "gpu={} GPU instance {} is gone before its compute-instance placements were read"
                      + " ({})",
                  gpu.index(),
                  gi.id(),
                  e.code().cName());
            }
          }
          return null;
        });
  }

  private Optional<GpuModel> fromNvml(ObservedGpu gpu, Optional<GpuModel> builtIn) {
    List<GpuInstanceProfile> profiles;
    DeviceHandle device;
    try {
      device = nvml.deviceByIndex(gpu.index().value());
      profiles = nvml.gpuInstanceProfiles(device);
    } catch (NvmlException e) {
      log.info(
          "gpu={} NVML does not list MIG profiles ({}); using the built-in catalogue",
          gpu.index(),
          e.code().cName());
      return Optional.empty();
    }
    if (profiles.isEmpty()) {
      return Optional.empty();
    }
    var giProfiles = new ArrayList<GiProfile>();
    int memorySlices = 0;
    for (GpuInstanceProfile p : profiles) {
      List<Placement> placements =
          nvml.gpuInstancePossiblePlacements(device, p.id()).stream()
              .map(at -> new Placement(at.start(), at.size()))
              .toList();
      for (Placement at : placements) {
        memorySlices = Math.max(memorySlices, at.end());
      }
      ProfileName name = DriverProfileNames.of(p, gpu.memoryMiB(), builtIn);
      Optional<GiProfile> known = builtIn.flatMap(m -> m.giProfileById(p.id()));
      List<CiProfile> ciProfiles =
          known.map(GiProfile::ciProfiles).orElseGet(() -> ciProfilesBySliceRule(p));
      giProfiles.add(
          new GiProfile(
              name,
              p.index(),
              p.id(),
              p.sliceCount(),
              p.instanceCount(),
              p.memorySizeMiB(),
              Math.max(1, p.multiprocessorCount()),
              p.copyEngineCount(),
              p.decoderCount(),
              p.encoderCount(),
              p.jpegCount(),
              p.ofaCount(),
              placements,
              ciProfiles));
    }
    return Optional.of(
        new GpuModel(
            builtIn.map(GpuModel::key).orElse(gpu.name()),
            gpu.name(),
            gpu.pci().deviceId(),
            builtIn.map(GpuModel::architecture).orElseGet(() -> nvml.architecture(device).value()),
            builtIn.map(GpuModel::computeCapability).orElse(new ComputeCapability(0, 0)),
            gpu.memoryMiB(),
            builtIn.map(GpuModel::smCount).orElse(1),
            true,
            memorySlices,
            giProfiles));
  }

  /** The compute-instance profiles of a GPU-instance profile the catalogue lacks. */
  private static List<CiProfile> ciProfilesBySliceRule(GpuInstanceProfile p) {
    var result = new ArrayList<CiProfile>();
    for (int i = 0; i < CI_SLICES.length; i++) {
      int c = CI_SLICES[i];
      if (c <= p.sliceCount()) {
        int sm = Math.max(1, p.multiprocessorCount() * c / p.sliceCount());
        result.add(
            new CiProfile(
                CI_INDEX[i],
                CI_INDEX[i],
                c,
                p.sliceCount() / c,
                sm,
                CiProfile.slicePlacements(c, p.sliceCount())));
      }
    }
    return result;
  }

  private static void logDifferences(ObservedGpu gpu, GpuModel known, GpuModel reported) {
    for (GiProfile r : reported.giProfiles()) {
      Optional<GiProfile> k = known.giProfileById(r.id());
      if (k.isEmpty()) {
        log.info(
            "gpu={} model={} NVML offers profile {} (id {}) that the built-in catalogue lacks",
            gpu.index(),
            known.key(),
            r.name(),
            r.id());
      } else if (!k.get().name().equals(r.name())
          || !k.get().placements().equals(r.placements())
          || k.get().instances() != r.instances()
          || k.get().memoryMib() != r.memoryMib()) {
        log.info(
            "gpu={} model={} NVML and the built-in catalogue differ on profile id {}: NVML {} {}x"
                + " {} MiB at {}, catalogue {} {}x {} MiB at {}; using NVML's",
            gpu.index(),
            known.key(),
            r.id(),
            r.name(),
            r.instances(),
            r.memoryMib(),
            r.placements(),
            k.get().name(),
            k.get().instances(),
            k.get().memoryMib(),
            k.get().placements());
      }
    }
  }
}
