package io.migd.nvml;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The typed NVML API: the calls a MIG manager, a device plugin and a metrics exporter need, with
 * records in and out. Every call that the driver answers with anything other than {@code
 * NVML_SUCCESS} throws {@link NvmlException} naming the C function and the code, except where a
 * method documents that it maps one code to an empty answer. NVML is thread-safe: calls run on the
 * caller's thread, several threads at once (the GPUs of a node are changed in parallel), and a
 * failure is thrown there. {@link #waitForEvent} runs on a thread of its own so health events never
 * wait behind a reshape. {@link #whileReleased} and {@link #close()} let the calls in flight end
 * first and hold new ones until they are done; after a release, the hooks given to {@link
 * #onReinitialised} (the owners of event sets) register their event sets again before the held
 * calls resume.
 */
public interface Nvml extends AutoCloseable {

  /**
   * Runs several calls with no release of NVML ({@link #whileReleased}) in between, so the handles
   * taken inside stay valid to the end: for reading a consistent picture of a GPU, or running one
   * GPU's steps. Other threads' calls may run meanwhile (on other GPUs: each GPU is changed by one
   * thread at a time). Calling {@link #whileReleased} inside is refused.
   */
  <T> T inSequence(java.util.function.Supplier<T> calls);

  /**
   * As {@link #inSequence(java.util.function.Supplier)}, for readers that must not block behind a
   * GPU reset: when NVML is released (or a release waits for the calls in flight), this waits at
   * most {@code maxWait} for it to end, then throws {@link NvmlReleasedException} without running
   * {@code calls}. Once the sequence has begun, nothing releases NVML until it ends.
   */
  <T> T inSequence(Duration maxWait, java.util.function.Supplier<T> calls);

  /**
   * Shuts NVML down, runs {@code action} (a GPU reset that needs no NVML client open on the GPU),
   * and initialises NVML again, with no call of this session in between: calls and sequences in
   * flight on other threads end first, and new ones wait until NVML is back and the {@link
   * #onReinitialised} hooks have run (so event sets are registered again before any call resumes,
   * and no event raised after this returns is missed). Handles taken before, event sets included,
   * are stale afterwards; look them up again, and do not free a stale event set. When initialising
   * again fails, the {@link NvmlException} names {@code nvmlInit_v2} and the hooks do not run;
   * calling this again (with an action that does nothing) retries it.
   */
  <T> T whileReleased(java.util.function.Supplier<T> action);

  /**
   * Runs {@code hook} every time {@link #whileReleased} has initialised NVML again, on the
   * releasing thread while other calls are still held, in the order hooks were added. A hook may
   * make NVML calls on its own thread (to create an event set and register events into it), but
   * must not wait for an event or release NVML. A hook that throws is logged and does not fail the
   * release; the other hooks still run.
   *
   * @return closing it removes the hook (a release already running may still run it once)
   */
  Registration onReinitialised(Runnable hook);

  /** A hook added to a session; {@link #close()} removes it. */
  @FunctionalInterface
  interface Registration extends AutoCloseable {
    /** Removes the hook. */
    @Override
    void close();
  }

  // ---- system

  /** The kernel driver version, such as {@code 580.95.05}. */
  String driverVersion();

  /** The NVML library version. */
  String nvmlVersion();

  /**
   * The CUDA driver version as {@code 1000 * major + 10 * minor}; uses the older call when the
   * driver lacks the newer one.
   */
  int cudaDriverVersion();

  /** The name of a process, for messages that say who holds a slice. */
  String processName(int pid);

  /** The driver's text for a return code. */
  String errorString(NvmlReturn code);

  // ---- enumeration and identity

  /** Number of physical GPUs (MIG devices are not counted). */
  int deviceCount();

  /** The GPU at an NVML index. */
  DeviceHandle deviceByIndex(int index);

  /** A GPU ({@code GPU-...}) or MIG device ({@code MIG-...}) by UUID. */
  DeviceHandle deviceByUuid(String uuid);

  /** A GPU by PCI bus id. */
  DeviceHandle deviceByPciBusId(String pciBusId);

  /** NVML index of a GPU, or the MIG device index of a MIG device. */
  int index(DeviceHandle device);

  /** UUID of a GPU or MIG device. */
  String uuid(DeviceHandle device);

  /** Product name of a GPU or MIG device. */
  String name(DeviceHandle device);

  /** PCI identity of a GPU. */
  PciInfo pciInfo(DeviceHandle device);

  /** N in /dev/nvidiaN. */
  int minorNumber(DeviceHandle device);

  /** The GPU's architecture. */
  GpuArchitecture architecture(DeviceHandle device);

  /** The GPU's CUDA compute capability. */
  ComputeCapability computeCapability(DeviceHandle device);

  /** Whether persistence mode is enabled. */
  boolean persistenceMode(DeviceHandle device);

  // ---- memory, utilisation, processes, power

  /** Memory of a GPU, or of the GPU instance behind a MIG device handle. */
  MemoryInfo memory(DeviceHandle device);

  /** Utilisation of a GPU without MIG. */
  Utilization utilization(DeviceHandle device);

  /** Processes with a compute context on a GPU (all) or on a MIG device (its instance only). */
  List<ProcessInfo> computeProcesses(DeviceHandle device);

  /** The same, restricted to MPS clients. */
  List<ProcessInfo> mpsComputeProcesses(DeviceHandle device);

  /**
   * Per-process utilisation samples newer than {@code sinceMicros} (0: all); empty when there is no
   * newer sample. Uses the older call when the driver lacks the newer one.
   */
  List<ProcessUtilization> processUtilization(DeviceHandle device, long sinceMicros);

  /** Board power in milliwatts. */
  int powerUsageMilliwatts(DeviceHandle device);

  /** GPU core temperature in degrees Celsius; uses the older call when the newer one is missing. */
  int temperatureCelsius(DeviceHandle device);

  /** A batch read of field values, each with its own return code. */
  List<FieldValue> fieldValues(DeviceHandle device, List<Integer> fieldIds);

  // ---- time-slicing

  /** The compute mode of a GPU, or of a MIG device when MIG is on. */
  ComputeMode computeMode(DeviceHandle device);

  /** Sets the compute mode (root only; not kept across reboots). */
  void setComputeMode(DeviceHandle device, ComputeMode mode);

  // ---- MIG mode

  /** Current and pending MIG mode; {@code NOT_SUPPORTED} on a GPU without MIG. */
  MigMode migMode(DeviceHandle device);

  /**
   * Asks for a MIG mode and returns the activation status: {@link NvmlReturn#SUCCESS} when the mode
   * is in force now, {@link NvmlReturn#IN_USE} when something holds the GPU (the mode stays
   * pending), {@link NvmlReturn#RESET_REQUIRED} when only a reboot can apply it.
   */
  NvmlReturn setMigMode(DeviceHandle device, boolean enabled);

  // ---- GPU instances

  /**
   * The GPU-instance profile at an {@code NVML_GPU_INSTANCE_PROFILE_*} index, or empty when this
   * GPU does not offer it. Uses the oldest form of the call when MIG is disabled or the driver
   * lacks the versioned one.
   */
  Optional<GpuInstanceProfile> gpuInstanceProfile(DeviceHandle device, int profileIndex);

  /** Every GPU-instance profile the GPU offers, in index order. */
  List<GpuInstanceProfile> gpuInstanceProfiles(DeviceHandle device);

  /** A GPU-instance profile by profile id (MIG enabled). */
  GpuInstanceProfile gpuInstanceProfileById(DeviceHandle device, int profileId);

  /** Every legal placement of a profile, free or not. */
  List<InstancePlacement> gpuInstancePossiblePlacements(DeviceHandle device, int profileId);

  /** How many more GPU instances of a profile fit now. */
  int gpuInstanceRemainingCapacity(DeviceHandle device, int profileId);

  /** Creates a GPU instance where the driver chooses. */
  GpuInstanceHandle createGpuInstance(DeviceHandle device, int profileId);

  /** Creates a GPU instance at an exact placement. */
  GpuInstanceHandle createGpuInstance(
      DeviceHandle device, int profileId, InstancePlacement placement);

  /** Destroys a GPU instance ({@code IN_USE} while it has compute instances or processes). */
  void destroyGpuInstance(GpuInstanceHandle gpuInstance);

  /** Existing GPU instances of one profile. */
  List<GpuInstanceHandle> gpuInstances(DeviceHandle device, int profileId);

  /** A GPU instance by its id. */
  GpuInstanceHandle gpuInstanceById(DeviceHandle device, int id);

  /** What a GPU instance is. */
  GpuInstanceInfo gpuInstanceInfo(GpuInstanceHandle gpuInstance);

  // ---- compute instances

  /**
   * The compute-instance profile at an {@code NVML_COMPUTE_INSTANCE_PROFILE_*} index inside a GPU
   * instance, or empty when it does not offer it.
   */
  Optional<ComputeInstanceProfile> computeInstanceProfile(
      GpuInstanceHandle gpuInstance, int profileIndex);

  /** Every compute-instance profile a GPU instance offers, in index order. */
  List<ComputeInstanceProfile> computeInstanceProfiles(GpuInstanceHandle gpuInstance);

  /** How many more compute instances of a profile fit in the GPU instance now. */
  int computeInstanceRemainingCapacity(GpuInstanceHandle gpuInstance, int profileId);

  /** Every legal placement of a compute-instance profile inside the GPU instance. */
  List<InstancePlacement> computeInstancePossiblePlacements(
      GpuInstanceHandle gpuInstance, int profileId);

  /** Creates a compute instance where the driver chooses. */
  ComputeInstanceHandle createComputeInstance(GpuInstanceHandle gpuInstance, int profileId);

  /** Creates a compute instance at an exact placement. */
  ComputeInstanceHandle createComputeInstance(
      GpuInstanceHandle gpuInstance, int profileId, InstancePlacement placement);

  /** Destroys a compute instance ({@code IN_USE} while processes run on it). */
  void destroyComputeInstance(ComputeInstanceHandle computeInstance);

  /** Existing compute instances of one profile in a GPU instance. */
  List<ComputeInstanceHandle> computeInstances(GpuInstanceHandle gpuInstance, int profileId);

  /** A compute instance by id within its GPU instance. */
  ComputeInstanceHandle computeInstanceById(GpuInstanceHandle gpuInstance, int id);

  /** What a compute instance is. */
  ComputeInstanceInfo computeInstanceInfo(ComputeInstanceHandle computeInstance);

  // ---- MIG device handles

  /** Whether a handle is a MIG device handle. */
  boolean isMigDevice(DeviceHandle device);

  /** The GPU-instance id behind a MIG device. */
  int gpuInstanceId(DeviceHandle migDevice);

  /** The compute-instance id behind a MIG device. */
  int computeInstanceId(DeviceHandle migDevice);

  /** Upper bound of MIG device indexes; 0 when MIG is disabled. */
  int maxMigDeviceCount(DeviceHandle device);

  /** The MIG device at an index, or empty for an index with no device. */
  Optional<DeviceHandle> migDeviceByIndex(DeviceHandle device, int index);

  /** The GPU a MIG device belongs to. */
  DeviceHandle parentDevice(DeviceHandle migDevice);

  /** Resources of a MIG device. */
  DeviceAttributes attributes(DeviceHandle migDevice);

  // ---- events

  /** Creates an empty event set. */
  EventSetHandle createEventSet();

  /** Bit mask of event types a GPU can report. */
  long supportedEventTypes(DeviceHandle device);

  /** Records events of these types on a GPU into the set, from now on. */
  void registerEvents(DeviceHandle device, long eventTypes, EventSetHandle set);

  /** The next event of the set, or empty when none arrives within the timeout. */
  Optional<EventData> waitForEvent(EventSetHandle set, Duration timeout);

  /** Releases an event set. */
  void freeEventSet(EventSetHandle set);

  // ---- GPM (per-instance utilisation on Hopper and newer)

  /** Whether the GPU supports GPM metrics. */
  boolean gpmSupported(DeviceHandle device);

  /** Allocates a sample buffer. */
  GpmSampleHandle allocateGpmSample();

  /** Releases a sample buffer. */
  void freeGpmSample(GpmSampleHandle sample);

  /** Takes a sample of a GPU or MIG device. */
  void takeGpmSample(DeviceHandle device, GpmSampleHandle sample);

  /** Takes a sample of one GPU instance through its GPU. */
  void takeGpmMigSample(DeviceHandle device, int gpuInstanceId, GpmSampleHandle sample);

  /** Metrics between two samples. */
  List<GpmMetricValue> gpmMetrics(
      GpmSampleHandle first, GpmSampleHandle second, List<Integer> metricIds);

  /** Shuts NVML down for this handle (reference counted by the driver). */
  @Override
  void close();
}
