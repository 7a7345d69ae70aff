package io.migd.nvml.ffm;

import io.migd.nvml.ComputeInstanceProfile;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.GpuInstanceHandle;
import io.migd.nvml.GpuInstanceProfile;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * Reads GPU- and compute-instance profile structs, trying the newest struct version first and
 * falling back the way drivers of different ages need. Runs inside a call of FfmMigQueries, on the
 * caller's thread.
 */
final class FfmNvmlProfiles {
  private static final int ENGINE_PROFILE_SHARED = 0;

  private final nvml_h raw;
  private final ReturnCodes codes;

  FfmNvmlProfiles(nvml_h raw, ReturnCodes codes) {
    this.raw = raw;
    this.codes = codes;
  }

  /**
   * The versioned call answers only with MIG enabled and may not know v3; the oldest call answers
   * regardless of the MIG mode. NOT_SUPPORTED from the oldest call means "not offered", and
   * INVALID_ARGUMENT the end of the index range.
   */
  Optional<GpuInstanceProfile> gpuInstanceProfile(DeviceHandle device, int index) {
    var dev = MemorySegment.ofAddress(device.address());
    try (var arena = Arena.ofConfined()) {
      String fnV = "nvmlDeviceGetGpuInstanceProfileInfoV";
      var v3 = nvmlGpuInstanceProfileInfo_v3_t.allocate(arena);
      nvmlGpuInstanceProfileInfo_v3_t.version(v3, nvml_h.nvmlGpuInstanceProfileInfo_v3());
      var rc = codes.observe(fnV, raw.nvmlDeviceGetGpuInstanceProfileInfoV(dev, index, v3));
      if (rc == NvmlReturn.SUCCESS) {
        return Optional.of(fromV3(index, v3));
      }
      if (rc == NvmlReturn.INVALID_ARGUMENT) {
        var v2 = nvmlGpuInstanceProfileInfo_v2_t.allocate(arena);
        nvmlGpuInstanceProfileInfo_v2_t.version(v2, nvml_h.nvmlGpuInstanceProfileInfo_v2());
        rc = codes.observe(fnV, raw.nvmlDeviceGetGpuInstanceProfileInfoV(dev, index, v2));
        if (rc == NvmlReturn.SUCCESS) {
          return Optional.of(fromV2(index, v2));
        }
      }
      if (rc != NvmlReturn.NOT_SUPPORTED
          && rc != NvmlReturn.INVALID_ARGUMENT
          && rc != NvmlReturn.FUNCTION_NOT_FOUND) {
        throw new NvmlException(fnV, rc, "reading GPU-instance profile index " + index);
      }
      String fn = "nvmlDeviceGetGpuInstanceProfileInfo";
      var v1 = nvmlGpuInstanceProfileInfo_t.allocate(arena);
      rc = codes.observe(fn, raw.nvmlDeviceGetGpuInstanceProfileInfo(dev, index, v1));
      if (rc == NvmlReturn.SUCCESS) {
        return Optional.of(fromV1(index, v1));
      }
      if (rc == NvmlReturn.NOT_SUPPORTED || rc == NvmlReturn.INVALID_ARGUMENT) {
        return Optional.empty();
      }
      throw new NvmlException(fn, rc, "reading GPU-instance profile index " + index);
    }
  }

  GpuInstanceProfile gpuInstanceProfileById(DeviceHandle device, int profileId) {
    var dev = MemorySegment.ofAddress(device.address());
    String fn = "nvmlDeviceGetGpuInstanceProfileInfoByIdV";
    try (var arena = Arena.ofConfined()) {
      var v3 = nvmlGpuInstanceProfileInfo_v3_t.allocate(arena);
      nvmlGpuInstanceProfileInfo_v3_t.version(v3, nvml_h.nvmlGpuInstanceProfileInfo_v3());
      var rc = codes.observe(fn, raw.nvmlDeviceGetGpuInstanceProfileInfoByIdV(dev, profileId, v3));
      if (rc == NvmlReturn.SUCCESS) {
        return fromV3(-1, v3);
      }
      if (rc == NvmlReturn.INVALID_ARGUMENT) {
        var v2 = nvmlGpuInstanceProfileInfo_v2_t.allocate(arena);
        nvmlGpuInstanceProfileInfo_v2_t.version(v2, nvml_h.nvmlGpuInstanceProfileInfo_v2());
        rc = codes.observe(fn, raw.nvmlDeviceGetGpuInstanceProfileInfoByIdV(dev, profileId, v2));
        if (rc == NvmlReturn.SUCCESS) {
          return fromV2(-1, v2);
        }
      }
      throw new NvmlException(fn, rc, "reading GPU-instance profile id " + profileId);
    }
  }

