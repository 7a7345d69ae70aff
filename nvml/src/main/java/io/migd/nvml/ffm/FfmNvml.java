package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.migd.nvml.ComputeCapability;
import io.migd.nvml.ComputeInstanceHandle;
import io.migd.nvml.ComputeInstanceInfo;
import io.migd.nvml.ComputeInstanceProfile;
import io.migd.nvml.ComputeMode;
import io.migd.nvml.DeviceAttributes;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.EventData;
import io.migd.nvml.EventSetHandle;
import io.migd.nvml.FieldValue;
import io.migd.nvml.GpmMetricValue;
import io.migd.nvml.GpmSampleHandle;
import io.migd.nvml.GpuArchitecture;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.GpuInstanceInfo;
import io.migd.nvml.GpuInstanceProfile;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.MemoryInfo;
import io.migd.nvml.MigMode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.PciInfo;
import io.migd.nvml.ProcessInfo;
import io.migd.nvml.ProcessUtilization;
import io.migd.nvml.Utilization;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link Nvml} over the FFM binding of one loaded library. NVML calls run on one dedicated platform
 * thread (a native call would pin a virtual thread, and MIG changes must be serialised anyway); the
 * blocking event wait runs on a second one.
 */
public final class FfmNvml implements Nvml {
  private static final int NAME_BUFFER = 96;
  private static final int VERSION_BUFFER = 80;
  private static final int GI_PROFILE_COUNT = 18;
  private static final int CI_PROFILE_COUNT = 9;
  private static final int MAX_COMPUTE_INSTANCES_PER_GI = 16;
  private static final int GPM_VERSION = 1;

  private final nvml_h raw;
  private final NvmlCallObserver observer;
  private final ExecutorService calls;
  private final ExecutorService events;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final java.util.concurrent.atomic.AtomicLong nanosInNvml =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile Thread callThread;

