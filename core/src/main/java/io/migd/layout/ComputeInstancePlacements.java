package io.migd.layout;

import io.migd.nvml.ComputeInstanceProfile;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.MigQueries;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.NvmlSessionControl;
import io.migd.profiles.CiProfile;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compute-instance placements NVML reports ({@code
 * nvmlGpuInstanceGetComputeInstancePossiblePlacements}), learned per GPU model, GPU-instance
 * profile and compute-instance profile. NVML answers only for a GPU instance that exists, so until
 * one of a profile has existed (or when the driver answers {@code NOT_SUPPORTED}) the model keeps
 * the slice rule ({@link CiProfile#slicePlacements}). The table only grows: placements are a
 * property of the model and driver, not of the instance asked.
 */
final class ComputeInstancePlacements {
  private static final Logger log = LoggerFactory.getLogger(ComputeInstancePlacements.class);

  /** Which compute-instance profile of which GPU-instance profile on which model (PCI id). */
  private record Key(int pciDeviceId, int giProfileId, int ciProfileId) {}

  /** Which GPU-instance profile of which model has been asked about. */
  private record Asked(int pciDeviceId, int giProfileId) {}

  private final Map<Key, List<Placement>> answered = new ConcurrentHashMap<>();
  private final Set<Asked> asked = ConcurrentHashMap.newKeySet();
  private final Set<Asked> failed = ConcurrentHashMap.newKeySet();

  /** Whether NVML has been asked about this GPU-instance profile of the model already. */
  boolean known(int pciDeviceId, int giProfileId) {
    return asked.contains(new Asked(pciDeviceId, giProfileId));
  }

  /**
   * Asks NVML, through an existing GPU instance of the profile, where each of its compute-instance
   * profiles may sit, once per model and GPU-instance profile. Run it inside {@link
   * NvmlSessionControl#inSequence}.
   *
   * @param giSlices compute slices of the GPU-instance profile, to check NVML's answer against
   */
  void learn(
      MigQueries nvml, int pciDeviceId, int giProfileId, int giSlices, GpuInstanceHandle gi) {
    var key = new Asked(pciDeviceId, giProfileId);
    if (asked.contains(key)) {
      return;
    }
    List<ComputeInstanceProfile> profiles;
    try {
      profiles = nvml.computeInstanceProfiles(gi);
    } catch (NvmlException e) {
      notAnswered(key, e);
      return;
    }
    for (ComputeInstanceProfile profile : profiles) {
      List<Placement> placements;
      try {
        placements =
            nvml.computeInstancePossiblePlacements(gi, profile.id()).stream()
                .map(at -> new Placement(at.start(), at.size()))
                .toList();
      } catch (NvmlException e) {
        if (e.code() == NvmlReturn.NOT_SUPPORTED) {
          continue;
        }
        notAnswered(key, e);
        return;
      }
      List<Placement> rule = CiProfile.slicePlacements(profile.sliceCount(), giSlices);
      if (placements.isEmpty() || placements.stream().anyMatch(at -> at.end() > giSlices)) {
        log.warn(
            "pci={} giProfileId={} ciProfileId={} NVML lists compute-instance placements {} that do"
                + " not fit a GPU instance of {} slices; using the slice rule {}",
            hex(pciDeviceId),
            giProfileId,
            profile.id(),
            placements,
            giSlices,
            rule);
        continue;
      }
      if (!placements.equals(rule)) {
        log.info(
            "pci={} giProfileId={} ciProfileId={} NVML places compute instances at {}, the slice"
                + " rule at {}; using NVML's",
            hex(pciDeviceId),
            giProfileId,
            profile.id(),
            placements,
            rule);
      }
      answered.put(new Key(pciDeviceId, giProfileId, profile.id()), placements);
    }
    asked.add(key);
  }

  /**
   * The model with every compute-instance profile NVML has answered for at NVML's placements; the
   * others keep theirs.
   */
  GpuModel applyTo(GpuModel model) {
    boolean any = false;
    var giProfiles = new ArrayList<GiProfile>(model.giProfiles().size());
    for (GiProfile gi : model.giProfiles()) {
      var ciProfiles = new ArrayList<CiProfile>(gi.ciProfiles().size());
      boolean changed = false;
      for (CiProfile ci : gi.ciProfiles()) {
        Optional<List<Placement>> learned =
            Optional.ofNullable(answered.get(new Key(model.pciDeviceId(), gi.id(), ci.id())))
                .filter(at -> !at.equals(ci.placements()));
        changed |= learned.isPresent();
        ciProfiles.add(learned.map(ci::withPlacements).orElse(ci));
      }
      any |= changed;
      giProfiles.add(changed ? withCiProfiles(gi, ciProfiles) : gi);
    }
    return any ? withGiProfiles(model, giProfiles) : model;
  }

  private void notAnswered(Asked key, NvmlException e) {
    if (e.code() == NvmlReturn.NOT_SUPPORTED) {
      asked.add(key);
      log.info(
          "pci={} giProfileId={} NVML does not list compute-instance placements ({}); using the"
              + " slice rule",
          hex(key.pciDeviceId()),
          key.giProfileId(),
          e.code().cName());
    } else if (failed.add(key)) {
      log.warn(
          "pci={} giProfileId={} asking NVML for compute-instance placements failed ({}); using"
              + " the slice rule until it answers",
          hex(key.pciDeviceId()),
          key.giProfileId(),
          e.getMessage());
    }
  }

  private static GiProfile withCiProfiles(GiProfile gi, List<CiProfile> ciProfiles) {
    return new GiProfile(
        gi.name(),
        gi.index(),
        gi.id(),
        gi.slices(),
        gi.instances(),
        gi.memoryMib(),
        gi.smCount(),
        gi.copyEngines(),
        gi.decoders(),
        gi.encoders(),
        gi.jpegDecoders(),
        gi.opticalFlowAccelerators(),
        gi.placements(),
        ciProfiles);
  }

  private static GpuModel withGiProfiles(GpuModel model, List<GiProfile> giProfiles) {
    return new GpuModel(
        model.key(),
        model.nvmlName(),
        model.pciDeviceId(),
        model.architecture(),
        model.computeCapability(),
        model.memoryMib(),
        model.smCount(),
        model.migCapable(),
        model.memorySlices(),
        giProfiles);
  }

  private static String hex(int pciDeviceId) {
    return String.format("0x%08X", pciDeviceId);
  }
}
