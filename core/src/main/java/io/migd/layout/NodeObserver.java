package io.migd.layout;

import io.migd.nvml.ComputeInstanceProfile;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuArchitecture;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.GpuInstanceProfile;
import io.migd.nvml.MigMode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.PciInfo;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads what exists on the node's GPUs, from NVML only. */
public final class NodeObserver {
  private static final Logger log = LoggerFactory.getLogger(NodeObserver.class);
  private static final long MIB = 1024 * 1024;

  private final Nvml nvml;
  private final GpuModelCatalog catalog;

  /*
   * Profile tables do not change while a GPU keeps its MIG mode, and asking for them costs dozens
   * of NVML calls per GPU (one per profile index), so they are read once per GPU.
   */
  private final Map<String, List<GpuInstanceProfile>> giProfiles = new ConcurrentHashMap<>();
  private final Map<String, List<ComputeInstanceProfile>> ciProfiles = new ConcurrentHashMap<>();
  private final Map<String, GpuArchitecture> architectures = new ConcurrentHashMap<>();
  private final java.util.Set<String> resetRequired = ConcurrentHashMap.newKeySet();

  /**
   * How often one GPU is read before an error that a change under the read explains (a handle gone
   * stale) is taken as the GPU's error.
   */
  static final int READS_PER_OBSERVATION = 3;

  /** An observer over one NVML session, naming profiles with the catalogue where NVML cannot. */
  public NodeObserver(Nvml nvml, GpuModelCatalog catalog) {
    this.nvml = nvml;
    this.catalog = catalog;
  }

  /** The node's GPUs (NVML's device count); throws when NVML cannot even count them. */
  public List<GpuIndex> gpus() {
    int count = nvml.deviceCount();
    var gpus = new ArrayList<GpuIndex>(count);
    for (int i = 0; i < count; i++) {
      gpus.add(new GpuIndex(i));
    }
    return List.copyOf(gpus);
  }

  /**
   * The GPUs NVML counts now and the UUID of each it can read, by index.
   *
   * @param count NVML's device count
   * @param uuids the UUID of every GPU NVML answered for; a GPU it failed on is absent
   */
  public record PresentGpus(int count, Map<Integer, String> uuids) {
    /** Copies the map. */
    public PresentGpus {
      uuids = Map.copyOf(uuids);
    }
  }

  /**
   * The UUIDs of the GPUs present, a few calls per GPU: what an intent checks its GPUs against
   * before a reconcile. A GPU NVML fails on is left out; throws when NVML cannot count the GPUs.
   */
  public PresentGpus present() {
    return nvml.inSequence(
        () -> {
          int count = nvml.deviceCount();
          var uuids = new TreeMap<Integer, String>();
          for (int i = 0; i < count; i++) {
            try {
              uuids.put(i, nvml.uuid(nvml.deviceByIndex(i)));
            } catch (NvmlException e) {
              log.debug("gpu={} UUID not readable now ({})", i, e.code().cName());
            }
          }
          return new PresentGpus(count, uuids);
        });
  }

  /**
   * Observes every GPU; an NVML error on any GPU fails it all (the one-shot commands want that).
   * The reconciler observes GPU by GPU with {@link #observe(GpuIndex)} instead.
   */
  public ObservedNode observe() {
    return nvml.inSequence(this::observeAll);
  }

  private ObservedNode observeAll() {
    int count = nvml.deviceCount();
    var gpus = new ArrayList<ObservedGpu>(count);
    for (int i = 0; i < count; i++) {
      gpus.add(observeConsistently(new GpuIndex(i)));
    }
    return new ObservedNode(gpus);
  }

  /**
   * Runs one task per GPU and answers each GPU's result in the order given: the reconciler runs
   * them in parallel, {@link #ONE_BY_ONE} one after another on the caller's thread.
   */
  public interface PerGpu {
    /** Each GPU's result; a task that throws fails the whole. */
    <R> SequencedMap<GpuIndex, R> each(Collection<GpuIndex> gpus, Function<GpuIndex, R> task);
  }

