package io.migd.nvml.ffm;

import static io.migd.nvml.ffm.FfmCalls.dev;
import static io.migd.nvml.ffm.FfmCalls.failure;
import static io.migd.nvml.ffm.FfmCalls.ptr;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.migd.nvml.DeviceHandle;
import io.migd.nvml.EventData;
import io.migd.nvml.EventSetHandle;
import io.migd.nvml.NvmlEvents;
import io.migd.nvml.NvmlReturn;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.Optional;

/** {@link NvmlEvents} over the FFM binding; the wait runs on the session's event thread. */
final class FfmNvmlEvents implements NvmlEvents {
  private final FfmCalls calls;
  private final nvml_h raw;

  FfmNvmlEvents(FfmCalls calls) {
    this.calls = calls;
    this.raw = calls.raw;
  }

  @Override
  public EventSetHandle createEventSet() {
    return new EventSetHandle(
        calls.readAddress("nvmlEventSetCreate", out -> raw.nvmlEventSetCreate(out)));
  }

  @Override
  public long supportedEventTypes(DeviceHandle device) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_LONG);
            calls.check(
                "nvmlDeviceGetSupportedEventTypes",
                raw.nvmlDeviceGetSupportedEventTypes(dev(device), out));
            return out.get(JAVA_LONG, 0);
          }
        });
  }

  @Override
  public void registerEvents(DeviceHandle device, long eventTypes, EventSetHandle set) {
    calls.run(
        () ->
            calls.check(
                "nvmlDeviceRegisterEvents",
                raw.nvmlDeviceRegisterEvents(dev(device), eventTypes, ptr(set.address()))));
  }

  @Override
  public Optional<EventData> waitForEvent(EventSetHandle set, Duration timeout) {
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(0, timeout.toMillis()));
    return calls.session.onEventThread(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var data = nvmlEventData_t.allocate(arena);
            String fn = "nvmlEventSetWait_v2";
            var rc = calls.observe(fn, raw.nvmlEventSetWait_v2(ptr(set.address()), data, millis));
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
    calls.run(() -> calls.check("nvmlEventSetFree", raw.nvmlEventSetFree(ptr(set.address()))));
  }
}