  private FfmNvml(NvmlLibrary library, NvmlCallObserver observer) {
    this.raw = library.raw;
    this.observer = observer;
    String name = "nvml-" + library.location().replaceAll(".*/", "");
    this.calls =
        Executors.newSingleThreadExecutor(Thread.ofPlatform().name(name).daemon(true).factory());
    this.events =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name(name + "-events").daemon(true).factory());
  }

  /** Initialises NVML in the library ({@code nvmlInit_v2}). */
  public static FfmNvml open(NvmlLibrary library, NvmlCallObserver observer) {
    FfmNvml nvml = new FfmNvml(library, observer);
    try {
      nvml.onCallThread(() -> nvml.check("nvmlInit_v2", nvml.raw.nvmlInit_v2()));
    } catch (RuntimeException e) {
      nvml.shutdownThreads();
      throw e;
    }
    return nvml;
  }

  /** Initialises NVML with {@code NVML_INIT_FLAG_*} bits ({@code nvmlInitWithFlags}). */
  public static FfmNvml openWithFlags(NvmlLibrary library, int flags, NvmlCallObserver observer) {
    FfmNvml nvml = new FfmNvml(library, observer);
    try {
      nvml.onCallThread(() -> nvml.check("nvmlInitWithFlags", nvml.raw.nvmlInitWithFlags(flags)));
    } catch (RuntimeException e) {
      nvml.shutdownThreads();
      throw e;
    }
    return nvml;
  }

  /**
   * Time spent on the NVML thread in calls of this session (the native call and its marshalling),
   * so benchmarks can tell migd's own time from the driver's. The event wait is not counted.
   */
  public java.time.Duration timeInNvml() {
    return java.time.Duration.ofNanos(nanosInNvml.get());
  }

  // ---- plumbing

  private void run(Runnable body) {
    onCallThread(
        () -> {
          body.run();
          return null;
        });
  }

  private <T> T onCallThread(Callable<T> body) {
    return on(calls, body, true, true);
  }

  @Override
  public <T> T inSequence(java.util.function.Supplier<T> body) {
    return on(calls, body::get, true, false);
  }

  /**
   * Runs {@code body} on the call thread (directly when already there) or the event thread. Only
   * leaf calls are timed into {@link #timeInNvml()}, so a sequence does not count migd's own work
   * between its calls, and the hand-off between threads counts as migd's time.
   */
  private <T> T on(
      ExecutorService executor, Callable<T> body, boolean isCallThread, boolean timed) {
    if (closed.get()) {
      throw new IllegalStateException("NVML was shut down");
    }
    if (isCallThread && Thread.currentThread() == callThread) {
      if (!timed) {
        return callUnchecked(body);
      }
      long start = System.nanoTime();
      try {
        return callUnchecked(body);
      } finally {
        nanosInNvml.addAndGet(System.nanoTime() - start);
      }
    }
    Future<T> future =
        executor.submit(
            () -> {
              if (isCallThread) {
                callThread = Thread.currentThread();
              }
              long start = System.nanoTime();
              try {
                return body.call();
              } finally {
                if (isCallThread && timed) {
                  nanosInNvml.addAndGet(System.nanoTime() - start);
                }
              }
            });
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(false);
      throw new IllegalStateException("interrupted while waiting for an NVML call", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private static <T> T callUnchecked(Callable<T> body) {
    try {
      return body.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reports the call and throws unless it succeeded; returns the code for callers that branch. */
  private NvmlReturn check(String function, int rc) {
    NvmlReturn result = NvmlReturn.of(rc);
    observer.called(function, result);
    if (result != NvmlReturn.SUCCESS) {
      throw new NvmlException(function, result, "");
    }
    return result;
  }

  /** Reports the call and returns its code without throwing. */
  private NvmlReturn observe(String function, int rc) {
    NvmlReturn result = NvmlReturn.of(rc);
    observer.called(function, result);
    return result;
  }

  private static NvmlException failure(String function, NvmlReturn code) {
    return new NvmlException(function, code, "");
  }

  private static MemorySegment ptr(long address) {
    return MemorySegment.ofAddress(address);
  }

  private static MemorySegment dev(DeviceHandle d) {
    return ptr(d.address());
  }

  static String cString(MemorySegment buffer) {
    long size = buffer.byteSize();
    int length = 0;
    while (length < size && buffer.get(ValueLayoutsHolder.BYTE, length) != 0) {
      length++;
    }
    byte[] bytes = new byte[length];
    MemorySegment.copy(buffer, ValueLayoutsHolder.BYTE, 0, bytes, 0, length);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static final class ValueLayoutsHolder {
    static final java.lang.foreign.ValueLayout.OfByte BYTE =
        java.lang.foreign.ValueLayout.JAVA_BYTE;
  }

  private static InstancePlacement placement(int start, int size) {
    return new InstancePlacement(start, size);
  }

  // ---- system

  @Override
  public String driverVersion() {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var buf = arena.allocate(VERSION_BUFFER);
            check(
                "nvmlSystemGetDriverVersion", raw.nvmlSystemGetDriverVersion(buf, VERSION_BUFFER));
            return cString(buf);
          }
        });
  }

  @Override
  public String nvmlVersion() {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var buf = arena.allocate(VERSION_BUFFER);
            check("nvmlSystemGetNVMLVersion", raw.nvmlSystemGetNVMLVersion(buf, VERSION_BUFFER));
            return cString(buf);
          }
        });
  }

  @Override
  public int cudaDriverVersion() {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_INT);
            var rc =
                observe(
                    "nvmlSystemGetCudaDriverVersion_v2",
                    raw.nvmlSystemGetCudaDriverVersion_v2(out));
            if (rc == NvmlReturn.FUNCTION_NOT_FOUND) {
              check("nvmlSystemGetCudaDriverVersion", raw.nvmlSystemGetCudaDriverVersion(out));
            } else if (rc != NvmlReturn.SUCCESS) {
              throw failure("nvmlSystemGetCudaDriverVersion_v2", rc);
            }
            return out.get(JAVA_INT, 0);
          }
        });
  }

  @Override
  public String processName(int pid) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var buf = arena.allocate(256);
            check("nvmlSystemGetProcessName", raw.nvmlSystemGetProcessName(pid, buf, 256));
            return cString(buf);
          }
        });
  }

  @Override
  public String errorString(NvmlReturn code) {
    return onCallThread(
        () -> {
          MemorySegment text = raw.nvmlErrorString(code.code());
          if (text.equals(MemorySegment.NULL)) {
            return code.meaning();
          }
          return cString(text.reinterpret(256));
        });
  }

  // ---- enumeration and identity

  @Override
  public int deviceCount() {
    return readInt("nvmlDeviceGetCount_v2", out -> raw.nvmlDeviceGetCount_v2(out));
  }

  private interface IntOut {
    int call(MemorySegment out);
  }

  private int readInt(String function, IntOut call) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_INT);
            check(function, call.call(out));
            return out.get(JAVA_INT, 0);
          }
        });
  }

  private long readAddress(String function, IntOut call) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            check(function, call.call(out));
            return out.get(ADDRESS, 0).address();
          }
        });
  }

  @Override
  public DeviceHandle deviceByIndex(int index) {
    return new DeviceHandle(
        readAddress(
            "nvmlDeviceGetHandleByIndex_v2", out -> raw.nvmlDeviceGetHandleByIndex_v2(index, out)));
  }

  @Override
  public DeviceHandle deviceByUuid(String uuid) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            check(
                "nvmlDeviceGetHandleByUUID",
                raw.nvmlDeviceGetHandleByUUID(arena.allocateFrom(uuid), out));
            return new DeviceHandle(out.get(ADDRESS, 0).address());
          }
        });
  }

  @Override
  public DeviceHandle deviceByPciBusId(String pciBusId) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            check(
                "nvmlDeviceGetHandleByPciBusId_v2",
                raw.nvmlDeviceGetHandleByPciBusId_v2(arena.allocateFrom(pciBusId), out));
            return new DeviceHandle(out.get(ADDRESS, 0).address());
          }
        });
  }

  @Override
  public int index(DeviceHandle device) {
    return readInt("nvmlDeviceGetIndex", out -> raw.nvmlDeviceGetIndex(dev(device), out));
  }

  private String readName(String function, DeviceHandle device, boolean uuid) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var buf = arena.allocate(NAME_BUFFER);
            int rc =
                uuid
                    ? raw.nvmlDeviceGetUUID(dev(device), buf, NAME_BUFFER)
                    : raw.nvmlDeviceGetName(dev(device), buf, NAME_BUFFER);
            check(function, rc);
            return cString(buf);
          }
        });
  }

  @Override
  public String uuid(DeviceHandle device) {
    return readName("nvmlDeviceGetUUID", device, true);
  }

  @Override
  public String name(DeviceHandle device) {
    return readName("nvmlDeviceGetName", device, false);
  }

  @Override
  public PciInfo pciInfo(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var pci = nvmlPciInfo_t.allocate(arena);
            check("nvmlDeviceGetPciInfo_v3", raw.nvmlDeviceGetPciInfo_v3(dev(device), pci));
            return new PciInfo(
                cString(nvmlPciInfo_t.busId(pci)),
                nvmlPciInfo_t.domain(pci),
                nvmlPciInfo_t.bus(pci),
                nvmlPciInfo_t.device(pci),
                nvmlPciInfo_t.pciDeviceId(pci),
                nvmlPciInfo_t.pciSubSystemId(pci));
          }
        });
  }

  @Override
  public int minorNumber(DeviceHandle device) {
    return readInt(
        "nvmlDeviceGetMinorNumber", out -> raw.nvmlDeviceGetMinorNumber(dev(device), out));
  }

  @Override
  public GpuArchitecture architecture(DeviceHandle device) {
    return GpuArchitecture.of(
        readInt(
            "nvmlDeviceGetArchitecture", out -> raw.nvmlDeviceGetArchitecture(dev(device), out)));
  }

  @Override
  public ComputeCapability computeCapability(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var major = arena.allocate(JAVA_INT);
            var minor = arena.allocate(JAVA_INT);
            check(
                "nvmlDeviceGetCudaComputeCapability",
                raw.nvmlDeviceGetCudaComputeCapability(dev(device), major, minor));
            return new ComputeCapability(major.get(JAVA_INT, 0), minor.get(JAVA_INT, 0));
          }
        });
  }

  @Override
  public boolean persistenceMode(DeviceHandle device) {
    return readInt(
            "nvmlDeviceGetPersistenceMode",
            out -> raw.nvmlDeviceGetPersistenceMode(dev(device), out))
        != 0;
  }

  // ---- memory, utilisation, processes, power

  @Override
  public MemoryInfo memory(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var v2 = nvmlMemory_v2_t.allocate(arena);
            nvmlMemory_v2_t.version(v2, nvml_h.nvmlMemory_v2());
            var rc =
                observe(
                    "nvmlDeviceGetMemoryInfo_v2", raw.nvmlDeviceGetMemoryInfo_v2(dev(device), v2));
            if (rc == NvmlReturn.SUCCESS) {
              return new MemoryInfo(
                  nvmlMemory_v2_t.total(v2),
                  nvmlMemory_v2_t.reserved(v2),
                  nvmlMemory_v2_t.free(v2),
                  nvmlMemory_v2_t.used(v2));
            }
            if (rc != NvmlReturn.FUNCTION_NOT_FOUND) {
              throw failure("nvmlDeviceGetMemoryInfo_v2", rc);
            }
            var v1 = nvmlMemory_t.allocate(arena);
            check("nvmlDeviceGetMemoryInfo", raw.nvmlDeviceGetMemoryInfo(dev(device), v1));
            return new MemoryInfo(
                nvmlMemory_t.total(v1), 0, nvmlMemory_t.free(v1), nvmlMemory_t.used(v1));
          }
        });
  }

  @Override
  public Utilization utilization(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var u = nvmlUtilization_t.allocate(arena);
            check(
                "nvmlDeviceGetUtilizationRates", raw.nvmlDeviceGetUtilizationRates(dev(device), u));
            return new Utilization(nvmlUtilization_t.gpu(u), nvmlUtilization_t.memory(u));
          }
        });
  }

  private interface ProcessCall {
    int call(MemorySegment count, MemorySegment infos);
  }

  private List<ProcessInfo> processes(String function, ProcessCall call) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, 0);
            var rc = observe(function, call.call(count, MemorySegment.NULL));
            for (int attempt = 0; rc == NvmlReturn.INSUFFICIENT_SIZE && attempt < 3; attempt++) {
              int capacity = count.get(JAVA_INT, 0) + 4;
              var infos = nvmlProcessInfo_t.allocateArray(capacity, arena);
              count.set(JAVA_INT, 0, capacity);
              rc = observe(function, call.call(count, infos));
              if (rc == NvmlReturn.SUCCESS) {
                int n = count.get(JAVA_INT, 0);
                var result = new ArrayList<ProcessInfo>(n);
                for (int i = 0; i < n; i++) {
                  var p = nvmlProcessInfo_t.asSlice(infos, i);
                  result.add(
                      new ProcessInfo(
                          nvmlProcessInfo_t.pid(p),
                          nvmlProcessInfo_t.usedGpuMemory(p),
                          nvmlProcessInfo_t.gpuInstanceId(p),
                          nvmlProcessInfo_t.computeInstanceId(p)));
                }
                return List.copyOf(result);
              }
            }
            if (rc == NvmlReturn.SUCCESS) {
              return List.<ProcessInfo>of();
            }
            throw failure(function, rc);
          }
        });
  }

  @Override
  public List<ProcessInfo> computeProcesses(DeviceHandle device) {
    return processes(
        "nvmlDeviceGetComputeRunningProcesses_v3",
        (count, infos) -> raw.nvmlDeviceGetComputeRunningProcesses_v3(dev(device), count, infos));
  }

  @Override
  public List<ProcessInfo> mpsComputeProcesses(DeviceHandle device) {
    return processes(
        "nvmlDeviceGetMPSComputeRunningProcesses_v3",
        (count, infos) ->
            raw.nvmlDeviceGetMPSComputeRunningProcesses_v3(dev(device), count, infos));
  }

  @Override
  public List<ProcessUtilization> processUtilization(DeviceHandle device, long sinceMicros) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var info = nvmlProcessesUtilizationInfo_v1_t.allocate(arena);
            nvmlProcessesUtilizationInfo_v1_t.version(
                info, nvml_h.nvmlProcessesUtilizationInfo_v1());
            nvmlProcessesUtilizationInfo_v1_t.processSamplesCount(info, 0);
            nvmlProcessesUtilizationInfo_v1_t.lastSeenTimeStamp(info, sinceMicros);
            nvmlProcessesUtilizationInfo_v1_t.procUtilArray(info, MemorySegment.NULL);
            String fn = "nvmlDeviceGetProcessesUtilizationInfo";
            var rc = observe(fn, raw.nvmlDeviceGetProcessesUtilizationInfo(dev(device), info));
            if (rc == NvmlReturn.FUNCTION_NOT_FOUND) {
              return legacyProcessUtilization(arena, device, sinceMicros);
            }
            if (rc == NvmlReturn.NOT_FOUND || rc == NvmlReturn.SUCCESS) {
              return List.<ProcessUtilization>of();
            }
            if (rc != NvmlReturn.INSUFFICIENT_SIZE) {
              throw failure(fn, rc);
            }
            int capacity = nvmlProcessesUtilizationInfo_v1_t.processSamplesCount(info) + 4;
            var samples = nvmlProcessUtilizationInfo_v1_t.allocateArray(capacity, arena);
            nvmlProcessesUtilizationInfo_v1_t.processSamplesCount(info, capacity);
            nvmlProcessesUtilizationInfo_v1_t.procUtilArray(info, samples);
            rc = observe(fn, raw.nvmlDeviceGetProcessesUtilizationInfo(dev(device), info));
            if (rc == NvmlReturn.NOT_FOUND) {
              return List.<ProcessUtilization>of();
            }
            if (rc != NvmlReturn.SUCCESS) {
              throw failure(fn, rc);
            }
            int n = nvmlProcessesUtilizationInfo_v1_t.processSamplesCount(info);
            var result = new ArrayList<ProcessUtilization>(n);
            for (int i = 0; i < n; i++) {
              var s = nvmlProcessUtilizationInfo_v1_t.asSlice(samples, i);
              result.add(
                  new ProcessUtilization(
                      nvmlProcessUtilizationInfo_v1_t.pid(s),
                      nvmlProcessUtilizationInfo_v1_t.timeStamp(s),
                      nvmlProcessUtilizationInfo_v1_t.smUtil(s),
                      nvmlProcessUtilizationInfo_v1_t.memUtil(s),
                      nvmlProcessUtilizationInfo_v1_t.encUtil(s),
                      nvmlProcessUtilizationInfo_v1_t.decUtil(s)));
            }
            return List.copyOf(result);
          }
        });
  }

  private List<ProcessUtilization> legacyProcessUtilization(
      Arena arena, DeviceHandle device, long sinceMicros) {
    String fn = "nvmlDeviceGetProcessUtilization";
    var count = arena.allocate(JAVA_INT);
    count.set(JAVA_INT, 0, 0);
    var rc =
        observe(
            fn,
            raw.nvmlDeviceGetProcessUtilization(
                dev(device), MemorySegment.NULL, count, sinceMicros));
    if (rc == NvmlReturn.NOT_FOUND || rc == NvmlReturn.SUCCESS) {
      return List.of();
    }
    if (rc != NvmlReturn.INSUFFICIENT_SIZE) {
      throw failure(fn, rc);
    }
    int capacity = count.get(JAVA_INT, 0) + 4;
    var samples = nvmlProcessUtilizationSample_t.allocateArray(capacity, arena);
    count.set(JAVA_INT, 0, capacity);
    rc = observe(fn, raw.nvmlDeviceGetProcessUtilization(dev(device), samples, count, sinceMicros));
    if (rc == NvmlReturn.NOT_FOUND) {
      return List.of();
    }
    if (rc != NvmlReturn.SUCCESS) {
      throw failure(fn, rc);
    }
    int n = count.get(JAVA_INT, 0);
    var result = new ArrayList<ProcessUtilization>(n);
    for (int i = 0; i < n; i++) {
      var s = nvmlProcessUtilizationSample_t.asSlice(samples, i);
      result.add(
          new ProcessUtilization(
              nvmlProcessUtilizationSample_t.pid(s),
              nvmlProcessUtilizationSample_t.timeStamp(s),
              nvmlProcessUtilizationSample_t.smUtil(s),
              nvmlProcessUtilizationSample_t.memUtil(s),
              nvmlProcessUtilizationSample_t.encUtil(s),
              nvmlProcessUtilizationSample_t.decUtil(s)));
    }
    return List.copyOf(result);
  }

  @Override
  public int powerUsageMilliwatts(DeviceHandle device) {
    return readInt("nvmlDeviceGetPowerUsage", out -> raw.nvmlDeviceGetPowerUsage(dev(device), out));
  }

  @Override
  public int temperatureCelsius(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var t = nvmlTemperature_v1_t.allocate(arena);
            nvmlTemperature_v1_t.version(t, nvml_h.nvmlTemperature_v1());
            nvmlTemperature_v1_t.sensorType(t, 0);
            var rc =
                observe("nvmlDeviceGetTemperatureV", raw.nvmlDeviceGetTemperatureV(dev(device), t));
            if (rc == NvmlReturn.SUCCESS) {
              return nvmlTemperature_v1_t.temperature(t);
            }
            if (rc != NvmlReturn.FUNCTION_NOT_FOUND) {
              throw failure("nvmlDeviceGetTemperatureV", rc);
            }
            var out = arena.allocate(JAVA_INT);
            check("nvmlDeviceGetTemperature", raw.nvmlDeviceGetTemperature(dev(device), 0, out));
            return out.get(JAVA_INT, 0);
          }
        });
  }

  @Override
  public List<FieldValue> fieldValues(DeviceHandle device, List<Integer> fieldIds) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var values = nvmlFieldValue_t.allocateArray(fieldIds.size(), arena);
            for (int i = 0; i < fieldIds.size(); i++) {
              nvmlFieldValue_t.fieldId(nvmlFieldValue_t.asSlice(values, i), fieldIds.get(i));
            }
            check(
                "nvmlDeviceGetFieldValues",
                raw.nvmlDeviceGetFieldValues(dev(device), fieldIds.size(), values));
            var result = new ArrayList<FieldValue>(fieldIds.size());
            for (int i = 0; i < fieldIds.size(); i++) {
              var v = nvmlFieldValue_t.asSlice(values, i);
              result.add(
                  new FieldValue(
                      nvmlFieldValue_t.fieldId(v),
                      NvmlReturn.of(nvmlFieldValue_t.nvmlReturn(v)),
                      nvmlValue_t.ullVal(nvmlFieldValue_t.value(v))));
            }
            return List.copyOf(result);
          }
        });
  }

  // ---- time-slicing

  @Override
  public ComputeMode computeMode(DeviceHandle device) {
    return ComputeMode.of(
        readInt("nvmlDeviceGetComputeMode", out -> raw.nvmlDeviceGetComputeMode(dev(device), out)));
  }

  @Override
  public void setComputeMode(DeviceHandle device, ComputeMode mode) {
    run(
        () ->
            check(
                "nvmlDeviceSetComputeMode",
                raw.nvmlDeviceSetComputeMode(dev(device), mode.code())));
  }

  // ---- MIG mode

  @Override
  public MigMode migMode(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var current = arena.allocate(JAVA_INT);
            var pending = arena.allocate(JAVA_INT);
            check("nvmlDeviceGetMigMode", raw.nvmlDeviceGetMigMode(dev(device), current, pending));
            return new MigMode(current.get(JAVA_INT, 0) != 0, pending.get(JAVA_INT, 0) != 0);
          }
        });
  }

  @Override
  public NvmlReturn setMigMode(DeviceHandle device, boolean enabled) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var status = arena.allocate(JAVA_INT);
            check(
                "nvmlDeviceSetMigMode",
                raw.nvmlDeviceSetMigMode(dev(device), enabled ? 1 : 0, status));
            return NvmlReturn.of(status.get(JAVA_INT, 0));
          }
        });
  }

  // ---- GPU instances (see FfmNvmlInstances for the profile structs)

  @Override
  public Optional<GpuInstanceProfile> gpuInstanceProfile(DeviceHandle device, int profileIndex) {
    return onCallThread(() -> instances().gpuInstanceProfile(device, profileIndex));
  }

  @Override
  public List<GpuInstanceProfile> gpuInstanceProfiles(DeviceHandle device) {
    return onCallThread(
        () -> {
          var result = new ArrayList<GpuInstanceProfile>();
          for (int index = 0; index < GI_PROFILE_COUNT; index++) {
            instances().gpuInstanceProfile(device, index).ifPresent(result::add);
          }
          return List.copyOf(result);
        });
  }

  @Override
  public GpuInstanceProfile gpuInstanceProfileById(DeviceHandle device, int profileId) {
    return onCallThread(() -> instances().gpuInstanceProfileById(device, profileId));
  }

  @Override
  public List<InstancePlacement> gpuInstancePossiblePlacements(DeviceHandle device, int profileId) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            String fn = "nvmlDeviceGetGpuInstancePossiblePlacements_v2";
            var count = arena.allocate(JAVA_INT);
            check(
                fn,
                raw.nvmlDeviceGetGpuInstancePossiblePlacements_v2(
                    dev(device), profileId, MemorySegment.NULL, count));
            int n = count.get(JAVA_INT, 0);
            if (n == 0) {
              return List.<InstancePlacement>of();
            }
            var array = nvmlGpuInstancePlacement_t.allocateArray(n, arena);
            check(
                fn,
                raw.nvmlDeviceGetGpuInstancePossiblePlacements_v2(
                    dev(device), profileId, array, count));
            var result = new ArrayList<InstancePlacement>();
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
              var p = nvmlGpuInstancePlacement_t.asSlice(array, i);
              result.add(
                  placement(
                      nvmlGpuInstancePlacement_t.start(p), nvmlGpuInstancePlacement_t.size(p)));
            }
            return List.copyOf(result);
          }
        });
  }

  @Override
  public int gpuInstanceRemainingCapacity(DeviceHandle device, int profileId) {
    return readInt(
        "nvmlDeviceGetGpuInstanceRemainingCapacity",
        out -> raw.nvmlDeviceGetGpuInstanceRemainingCapacity(dev(device), profileId, out));
  }

  @Override
  public GpuInstanceHandle createGpuInstance(DeviceHandle device, int profileId) {
    return new GpuInstanceHandle(
        readAddress(
            "nvmlDeviceCreateGpuInstance",
            out -> raw.nvmlDeviceCreateGpuInstance(dev(device), profileId, out)));
  }

  @Override
  public GpuInstanceHandle createGpuInstance(
      DeviceHandle device, int profileId, InstancePlacement placement) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var p = nvmlGpuInstancePlacement_t.allocate(arena);
            nvmlGpuInstancePlacement_t.start(p, placement.start());
            nvmlGpuInstancePlacement_t.size(p, placement.size());
            var out = arena.allocate(ADDRESS);
            check(
                "nvmlDeviceCreateGpuInstanceWithPlacement",
                raw.nvmlDeviceCreateGpuInstanceWithPlacement(dev(device), profileId, p, out));
            return new GpuInstanceHandle(out.get(ADDRESS, 0).address());
          }
        });
  }

  @Override
  public void destroyGpuInstance(GpuInstanceHandle gpuInstance) {
    run(
        () ->
            check(
                "nvmlGpuInstanceDestroy", raw.nvmlGpuInstanceDestroy(ptr(gpuInstance.address()))));
  }

  @Override
  public List<GpuInstanceHandle> gpuInstances(DeviceHandle device, int profileId) {
    return onCallThread(
        () -> {
          int capacity = instances().gpuInstanceProfileById(device, profileId).instanceCount();
          try (var arena = Arena.ofConfined()) {
            var array = arena.allocate(ADDRESS, Math.max(capacity, 1));
            var count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, capacity);
            check(
                "nvmlDeviceGetGpuInstances",
                raw.nvmlDeviceGetGpuInstances(dev(device), profileId, array, count));
            var result = new ArrayList<GpuInstanceHandle>();
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
              result.add(new GpuInstanceHandle(array.getAtIndex(ADDRESS, i).address()));
            }
            return List.copyOf(result);
          }
        });
  }

  @Override
  public GpuInstanceHandle gpuInstanceById(DeviceHandle device, int id) {
    return new GpuInstanceHandle(
        readAddress(
            "nvmlDeviceGetGpuInstanceById",
            out -> raw.nvmlDeviceGetGpuInstanceById(dev(device), id, out)));
  }

  @Override
  public GpuInstanceInfo gpuInstanceInfo(GpuInstanceHandle gpuInstance) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var info = nvmlGpuInstanceInfo_t.allocate(arena);
            check(
                "nvmlGpuInstanceGetInfo",
                raw.nvmlGpuInstanceGetInfo(ptr(gpuInstance.address()), info));
            var p = nvmlGpuInstanceInfo_t.placement(info);
            return new GpuInstanceInfo(
                new DeviceHandle(nvmlGpuInstanceInfo_t.device(info).address()),
                nvmlGpuInstanceInfo_t.id(info),
                nvmlGpuInstanceInfo_t.profileId(info),
                placement(nvmlGpuInstancePlacement_t.start(p), nvmlGpuInstancePlacement_t.size(p)));
          }
        });
  }

  // ---- compute instances

  @Override
  public Optional<ComputeInstanceProfile> computeInstanceProfile(
      GpuInstanceHandle gpuInstance, int profileIndex) {
    return onCallThread(() -> instances().computeInstanceProfile(gpuInstance, profileIndex));
  }

  @Override
  public List<ComputeInstanceProfile> computeInstanceProfiles(GpuInstanceHandle gpuInstance) {
    return onCallThread(
        () -> {
          var result = new ArrayList<ComputeInstanceProfile>();
          for (int index = 0; index < CI_PROFILE_COUNT; index++) {
            instances().computeInstanceProfile(gpuInstance, index).ifPresent(result::add);
          }
          return List.copyOf(result);
        });
  }

  @Override
  public int computeInstanceRemainingCapacity(GpuInstanceHandle gpuInstance, int profileId) {
    return readInt(
        "nvmlGpuInstanceGetComputeInstanceRemainingCapacity",
        out ->
            raw.nvmlGpuInstanceGetComputeInstanceRemainingCapacity(
                ptr(gpuInstance.address()), profileId, out));
  }

  @Override
  public List<InstancePlacement> computeInstancePossiblePlacements(
      GpuInstanceHandle gpuInstance, int profileId) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            String fn = "nvmlGpuInstanceGetComputeInstancePossiblePlacements";
            var gi = ptr(gpuInstance.address());
            var count = arena.allocate(JAVA_INT);
            check(
                fn,
                raw.nvmlGpuInstanceGetComputeInstancePossiblePlacements(
                    gi, profileId, MemorySegment.NULL, count));
            int n = count.get(JAVA_INT, 0);
            if (n == 0) {
              return List.<InstancePlacement>of();
            }
            var array = nvmlComputeInstancePlacement_t.allocateArray(n, arena);
            check(
                fn,
                raw.nvmlGpuInstanceGetComputeInstancePossiblePlacements(
                    gi, profileId, array, count));
            var result = new ArrayList<InstancePlacement>();
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
              var p = nvmlComputeInstancePlacement_t.asSlice(array, i);
              result.add(
                  placement(
                      nvmlComputeInstancePlacement_t.start(p),
                      nvmlComputeInstancePlacement_t.size(p)));
            }
            return List.copyOf(result);
          }
        });
  }

  @Override
  public ComputeInstanceHandle createComputeInstance(GpuInstanceHandle gpuInstance, int profileId) {
    return new ComputeInstanceHandle(
        readAddress(
            "nvmlGpuInstanceCreateComputeInstance",
            out ->
                raw.nvmlGpuInstanceCreateComputeInstance(
                    ptr(gpuInstance.address()), profileId, out)));
  }

  @Override
  public ComputeInstanceHandle createComputeInstance(
      GpuInstanceHandle gpuInstance, int profileId, InstancePlacement placement) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var p = nvmlComputeInstancePlacement_t.allocate(arena);
            nvmlComputeInstancePlacement_t.start(p, placement.start());
            nvmlComputeInstancePlacement_t.size(p, placement.size());
            var out = arena.allocate(ADDRESS);
            check(
                "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
                raw.nvmlGpuInstanceCreateComputeInstanceWithPlacement(
                    ptr(gpuInstance.address()), profileId, p, out));
            return new ComputeInstanceHandle(out.get(ADDRESS, 0).address());
          }
        });
  }

  @Override
  public void destroyComputeInstance(ComputeInstanceHandle computeInstance) {
    run(
        () ->
            check(
                "nvmlComputeInstanceDestroy",
                raw.nvmlComputeInstanceDestroy(ptr(computeInstance.address()))));
  }

  @Override
  public List<ComputeInstanceHandle> computeInstances(
      GpuInstanceHandle gpuInstance, int profileId) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var array = arena.allocate(ADDRESS, MAX_COMPUTE_INSTANCES_PER_GI);
            var count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, MAX_COMPUTE_INSTANCES_PER_GI);
            check(
                "nvmlGpuInstanceGetComputeInstances",
                raw.nvmlGpuInstanceGetComputeInstances(
                    ptr(gpuInstance.address()), profileId, array, count));
            var result = new ArrayList<ComputeInstanceHandle>();
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
              result.add(new ComputeInstanceHandle(array.getAtIndex(ADDRESS, i).address()));
            }
            return List.copyOf(result);
          }
        });
  }

  @Override
  public ComputeInstanceHandle computeInstanceById(GpuInstanceHandle gpuInstance, int id) {
    return new ComputeInstanceHandle(
        readAddress(
            "nvmlGpuInstanceGetComputeInstanceById",
            out -> raw.nvmlGpuInstanceGetComputeInstanceById(ptr(gpuInstance.address()), id, out)));
  }

  @Override
  public ComputeInstanceInfo computeInstanceInfo(ComputeInstanceHandle computeInstance) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var info = nvmlComputeInstanceInfo_t.allocate(arena);
            check(
                "nvmlComputeInstanceGetInfo_v2",
                raw.nvmlComputeInstanceGetInfo_v2(ptr(computeInstance.address()), info));
            var p = nvmlComputeInstanceInfo_t.placement(info);
            return new ComputeInstanceInfo(
                new DeviceHandle(nvmlComputeInstanceInfo_t.device(info).address()),
                new GpuInstanceHandle(nvmlComputeInstanceInfo_t.gpuInstance(info).address()),
                nvmlComputeInstanceInfo_t.id(info),
                nvmlComputeInstanceInfo_t.profileId(info),
                placement(
                    nvmlComputeInstancePlacement_t.start(p),
                    nvmlComputeInstancePlacement_t.size(p)));
          }
        });
  }

  // ---- MIG device handles

  @Override
  public boolean isMigDevice(DeviceHandle device) {
    return readInt(
            "nvmlDeviceIsMigDeviceHandle", out -> raw.nvmlDeviceIsMigDeviceHandle(dev(device), out))
        != 0;
  }

  @Override
  public int gpuInstanceId(DeviceHandle migDevice) {
    return readInt(
        "nvmlDeviceGetGpuInstanceId", out -> raw.nvmlDeviceGetGpuInstanceId(dev(migDevice), out));
  }

  @Override
  public int computeInstanceId(DeviceHandle migDevice) {
    return readInt(
        "nvmlDeviceGetComputeInstanceId",
        out -> raw.nvmlDeviceGetComputeInstanceId(dev(migDevice), out));
  }

  @Override
  public int maxMigDeviceCount(DeviceHandle device) {
    return readInt(
        "nvmlDeviceGetMaxMigDeviceCount",
        out -> raw.nvmlDeviceGetMaxMigDeviceCount(dev(device), out));
  }

  @Override
  public Optional<DeviceHandle> migDeviceByIndex(DeviceHandle device, int index) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            String fn = "nvmlDeviceGetMigDeviceHandleByIndex";
            var rc = observe(fn, raw.nvmlDeviceGetMigDeviceHandleByIndex(dev(device), index, out));
            if (rc == NvmlReturn.NOT_FOUND) {
              return Optional.<DeviceHandle>empty();
            }
            if (rc != NvmlReturn.SUCCESS) {
              throw failure(fn, rc);
            }
            return Optional.of(new DeviceHandle(out.get(ADDRESS, 0).address()));
          }
        });
  }

  @Override
  public DeviceHandle parentDevice(DeviceHandle migDevice) {
    return new DeviceHandle(
        readAddress(
            "nvmlDeviceGetDeviceHandleFromMigDeviceHandle",
            out -> raw.nvmlDeviceGetDeviceHandleFromMigDeviceHandle(dev(migDevice), out)));
  }

  @Override
  public DeviceAttributes attributes(DeviceHandle migDevice) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var a = nvmlDeviceAttributes_t.allocate(arena);
            check("nvmlDeviceGetAttributes_v2", raw.nvmlDeviceGetAttributes_v2(dev(migDevice), a));
            return new DeviceAttributes(
                nvmlDeviceAttributes_t.multiprocessorCount(a),
                nvmlDeviceAttributes_t.sharedCopyEngineCount(a),
                nvmlDeviceAttributes_t.sharedDecoderCount(a),
                nvmlDeviceAttributes_t.sharedEncoderCount(a),
                nvmlDeviceAttributes_t.sharedJpegCount(a),
                nvmlDeviceAttributes_t.sharedOfaCount(a),
                nvmlDeviceAttributes_t.gpuInstanceSliceCount(a),
                nvmlDeviceAttributes_t.computeInstanceSliceCount(a),
                nvmlDeviceAttributes_t.memorySizeMB(a));
          }
        });
  }

  // ---- events

  @Override
  public EventSetHandle createEventSet() {
    return new EventSetHandle(
        readAddress("nvmlEventSetCreate", out -> raw.nvmlEventSetCreate(out)));
  }

  @Override
  public long supportedEventTypes(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_LONG);
            check(
                "nvmlDeviceGetSupportedEventTypes",
                raw.nvmlDeviceGetSupportedEventTypes(dev(device), out));
            return out.get(JAVA_LONG, 0);
          }
        });
  }

  @Override
  public void registerEvents(DeviceHandle device, long eventTypes, EventSetHandle set) {
    run(
        () ->
            check(
                "nvmlDeviceRegisterEvents",
                raw.nvmlDeviceRegisterEvents(dev(device), eventTypes, ptr(set.address()))));
  }

  @Override
  public Optional<EventData> waitForEvent(EventSetHandle set, Duration timeout) {
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(0, timeout.toMillis()));
    return on(
        events,
        () -> {
          try (var arena = Arena.ofConfined()) {
            var data = nvmlEventData_t.allocate(arena);
            String fn = "nvmlEventSetWait_v2";
            var rc = observe(fn, raw.nvmlEventSetWait_v2(ptr(set.address()), data, millis));
            if (rc == NvmlReturn.TIMEOUT) {
              return Optional.<EventData>empty();
            }
            if (rc != NvmlReturn.SUCCESS) {
              throw failure(fn, rc);
            }
            return Optional.of(
                new EventData(
                    new DeviceHandle(nvmlEventData_t.device(data).address()),
                    nvmlEventData_t.eventType(data),
                    nvmlEventData_t.eventData(data),
                    nvmlEventData_t.gpuInstanceId(data),
                    nvmlEventData_t.computeInstanceId(data)));
          }
        },
        false,
        false);
  }

  @Override
  public void freeEventSet(EventSetHandle set) {
    run(() -> check("nvmlEventSetFree", raw.nvmlEventSetFree(ptr(set.address()))));
  }

  // ---- GPM

  @Override
  public boolean gpmSupported(DeviceHandle device) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var support = nvmlGpmSupport_t.allocate(arena);
            nvmlGpmSupport_t.version(support, GPM_VERSION);
            check("nvmlGpmQueryDeviceSupport", raw.nvmlGpmQueryDeviceSupport(dev(device), support));
            return nvmlGpmSupport_t.isSupportedDevice(support) != 0;
          }
        });
  }

  @Override
  public GpmSampleHandle allocateGpmSample() {
    return new GpmSampleHandle(
        readAddress("nvmlGpmSampleAlloc", out -> raw.nvmlGpmSampleAlloc(out)));
  }

  @Override
  public void freeGpmSample(GpmSampleHandle sample) {
    run(() -> check("nvmlGpmSampleFree", raw.nvmlGpmSampleFree(ptr(sample.address()))));
  }

  @Override
  public void takeGpmSample(DeviceHandle device, GpmSampleHandle sample) {
    run(() -> check("nvmlGpmSampleGet", raw.nvmlGpmSampleGet(dev(device), ptr(sample.address()))));
  }

  @Override
  public void takeGpmMigSample(DeviceHandle device, int gpuInstanceId, GpmSampleHandle sample) {
    run(
        () ->
            check(
                "nvmlGpmMigSampleGet",
                raw.nvmlGpmMigSampleGet(dev(device), gpuInstanceId, ptr(sample.address()))));
  }

  @Override
  public List<GpmMetricValue> gpmMetrics(
      GpmSampleHandle first, GpmSampleHandle second, List<Integer> metricIds) {
    return onCallThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var get = nvmlGpmMetricsGet_t.allocate(arena);
            nvmlGpmMetricsGet_t.version(get, GPM_VERSION);
            nvmlGpmMetricsGet_t.numMetrics(get, metricIds.size());
            nvmlGpmMetricsGet_t.sample1(get, ptr(first.address()));
            nvmlGpmMetricsGet_t.sample2(get, ptr(second.address()));
            var metrics = nvmlGpmMetricsGet_t.metrics(get);
            for (int i = 0; i < metricIds.size(); i++) {
              nvmlGpmMetric_t.metricId(nvmlGpmMetric_t.asSlice(metrics, i), metricIds.get(i));
            }
            check("nvmlGpmMetricsGet", raw.nvmlGpmMetricsGet(get));
            var result = new ArrayList<GpmMetricValue>();
            for (int i = 0; i < metricIds.size(); i++) {
              var m = nvmlGpmMetric_t.asSlice(metrics, i);
              result.add(
                  new GpmMetricValue(
                      nvmlGpmMetric_t.metricId(m),
                      NvmlReturn.of(nvmlGpmMetric_t.nvmlReturn(m)),
                      nvmlGpmMetric_t.value(m)));
            }
            return List.copyOf(result);
          }
        });
  }

  // ---- lifecycle

  @Override
  public void close() {
    if (closed.get()) {
      return;
    }
    try {
      onCallThread(() -> check("nvmlShutdown", raw.nvmlShutdown()));
    } finally {
      closed.set(true);
      shutdownThreads();
    }
  }

  private void shutdownThreads() {
    calls.shutdownNow();
    events.shutdownNow();
  }

  private FfmNvmlProfiles instances() {
    return new FfmNvmlProfiles(raw, this::observe);
  }
}
