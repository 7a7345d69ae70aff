package io.migd.nvml.ffm;

import io.migd.nvml.ComputeInstanceHandle;
import io.migd.nvml.ComputeInstanceInfo;
import io.migd.nvml.ComputeInstanceProfile;
import io.migd.nvml.ComputeMode;
import io.migd.nvml.CudaVersion;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.EventData;
import io.migd.nvml.EventSetHandle;
import io.migd.nvml.GpuArchitecture;
import io.migd.nvml.GpuBrand;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.GpuInstanceInfo;
import io.migd.nvml.GpuInstanceProfile;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.MemoryInfo;
import io.migd.nvml.MigMode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.PciInfo;
import io.migd.nvml.ProcessInfo;
import io.migd.nvml.Utilization;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@link Nvml} over the FFM binding of one loaded library, composed of one part per role that share
 * the binding: the session gate ({@link FfmSession}), device queries, MIG queries, MIG control and
 * events. NVML calls run on their caller's thread, several at once (NVML is thread-safe); a reset
 * or shutdown waits for the calls in flight and holds new ones until NVML is back. The blocking
 * event wait runs on a thread of its own.
 */
public final class FfmNvml implements Nvml {
  private final FfmSession session;
  private final FfmDeviceQueries devices;
  private final FfmMigQueries mig;
  private final FfmMigControl migControl;
  private final FfmNvmlEvents events;

  private FfmNvml(NvmlLibrary library, NvmlCallObserver observer) {
    var codes = new ReturnCodes(observer);
    String name = "nvml-" + library.location().replaceAll(".*/", "");
    this.session = new FfmSession(library.raw, codes, name);
    var calls = new FfmCalls(library.raw, codes, session);
    this.devices = new FfmDeviceQueries(calls);
    this.mig = new FfmMigQueries(calls);
    this.migControl = new FfmMigControl(calls);
    this.events = new FfmNvmlEvents(calls);
  }

  /** Initialises NVML in the library ({@code nvmlInit_v2}). */
  public static FfmNvml open(NvmlLibrary library, NvmlCallObserver observer) {
    FfmNvml nvml = new FfmNvml(library, observer);
    nvml.session.open();
    return nvml;
  }

  /**
   * Time spent in calls of this session (the native call and its marshalling), so benchmarks can
   * tell migd's own time from the driver's. Calls run on their callers' threads, several at once:
   * this is the sum over all threads, so with calls in parallel it can exceed the wall-clock time.
   * The event wait is not counted.
   */
  public Duration timeInNvml() {
    return session.timeInNvml();
  }

  // ---- session

  @Override
  public <T> T inSequence(Supplier<T> calls) {
    return session.inSequence(calls);
  }

  @Override
  public <T> T inSequence(Duration maxWait, Supplier<T> calls) {
    return session.inSequence(maxWait, calls);
  }

  @Override
  public <T> T whileReleased(Supplier<T> action) {
    return session.whileReleased(action);
  }

  @Override
  public Registration onReinitialised(Runnable hook) {
    return session.onReinitialised(hook);
  }

  @Override
  public void close() {
    session.close();
  }

  // ---- device queries

  @Override
  public String driverVersion() {
    return devices.driverVersion();
  }

  @Override
  public CudaVersion cudaDriverVersion() {
    return devices.cudaDriverVersion();
  }

  @Override
  public int deviceCount() {
    return devices.deviceCount();
  }

  @Override
  public DeviceHandle deviceByIndex(int index) {
    return devices.deviceByIndex(index);
  }

  @Override
  public DeviceHandle deviceByUuid(String uuid) {
    return devices.deviceByUuid(uuid);
  }

  @Override
  public int index(DeviceHandle device) {
    return devices.index(device);
  }

  @Override
  public int minorNumber(DeviceHandle device) {
    return devices.minorNumber(device);
  }

  @Override
  public String uuid(DeviceHandle device) {
    return devices.uuid(device);
  }

  @Override
  public String name(DeviceHandle device) {
    return devices.name(device);
  }

  @Override
  public GpuBrand brand(DeviceHandle device) {
    return devices.brand(device);
  }

  @Override
  public GpuArchitecture architecture(DeviceHandle device) {
    return devices.architecture(device);
  }

  @Override
  public CudaVersion cudaComputeCapability(DeviceHandle device) {
    return devices.cudaComputeCapability(device);
  }

  @Override
  public PciInfo pciInfo(DeviceHandle device) {
    return devices.pciInfo(device);
  }

  @Override
  public MemoryInfo memory(DeviceHandle device) {
    return devices.memory(device);
  }

  @Override
  public Utilization utilization(DeviceHandle device) {
    return devices.utilization(device);
  }

