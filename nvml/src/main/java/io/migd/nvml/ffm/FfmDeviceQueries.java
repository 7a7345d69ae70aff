package io.migd.nvml.ffm;

import static io.migd.nvml.ffm.FfmCalls.cString;
import static io.migd.nvml.ffm.FfmCalls.dev;
import static io.migd.nvml.ffm.FfmCalls.failure;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.CudaVersion;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.DeviceQueries;
import io.migd.nvml.GpuArchitecture;
import io.migd.nvml.GpuBrand;
import io.migd.nvml.MemoryInfo;
import io.migd.nvml.MigMode;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.PciInfo;
import io.migd.nvml.ProcessInfo;
import io.migd.nvml.Utilization;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link DeviceQueries} over the FFM binding. */
final class FfmDeviceQueries implements DeviceQueries {
  private static final int NAME_BUFFER = 96;
  private static final int PROCESS_NAME_BUFFER = 256;
  private static final int DRIVER_VERSION_BUFFER = 80;

  private final FfmCalls calls;
  private final nvml_h raw;

  FfmDeviceQueries(FfmCalls calls) {
    this.calls = calls;
    this.raw = calls.raw;
  }

  @Override
  public String driverVersion() {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var buf = arena.allocate(DRIVER_VERSION_BUFFER);
            calls.check(
                "nvmlSystemGetDriverVersion",
                raw.nvmlSystemGetDriverVersion(buf, DRIVER_VERSION_BUFFER));
            return cString(buf);
          }
        });
  }

  @Override
  public CudaVersion cudaDriverVersion() {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_INT);
            var rc =
                calls.observe(
                    "nvmlSystemGetCudaDriverVersion_v2",
                    raw.nvmlSystemGetCudaDriverVersion_v2(out));
            if (rc == NvmlReturn.FUNCTION_NOT_FOUND) {
              calls.check(
                  "nvmlSystemGetCudaDriverVersion", raw.nvmlSystemGetCudaDriverVersion(out));
            } else if (rc != NvmlReturn.SUCCESS) {
              throw failure("nvmlSystemGetCudaDriverVersion_v2", rc);
            }
            return CudaVersion.ofDriverValue(out.get(JAVA_INT, 0));
          }
        });
  }

  @Override
  public int deviceCount() {
    return calls.readInt("nvmlDeviceGetCount_v2", out -> raw.nvmlDeviceGetCount_v2(out));
  }

  @Override
  public DeviceHandle deviceByIndex(int index) {
    return new DeviceHandle(
        calls.readAddress(
            "nvmlDeviceGetHandleByIndex_v2", out -> raw.nvmlDeviceGetHandleByIndex_v2(index, out)));
  }

  @Override
  public DeviceHandle deviceByUuid(String uuid) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            calls.check(
                "nvmlDeviceGetHandleByUUID",
                raw.nvmlDeviceGetHandleByUUID(arena.allocateFrom(uuid), out));
            return new DeviceHandle(out.get(ADDRESS, 0).address());
          }
        });
  }

  @Override
  public int index(DeviceHandle device) {
    return calls.readInt("nvmlDeviceGetIndex", out -> raw.nvmlDeviceGetIndex(dev(device), out));
  }

  @Override
  public int minorNumber(DeviceHandle device) {
    return calls.readInt(
        "nvmlDeviceGetMinorNumber", out -> raw.nvmlDeviceGetMinorNumber(dev(device), out));
  }

  @Override
  public String uuid(DeviceHandle device) {
    return readName("nvmlDeviceGetUUID", device, true);
  }

  @Override
  public String name(DeviceHandle device) {
    return readName("nvmlDeviceGetName", device, false);
  }

  private String readName(String function, DeviceHandle device, boolean uuid) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var buf = arena.allocate(NAME_BUFFER);
            int rc =
                uuid
                    ? raw.nvmlDeviceGetUUID(dev(device), buf, NAME_BUFFER)
                    : raw.nvmlDeviceGetName(dev(device), buf, NAME_BUFFER);
            calls.check(function, rc);
            return cString(buf);
          }
        });
  }

  @Override
  public GpuBrand brand(DeviceHandle device) {
    return GpuBrand.of(
        calls.readInt("nvmlDeviceGetBrand", out -> raw.nvmlDeviceGetBrand(dev(device), out)));
  }

  @Override
  public GpuArchitecture architecture(DeviceHandle device) {
    return GpuArchitecture.of(
        calls.readInt(
            "nvmlDeviceGetArchitecture", out -> raw.nvmlDeviceGetArchitecture(dev(device), out)));
  }

  @Override
  public CudaVersion cudaComputeCapability(DeviceHandle device) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var major = arena.allocate(JAVA_INT);
            var minor = arena.allocate(JAVA_INT);
            calls.check(
                "nvmlDeviceGetCudaComputeCapability",
                raw.nvmlDeviceGetCudaComputeCapability(dev(device), major, minor));
            return new CudaVersion(major.get(JAVA_INT, 0), minor.get(JAVA_INT, 0));
          }
        });
  }

  @Override
  public PciInfo pciInfo(DeviceHandle device) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var pci = nvmlPciInfo_t.allocate(arena);
            calls.check("nvmlDeviceGetPciInfo_v3", raw.nvmlDeviceGetPciInfo_v3(dev(device), pci));
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
  public MemoryInfo memory(DeviceHandle device) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var v2 = nvmlMemory_v2_t.allocate(arena);
            nvmlMemory_v2_t.version(v2, nvml_h.nvmlMemory_v2());
            var rc =
                calls.observe(
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
            calls.check("nvmlDeviceGetMemoryInfo", raw.nvmlDeviceGetMemoryInfo(dev(device), v1));
            return new MemoryInfo(
                nvmlMemory_t.total(v1), 0, nvmlMemory_t.free(v1), nvmlMemory_t.used(v1));
          }
        });
  }

  @Override
  public Utilization utilization(DeviceHandle device) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var u = nvmlUtilization_t.allocate(arena);
            calls.check(
                "nvmlDeviceGetUtilizationRates", raw.nvmlDeviceGetUtilizationRates(dev(device), u));
            return new Utilization(nvmlUtilization_t.gpu(u), nvmlUtilization_t.memory(u));
          }
        });
  }

  @Override
  public List<ProcessInfo> computeProcesses(DeviceHandle device) {
    String function = "nvmlDeviceGetComputeRunningProcesses_v3";
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, 0);
            var rc =
                calls.observe(
                    function,
                    raw.nvmlDeviceGetComputeRunningProcesses_v3(
                        dev(device), count, MemorySegment.NULL));
            for (int attempt = 0; rc == NvmlReturn.INSUFFICIENT_SIZE && attempt < 3; attempt++) {
              int capacity = count.get(JAVA_INT, 0) + 4;
              var infos = nvmlProcessInfo_t.allocateArray(capacity, arena);
              count.set(JAVA_INT, 0, capacity);
              rc =
                  calls.observe(
                      function,
                      raw.nvmlDeviceGetComputeRunningProcesses_v3(dev(device), count, infos));
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
  public String processName(int pid) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var buf = arena.allocate(PROCESS_NAME_BUFFER);
            calls.check(
                "nvmlSystemGetProcessName",
                raw.nvmlSystemGetProcessName(pid, buf, PROCESS_NAME_BUFFER));
            return cString(buf);
          }
        });
  }

  @Override
  public MigMode migMode(DeviceHandle device) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var current = arena.allocate(JAVA_INT);
            var pending = arena.allocate(JAVA_INT);
            calls.check(
                "nvmlDeviceGetMigMode", raw.nvmlDeviceGetMigMode(dev(device), current, pending));
            return new MigMode(current.get(JAVA_INT, 0) != 0, pending.get(JAVA_INT, 0) != 0);
          }
        });
  }

  @Override
  public int maxMigDeviceCount(DeviceHandle device) {
    return calls.readInt(
        "nvmlDeviceGetMaxMigDeviceCount",
        out -> raw.nvmlDeviceGetMaxMigDeviceCount(dev(device), out));
  }

  @Override
  public Optional<DeviceHandle> migDeviceByIndex(DeviceHandle device, int index) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            String fn = "nvmlDeviceGetMigDeviceHandleByIndex";
            var rc =
                calls.observe(fn, raw.nvmlDeviceGetMigDeviceHandleByIndex(dev(device), index, out));
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
  public int gpuInstanceId(DeviceHandle migDevice) {
    return calls.readInt(
        "nvmlDeviceGetGpuInstanceId", out -> raw.nvmlDeviceGetGpuInstanceId(dev(migDevice), out));
  }

  @Override
  public int computeInstanceId(DeviceHandle migDevice) {
    return calls.readInt(
        "nvmlDeviceGetComputeInstanceId",
        out -> raw.nvmlDeviceGetComputeInstanceId(dev(migDevice), out));
  }
}
