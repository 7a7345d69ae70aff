package io.migd.nvml.ffm;

import static io.migd.nvml.ffm.FfmCalls.dev;
import static io.migd.nvml.ffm.FfmCalls.placement;
import static io.migd.nvml.ffm.FfmCalls.ptr;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.ComputeInstanceHandle;
import io.migd.nvml.ComputeInstanceInfo;
import io.migd.nvml.ComputeInstanceProfile;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.GpuInstanceInfo;
import io.migd.nvml.GpuInstanceProfile;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.MigQueries;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** {@link MigQueries} over the FFM binding. */
final class FfmMigQueries implements MigQueries {
  private static final int GI_PROFILE_COUNT = 18;
  private static final int CI_PROFILE_COUNT = 9;
  private static final int MAX_COMPUTE_INSTANCES_PER_GI = 16;

  private final FfmCalls calls;
  private final nvml_h raw;
  private final FfmNvmlProfiles profiles;

  FfmMigQueries(FfmCalls calls) {
    this.calls = calls;
    this.raw = calls.raw;
    this.profiles = new FfmNvmlProfiles(raw, calls.codes());
  }

  @Override
  public List<GpuInstanceProfile> gpuInstanceProfiles(DeviceHandle device) {
    return calls.call(
        () -> {
          var result = new ArrayList<GpuInstanceProfile>();
          for (int index = 0; index < GI_PROFILE_COUNT; index++) {
            profiles.gpuInstanceProfile(device, index).ifPresent(result::add);
          }
          return List.copyOf(result);
        });
  }

  @Override
  public GpuInstanceProfile gpuInstanceProfileById(DeviceHandle device, int profileId) {
    return calls.call(() -> profiles.gpuInstanceProfileById(device, profileId));
  }

  @Override
  public List<InstancePlacement> gpuInstancePossiblePlacements(DeviceHandle device, int profileId) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            String fn = "nvmlDeviceGetGpuInstancePossiblePlacements_v2";
            var count = arena.allocate(JAVA_INT);
            calls.check(
                fn,
                raw.nvmlDeviceGetGpuInstancePossiblePlacements_v2(
                    dev(device), profileId, MemorySegment.NULL, count));
            int n = count.get(JAVA_INT, 0);
            if (n == 0) {
              return List.<InstancePlacement>of();
            }
            var array = nvmlGpuInstancePlacement_t.allocateArray(n, arena);
            calls.check(
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
  public List<GpuInstanceHandle> gpuInstances(DeviceHandle device, int profileId) {
    return calls.call(
        () -> {
          int capacity = profiles.gpuInstanceProfileById(device, profileId).instanceCount();
          try (var arena = Arena.ofConfined()) {
            var array = arena.allocate(ADDRESS, Math.max(capacity, 1));
            var count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, capacity);
            calls.check(
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
        calls.readAddress(
            "nvmlDeviceGetGpuInstanceById",
            out -> raw.nvmlDeviceGetGpuInstanceById(dev(device), id, out)));
  }

  @Override
  public GpuInstanceInfo gpuInstanceInfo(GpuInstanceHandle gpuInstance) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var info = nvmlGpuInstanceInfo_t.allocate(arena);
            calls.check(
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

  @Override
  public List<ComputeInstanceProfile> computeInstanceProfiles(GpuInstanceHandle gpuInstance) {
    return calls.call(
        () -> {
          var result = new ArrayList<ComputeInstanceProfile>();
          for (int index = 0; index < CI_PROFILE_COUNT; index++) {
            profiles.computeInstanceProfile(gpuInstance, index).ifPresent(result::add);
          }
          return List.copyOf(result);
        });
  }

  @Override
  public List<InstancePlacement> computeInstancePossiblePlacements(
      GpuInstanceHandle gpuInstance, int profileId) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            String fn = "nvmlGpuInstanceGetComputeInstancePossiblePlacements";
            var gi = ptr(gpuInstance.address());
            var count = arena.allocate(JAVA_INT);
            calls.check(
                fn,
                raw.nvmlGpuInstanceGetComputeInstancePossiblePlacements(
                    gi, profileId, MemorySegment.NULL, count));
            int n = count.get(JAVA_INT, 0);
            if (n == 0) {
              return List.<InstancePlacement>of();
            }
            var array = nvmlComputeInstancePlacement_t.allocateArray(n, arena);
            calls.check(
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
  public List<ComputeInstanceHandle> computeInstances(
      GpuInstanceHandle gpuInstance, int profileId) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var array = arena.allocate(ADDRESS, MAX_COMPUTE_INSTANCES_PER_GI);
            var count = arena.allocate(JAVA_INT);
            count.set(JAVA_INT, 0, MAX_COMPUTE_INSTANCES_PER_GI);
            calls.check(
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
        calls.readAddress(
            "nvmlGpuInstanceGetComputeInstanceById",
            out -> raw.nvmlGpuInstanceGetComputeInstanceById(ptr(gpuInstance.address()), id, out)));
  }

  @Override
  public ComputeInstanceInfo computeInstanceInfo(ComputeInstanceHandle computeInstance) {
    return calls.call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var info = nvmlComputeInstanceInfo_t.allocate(arena);
            calls.check(
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
}