  @Override
  public List<ProcessInfo> computeProcesses(DeviceHandle device) {
    return devices.computeProcesses(device);
  }

  @Override
  public String processName(int pid) {
    return devices.processName(pid);
  }

  @Override
  public MigMode migMode(DeviceHandle device) {
    return devices.migMode(device);
  }

  @Override
  public int maxMigDeviceCount(DeviceHandle device) {
    return devices.maxMigDeviceCount(device);
  }

  @Override
  public Optional<DeviceHandle> migDeviceByIndex(DeviceHandle device, int index) {
    return devices.migDeviceByIndex(device, index);
  }

  @Override
  public int gpuInstanceId(DeviceHandle migDevice) {
    return devices.gpuInstanceId(migDevice);
  }

  @Override
  public int computeInstanceId(DeviceHandle migDevice) {
    return devices.computeInstanceId(migDevice);
  }

  // ---- MIG queries

  @Override
  public List<GpuInstanceProfile> gpuInstanceProfiles(DeviceHandle device) {
    return mig.gpuInstanceProfiles(device);
  }

  @Override
  public GpuInstanceProfile gpuInstanceProfileById(DeviceHandle device, int profileId) {
    return mig.gpuInstanceProfileById(device, profileId);
  }

  @Override
  public List<InstancePlacement> gpuInstancePossiblePlacements(DeviceHandle device, int profileId) {
    return mig.gpuInstancePossiblePlacements(device, profileId);
  }

  @Override
  public List<GpuInstanceHandle> gpuInstances(DeviceHandle device, int profileId) {
    return mig.gpuInstances(device, profileId);
  }

  @Override
  public GpuInstanceHandle gpuInstanceById(DeviceHandle device, int id) {
    return mig.gpuInstanceById(device, id);
  }

  @Override
  public GpuInstanceInfo gpuInstanceInfo(GpuInstanceHandle gpuInstance) {
    return mig.gpuInstanceInfo(gpuInstance);
  }

  @Override
  public List<ComputeInstanceProfile> computeInstanceProfiles(GpuInstanceHandle gpuInstance) {
    return mig.computeInstanceProfiles(gpuInstance);
  }

  @Override
  public List<InstancePlacement> computeInstancePossiblePlacements(
      GpuInstanceHandle gpuInstance, int profileId) {
    return mig.computeInstancePossiblePlacements(gpuInstance, profileId);
  }

  @Override
  public List<ComputeInstanceHandle> computeInstances(
      GpuInstanceHandle gpuInstance, int profileId) {
    return mig.computeInstances(gpuInstance, profileId);
  }

  @Override
  public ComputeInstanceHandle computeInstanceById(GpuInstanceHandle gpuInstance, int id) {
    return mig.computeInstanceById(gpuInstance, id);
  }

  @Override
  public ComputeInstanceInfo computeInstanceInfo(ComputeInstanceHandle computeInstance) {
    return mig.computeInstanceInfo(computeInstance);
  }

  // ---- MIG control

  @Override
  public NvmlReturn setMigMode(DeviceHandle device, boolean enabled) {
    return migControl.setMigMode(device, enabled);
  }

  @Override
  public void setComputeMode(DeviceHandle device, ComputeMode mode) {
    migControl.setComputeMode(device, mode);
  }

  @Override
  public GpuInstanceHandle createGpuInstance(
      DeviceHandle device, int profileId, InstancePlacement placement) {
    return migControl.createGpuInstance(device, profileId, placement);
  }

  @Override
  public void destroyGpuInstance(GpuInstanceHandle gpuInstance) {
    migControl.destroyGpuInstance(gpuInstance);
  }

  @Override
  public ComputeInstanceHandle createComputeInstance(
      GpuInstanceHandle gpuInstance, int profileId, InstancePlacement placement) {
    return migControl.createComputeInstance(gpuInstance, profileId, placement);
  }

  @Override
  public void destroyComputeInstance(ComputeInstanceHandle computeInstance) {
    migControl.destroyComputeInstance(computeInstance);
  }

  // ---- events

  @Override
  public EventSetHandle createEventSet() {
    return events.createEventSet();
  }

  @Override
  public long supportedEventTypes(DeviceHandle device) {
    return events.supportedEventTypes(device);
  }

  @Override
  public void registerEvents(DeviceHandle device, long eventTypes, EventSetHandle set) {
    events.registerEvents(device, eventTypes, set);
  }

  @Override
  public Optional<EventData> waitForEvent(EventSetHandle set, Duration timeout) {
    return events.waitForEvent(set, timeout);
  }

  @Override
  public void freeEventSet(EventSetHandle set) {
    events.freeEventSet(set);
  }
}
