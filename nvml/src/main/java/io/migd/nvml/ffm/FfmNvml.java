package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.migd.nvml.DeviceAttributes;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.EventData;
import io.migd.nvml.EventSetHandle;
import io.migd.nvml.GpmMetricValue;
import io.migd.nvml.GpmSampleHandle;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlReturn;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link Nvml} over the FFM binding of one loaded library. NVML calls run on their caller's thread,
 * several at once (NVML is thread-safe); a reset or shutdown waits for the calls in flight and
 * holds new ones until NVML is back. The blocking event wait runs on a thread of its own.
 */
public final class FfmNvml extends FfmNvmlInstances {
  private FfmNvml(NvmlLibrary library, NvmlCallObserver observer) {
    super(library, observer);
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
    return onEventThread(
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
        });
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
}