  /** Every GPU on the caller's thread, in order. */
  public static final PerGpu ONE_BY_ONE =
      new PerGpu() {
        @Override
        public <R> SequencedMap<GpuIndex, R> each(
            Collection<GpuIndex> gpus, Function<GpuIndex, R> task) {
          var results = new LinkedHashMap<GpuIndex, R>();
          gpus.forEach(gpu -> results.put(gpu, task.apply(gpu)));
          return results;
        }
      };

  /**
   * Observes every GPU on its own ({@code perGpu} says on which threads) and keeps each error: a
   * GPU NVML fails on is in {@link ObservedNode#unobserved()} with the call and code, and the
   * others are observed as usual. Throws only when NVML cannot even count the GPUs.
   */
  public ObservedNode observeEach(PerGpu perGpu) {
    record Seen(ObservedGpu gpu, NvmlException error) {}
    var seen = new ArrayList<ObservedGpu>();
    var unseen = new TreeMap<GpuIndex, NvmlException>();
    perGpu
        .each(
            gpus(),
            gpu -> {
              try {
                return new Seen(observe(gpu), null);
              } catch (NvmlException e) {
                return new Seen(null, e);
              }
            })
        .forEach(
            (gpu, result) -> {
              if (result.error() == null) {
                seen.add(result.gpu());
              } else {
                unseen.put(gpu, result.error());
              }
            });
    return new ObservedNode(seen, unseen);
  }

  /** Observes one GPU; throws {@link NvmlException} naming the call that failed. */
  public ObservedGpu observe(GpuIndex index) {
    return nvml.inSequence(() -> observeConsistently(index));
  }

  /**
   * One GPU read while another thread may be changing it: readers (the REST API's check, the
   * snapshot, a prepare's look at its GPU) do not wait for a plan, so a GPU or compute instance
   * listed a moment ago can be gone when its details are asked for, and NVML answers {@code
   * INVALID_ARGUMENT} or {@code NOT_FOUND} for the stale handle ({@code NOT_SUPPORTED} for a GPU
   * whose MIG mode went off after it was read as on). Such a read starts again, at most {@link
   * #READS_PER_OBSERVATION} times in all; any other error, or the same one every time, is the GPU's
   * error.
   */
  private ObservedGpu observeConsistently(GpuIndex index) {
    for (int read = 1; ; read++) {
      try {
        return observeOne(index);
      } catch (NvmlException e) {
        if (read >= READS_PER_OBSERVATION || !staleHandle(e)) {
          throw e;
        }
        log.debug(
            "gpu={} changed while it was read ({} returned {}); reading it again",
            index,
            e.function(),
            e.code());
      }
    }
  }

  private static boolean staleHandle(NvmlException e) {
    return e.code() == NvmlReturn.INVALID_ARGUMENT
        || e.code() == NvmlReturn.NOT_FOUND
        || e.code() == NvmlReturn.NOT_SUPPORTED;
  }

  private ObservedGpu observeOne(GpuIndex index) {
    DeviceHandle device = nvml.deviceByIndex(index.value());
    String uuid = nvml.uuid(device);
    String name = nvml.name(device);
    PciInfo pci = nvml.pciInfo(device);
    long memoryMiB = nvml.memory(device).totalBytes() / MIB;
    MigMode mode;
    boolean migCapable;
    try {
      mode = nvml.migMode(device);
      migCapable = true;
    } catch (NvmlException e) {
      if (e.code() != NvmlReturn.NOT_SUPPORTED) {
        throw e;
      }
      mode = new MigMode(false, false);
      migCapable = false;
    }
    var instances =
        mode.current() ? gpuInstances(device, uuid, pci, memoryMiB) : List.<LiveGpuInstance>of();
    GpuArchitecture architecture = architectures.get(uuid);
    if (architecture == null) {
      architecture = nvml.architecture(device);
      architectures.put(uuid, architecture);
    }
    return new ObservedGpu(
        index,
        uuid,
        name,
        pci,
        memoryMiB,
        migCapable,
        mode,
        instances,
        nvml.computeProcesses(device),
        nvml.minorNumber(device),
        resetRequired.contains(uuid) ? MigModeChange.NEEDS_RESET : MigModeChange.of(architecture));
  }