  Optional<ComputeInstanceProfile> computeInstanceProfile(
      GpuInstanceHandle gpuInstance, int index) {
    var gi = MemorySegment.ofAddress(gpuInstance.address());
    try (var arena = Arena.ofConfined()) {
      String fnV = "nvmlGpuInstanceGetComputeInstanceProfileInfoV";
      var v3 = nvmlComputeInstanceProfileInfo_v3_t.allocate(arena);
      nvmlComputeInstanceProfileInfo_v3_t.version(v3, nvml_h.nvmlComputeInstanceProfileInfo_v3());
      var rc =
          codes.observe(
              fnV,
              raw.nvmlGpuInstanceGetComputeInstanceProfileInfoV(
                  gi, index, ENGINE_PROFILE_SHARED, v3));
      if (rc == NvmlReturn.SUCCESS) {
        return Optional.of(
            new ComputeInstanceProfile(
                index,
                nvmlComputeInstanceProfileInfo_v3_t.id(v3),
                nvmlComputeInstanceProfileInfo_v3_t.sliceCount(v3),
                nvmlComputeInstanceProfileInfo_v3_t.instanceCount(v3),
                nvmlComputeInstanceProfileInfo_v3_t.multiprocessorCount(v3),
                nvmlComputeInstanceProfileInfo_v3_t.sharedCopyEngineCount(v3),
                nvmlComputeInstanceProfileInfo_v3_t.sharedDecoderCount(v3),
                nvmlComputeInstanceProfileInfo_v3_t.sharedEncoderCount(v3),
                nvmlComputeInstanceProfileInfo_v3_t.sharedJpegCount(v3),
                nvmlComputeInstanceProfileInfo_v3_t.sharedOfaCount(v3),
                FfmCalls.cString(nvmlComputeInstanceProfileInfo_v3_t.name(v3))));
      }
      if (rc == NvmlReturn.NOT_SUPPORTED) {
        return Optional.empty();
      }
      if (rc != NvmlReturn.INVALID_ARGUMENT && rc != NvmlReturn.FUNCTION_NOT_FOUND) {
        throw new NvmlException(fnV, rc, "reading compute-instance profile index " + index);
      }
      String fn = "nvmlGpuInstanceGetComputeInstanceProfileInfo";
      var v1 = nvmlComputeInstanceProfileInfo_t.allocate(arena);
      rc =
          codes.observe(
              fn,
              raw.nvmlGpuInstanceGetComputeInstanceProfileInfo(
                  gi, index, ENGINE_PROFILE_SHARED, v1));
      if (rc == NvmlReturn.SUCCESS) {
        return Optional.of(
            new ComputeInstanceProfile(
                index,
                nvmlComputeInstanceProfileInfo_t.id(v1),
                nvmlComputeInstanceProfileInfo_t.sliceCount(v1),
                nvmlComputeInstanceProfileInfo_t.instanceCount(v1),
                nvmlComputeInstanceProfileInfo_t.multiprocessorCount(v1),
                nvmlComputeInstanceProfileInfo_t.sharedCopyEngineCount(v1),
                nvmlComputeInstanceProfileInfo_t.sharedDecoderCount(v1),
                nvmlComputeInstanceProfileInfo_t.sharedEncoderCount(v1),
                nvmlComputeInstanceProfileInfo_t.sharedJpegCount(v1),
                nvmlComputeInstanceProfileInfo_t.sharedOfaCount(v1),
                ""));
      }
      if (rc == NvmlReturn.NOT_SUPPORTED || rc == NvmlReturn.INVALID_ARGUMENT) {
        return Optional.empty();
      }
      throw new NvmlException(fn, rc, "reading compute-instance profile index " + index);
    }
  }

  private static GpuInstanceProfile fromV3(int index, MemorySegment s) {
    return new GpuInstanceProfile(
        index,
        nvmlGpuInstanceProfileInfo_v3_t.id(s),
        nvmlGpuInstanceProfileInfo_v3_t.sliceCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.instanceCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.multiprocessorCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.copyEngineCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.decoderCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.encoderCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.jpegCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.ofaCount(s),
        nvmlGpuInstanceProfileInfo_v3_t.memorySizeMB(s),
        FfmCalls.cString(nvmlGpuInstanceProfileInfo_v3_t.name(s)));
  }

  private static GpuInstanceProfile fromV2(int index, MemorySegment s) {
    return new GpuInstanceProfile(
        index,
        nvmlGpuInstanceProfileInfo_v2_t.id(s),
        nvmlGpuInstanceProfileInfo_v2_t.sliceCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.instanceCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.multiprocessorCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.copyEngineCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.decoderCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.encoderCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.jpegCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.ofaCount(s),
        nvmlGpuInstanceProfileInfo_v2_t.memorySizeMB(s),
        FfmCalls.cString(nvmlGpuInstanceProfileInfo_v2_t.name(s)));
  }

  private static GpuInstanceProfile fromV1(int index, MemorySegment s) {
    return new GpuInstanceProfile(
        index,
        nvmlGpuInstanceProfileInfo_t.id(s),
        nvmlGpuInstanceProfileInfo_t.sliceCount(s),
        nvmlGpuInstanceProfileInfo_t.instanceCount(s),
        nvmlGpuInstanceProfileInfo_t.multiprocessorCount(s),
        nvmlGpuInstanceProfileInfo_t.copyEngineCount(s),
        nvmlGpuInstanceProfileInfo_t.decoderCount(s),
        nvmlGpuInstanceProfileInfo_t.encoderCount(s),
        nvmlGpuInstanceProfileInfo_t.jpegCount(s),
        nvmlGpuInstanceProfileInfo_t.ofaCount(s),
        nvmlGpuInstanceProfileInfo_t.memorySizeMB(s),
        "");
  }
}
