package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.ComputeCapability;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuArchitecture;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.PciInfo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** System queries and GPU identity. */
abstract class FfmNvmlDevices extends FfmNvmlCalls {
  FfmNvmlDevices(NvmlLibrary library, NvmlCallObserver observer) {
    super(library, observer);
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

  String readName(String function, DeviceHandle device, boolean uuid) {
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
}