  /**
   * Records that {@code nvmlDeviceSetMigMode} answered {@code RESET_REQUIRED} for the GPU {@code
   * uuid} (a pass-through VM): from now on it is observed as {@link MigModeChange#NEEDS_RESET},
   * whatever its architecture.
   */
  public void resetRequired(String uuid) {
    if (resetRequired.add(uuid)) {
      log.info(
          "gpu={} a MIG mode change answered RESET_REQUIRED: its mode is treated as needing a"
              + " reset, as on Ampere",
          uuid);
    }
  }

  private List<LiveGpuInstance> gpuInstances(
      DeviceHandle device, String uuid, PciInfo pci, long memoryMiB) {
    Map<Long, String> migUuids = migDeviceUuids(device);
    var result = new ArrayList<LiveGpuInstance>();
    List<GpuInstanceProfile> profiles = giProfiles.get(uuid);
    if (profiles == null) {
      profiles = nvml.gpuInstanceProfiles(device);
      if (profiles.isEmpty()) {
        // NVML answers NOT_SUPPORTED for every profile of a GPU whose MIG mode went off after it
        // was read as on: read again, and never keep "none" for the GPU
        throw new NvmlException(
            "nvmlDeviceGetGpuInstanceProfileInfo",
            NvmlReturn.NOT_SUPPORTED,
            "no GPU-instance profiles with MIG on: the MIG mode changed");
      }
      giProfiles.put(uuid, profiles);
    }
    for (GpuInstanceProfile profile : profiles) {
      ProfileName giName =
          DriverProfileNames.of(profile, memoryMiB, catalog.byPciDeviceId(pci.deviceId()));
      for (GpuInstanceHandle gi : nvml.gpuInstances(device, profile.id())) {
        var info = nvml.gpuInstanceInfo(gi);
        result.add(
            new LiveGpuInstance(
                info.id(),
                info.profileId(),
                giName,
                new Placement(info.placement().start(), info.placement().size()),
                computeInstances(gi, uuid + ":" + profile.id(), info.id(), giName, migUuids)));
      }
    }
    result.sort(Comparator.comparingInt(g -> g.placement().start()));
    return List.copyOf(result);
  }

  private List<LiveComputeInstance> computeInstances(
      GpuInstanceHandle gi,
      String profileKey,
      int giId,
      ProfileName giName,
      Map<Long, String> migUuids) {
    var result = new ArrayList<LiveComputeInstance>();
    List<ComputeInstanceProfile> profiles = ciProfiles.get(profileKey);
    if (profiles == null) {
      profiles = nvml.computeInstanceProfiles(gi);
      if (profiles.isEmpty()) {
        // Every GPU instance has compute-instance profiles. NVML answers INVALID_ARGUMENT both for
        // an index past the last profile and for a GPU instance destroyed since it was listed, so
        // none at all means the latter: read again, and never keep "none" for the profile.
        throw new NvmlException(
            "nvmlGpuInstanceGetComputeInstanceProfileInfo",
            NvmlReturn.INVALID_ARGUMENT,
            "GPU instance " + giId + " has no compute-instance profiles: it is gone");
      }
      ciProfiles.put(profileKey, profiles);
    }
    for (var ciProfile : profiles) {
      for (var ci : nvml.computeInstances(gi, ciProfile.id())) {
        var info = nvml.computeInstanceInfo(ci);
        ProfileName name = giName.computeInstance(ciProfile.sliceCount());
        result.add(
            new LiveComputeInstance(
                info.id(),
                info.profileId(),
                name,
                new Placement(info.placement().start(), info.placement().size()),
                migUuids.getOrDefault(key(giId, info.id()), "")));
      }
    }
    result.sort(Comparator.comparingInt(c -> c.placement().start()));
    return List.copyOf(result);
  }

  private Map<Long, String> migDeviceUuids(DeviceHandle device) {
    var uuids = new HashMap<Long, String>();
    int max = nvml.maxMigDeviceCount(device);
    for (int i = 0; i < max; i++) {
      nvml.migDeviceByIndex(device, i)
          .ifPresent(
              mig ->
                  uuids.put(
                      key(nvml.gpuInstanceId(mig), nvml.computeInstanceId(mig)), nvml.uuid(mig)));
    }
    return uuids;
  }

  private static long key(int giId, int ciId) {
    return ((long) giId << 32) | (ciId & 0xFFFFFFFFL);
  }
}
