package io.migd.nvml.ffm;

import static io.migd.nvml.ffm.FfmCalls.dev;
import static io.migd.nvml.ffm.FfmCalls.ptr;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.ComputeInstanceHandle;
import io.migd.nvml.ComputeMode;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.MigControl;
import io.migd.nvml.NvmlReturn;
import java.lang.foreign.Arena;

/** {@link MigControl} over the FFM binding. */
final class FfmMigControl implements MigControl {
  private final FfmCalls calls;
  private final nvml_h raw;

  FfmMigControl(FfmCalls calls) {
    this.calls = calls;
    this.raw = calls.raw;
  }

  @Override
  public NvmlReturn setMigMode(DeviceHandle device, boolean enabled) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var status = arena.allocate(JAVA_INT);
            calls.check(
                "nvmlDeviceSetMigMode",
                raw.nvmlDeviceSetMigMode(dev(device), enabled ? 1 : 0, status));
            return NvmlReturn.of(status.get(JAVA_INT, 0));
          }
        });
  }

  @Override
  public void setComputeMode(DeviceHandle device, ComputeMode mode) {
    calls.run(
        () ->
            calls.check(
                "nvmlDeviceSetComputeMode",
                raw.nvmlDeviceSetComputeMode(dev(device), mode.value())));
  }

  @Override
  public GpuInstanceHandle createGpuInstance(
      DeviceHandle device, int profileId, InstancePlacement placement) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var p = nvmlGpuInstancePlacement_t.allocate(arena);
            nvmlGpuInstancePlacement_t.start(p, placement.start());
            nvmlGpuInstancePlacement_t.size(p, placement.size());
            var out = arena.allocate(ADDRESS);
            calls.check(
                "nvmlDeviceCreateGpuInstanceWithPlacement",
                raw.nvmlDeviceCreateGpuInstanceWithPlacement(dev(device), profileId, p, out));
            return new GpuInstanceHandle(out.get(ADDRESS, 0).address());
          }
        });
  }

  @Override
  public void destroyGpuInstance(GpuInstanceHandle gpuInstance) {
    calls.run(
        () ->
            calls.check(
                "nvmlGpuInstanceDestroy", raw.nvmlGpuInstanceDestroy(ptr(gpuInstance.address()))));
  }

  @Override
  public ComputeInstanceHandle createComputeInstance(
      GpuInstanceHandle gpuInstance, int profileId, InstancePlacement placement) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var p = nvmlComputeInstancePlacement_t.allocate(arena);
            nvmlComputeInstancePlacement_t.start(p, placement.start());
            nvmlComputeInstancePlacement_t.size(p, placement.size());
            var out = arena.allocate(ADDRESS);
            calls.check(
                "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
                raw.nvmlGpuInstanceCreateComputeInstanceWithPlacement(
                    ptr(gpuInstance.address()), profileId, p, out));
            return new ComputeInstanceHandle(out.get(ADDRESS, 0).address());
          }
        });
  }

  @Override
  public void destroyComputeInstance(ComputeInstanceHandle computeInstance) {
    calls.run(
        () ->
            calls.check(
                "nvmlComputeInstanceDestroy",
                raw.nvmlComputeInstanceDestroy(ptr(computeInstance.address()))));
  }
}
