package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.ComputeMode;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.FieldValue;
import io.migd.nvml.MemoryInfo;
import io.migd.nvml.MigMode;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlReturn;
import io.migd.nvml.ProcessInfo;
import io.migd.nvml.ProcessUtilization;
import io.migd.nvml.Utilization;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** Memory, utilisation, processes, power, compute mode and MIG mode. */
abstract class FfmNvmlMetrics extends FfmNvmlDevices {
  FfmNvmlMetrics(NvmlLibrary library, NvmlCallObserver observer) {
    super(library, observer);
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

  interface ProcessCall {
    int call(MemorySegment count, MemorySegment infos);
  }

  List<ProcessInfo> processes(String function, ProcessCall call) {
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

  List<ProcessUtilization> legacyProcessUtilization(
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
}
