package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

// The nvml.h (NVML 13.3.29) functions of the reference ABI (nvml-abi.json), in jextract's shape;
// the typed API calls a subset. Unlike jextract's statics, the handles belong to one loaded
// library, because one process may load several simulated libraries. A symbol the library lacks
// leaves its handle null and its wrapper answers NVML_ERROR_FUNCTION_NOT_FOUND, as NVML does for
// an entry point an older driver lacks.
final class nvml_h extends nvml_h_constants {

  static final FunctionDescriptor nvmlInit_v2$DESC = FunctionDescriptor.of(JAVA_INT);

  static final FunctionDescriptor nvmlInitWithFlags$DESC =
      FunctionDescriptor.of(JAVA_INT, JAVA_INT);

  static final FunctionDescriptor nvmlShutdown$DESC = FunctionDescriptor.of(JAVA_INT);

  static final FunctionDescriptor nvmlErrorString$DESC = FunctionDescriptor.of(ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlSystemGetDriverVersion$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlSystemGetNVMLVersion$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlSystemGetCudaDriverVersion$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlSystemGetCudaDriverVersion_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlSystemGetProcessName$DESC =
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlDeviceGetCount_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetHandleByIndex_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetHandleByUUID$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetHandleByPciBusId_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetIndex$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetUUID$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlDeviceGetName$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlDeviceGetPciInfo_v3$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetMinorNumber$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetArchitecture$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  // Not in nvml-abi.json: nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t, nvmlBrandType_t *), an
  // entry point of NVML since its first releases; nvmlBrandType_t is a 4-byte enum like the others.
  static final FunctionDescriptor nvmlDeviceGetBrand$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetCudaComputeCapability$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetPersistenceMode$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetMemoryInfo$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetMemoryInfo_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetUtilizationRates$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetComputeRunningProcesses_v3$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetMPSComputeRunningProcesses_v3$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetProcessUtilization$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG);

  static final FunctionDescriptor nvmlDeviceGetProcessesUtilizationInfo$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetPowerUsage$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetTemperatureV$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetTemperature$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetFieldValues$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetComputeMode$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceSetComputeMode$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlDeviceGetMigMode$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceSetMigMode$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstanceProfileInfo$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstanceProfileInfoV$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstanceProfileInfoByIdV$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstancePossiblePlacements_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstanceRemainingCapacity$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceCreateGpuInstance$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceCreateGpuInstanceWithPlacement$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceDestroy$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstances$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstanceById$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceGetInfo$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceGetComputeInstanceProfileInfo$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceGetComputeInstanceProfileInfoV$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceGetComputeInstanceRemainingCapacity$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceGetComputeInstancePossiblePlacements$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceCreateComputeInstance$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceCreateComputeInstanceWithPlacement$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlComputeInstanceDestroy$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceGetComputeInstances$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlGpuInstanceGetComputeInstanceById$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlComputeInstanceGetInfo_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceIsMigDeviceHandle$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetGpuInstanceId$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetComputeInstanceId$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetMaxMigDeviceCount$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetMigDeviceHandleByIndex$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetDeviceHandleFromMigDeviceHandle$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetAttributes_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlEventSetCreate$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlDeviceRegisterEvents$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS);

  static final FunctionDescriptor nvmlDeviceGetSupportedEventTypes$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlEventSetWait_v2$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);

  static final FunctionDescriptor nvmlEventSetFree$DESC = FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpmQueryDeviceSupport$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlGpmSampleAlloc$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpmSampleFree$DESC = FunctionDescriptor.of(JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpmSampleGet$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);

  static final FunctionDescriptor nvmlGpmMigSampleGet$DESC =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);

  static final FunctionDescriptor nvmlGpmMetricsGet$DESC = FunctionDescriptor.of(JAVA_INT, ADDRESS);

  final MethodHandle nvmlInit_v2$mh;

  final MethodHandle nvmlInitWithFlags$mh;

  final MethodHandle nvmlShutdown$mh;

  final MethodHandle nvmlErrorString$mh;

  final MethodHandle nvmlSystemGetDriverVersion$mh;

  final MethodHandle nvmlSystemGetNVMLVersion$mh;

  final MethodHandle nvmlSystemGetCudaDriverVersion$mh;

  final MethodHandle nvmlSystemGetCudaDriverVersion_v2$mh;

  final MethodHandle nvmlSystemGetProcessName$mh;

  final MethodHandle nvmlDeviceGetCount_v2$mh;

  final MethodHandle nvmlDeviceGetHandleByIndex_v2$mh;

  final MethodHandle nvmlDeviceGetHandleByUUID$mh;

  final MethodHandle nvmlDeviceGetHandleByPciBusId_v2$mh;

  final MethodHandle nvmlDeviceGetIndex$mh;

  final MethodHandle nvmlDeviceGetUUID$mh;

  final MethodHandle nvmlDeviceGetName$mh;

  final MethodHandle nvmlDeviceGetPciInfo_v3$mh;

  final MethodHandle nvmlDeviceGetMinorNumber$mh;

  final MethodHandle nvmlDeviceGetArchitecture$mh;

  final MethodHandle nvmlDeviceGetBrand$mh;

  final MethodHandle nvmlDeviceGetCudaComputeCapability$mh;

  final MethodHandle nvmlDeviceGetPersistenceMode$mh;

  final MethodHandle nvmlDeviceGetMemoryInfo$mh;

  final MethodHandle nvmlDeviceGetMemoryInfo_v2$mh;

  final MethodHandle nvmlDeviceGetUtilizationRates$mh;

  final MethodHandle nvmlDeviceGetComputeRunningProcesses_v3$mh;

  final MethodHandle nvmlDeviceGetMPSComputeRunningProcesses_v3$mh;

  final MethodHandle nvmlDeviceGetProcessUtilization$mh;

  final MethodHandle nvmlDeviceGetProcessesUtilizationInfo$mh;

  final MethodHandle nvmlDeviceGetPowerUsage$mh;

  final MethodHandle nvmlDeviceGetTemperatureV$mh;

  final MethodHandle nvmlDeviceGetTemperature$mh;

  final MethodHandle nvmlDeviceGetFieldValues$mh;

  final MethodHandle nvmlDeviceGetComputeMode$mh;

  final MethodHandle nvmlDeviceSetComputeMode$mh;

  final MethodHandle nvmlDeviceGetMigMode$mh;

  final MethodHandle nvmlDeviceSetMigMode$mh;

  final MethodHandle nvmlDeviceGetGpuInstanceProfileInfo$mh;

  final MethodHandle nvmlDeviceGetGpuInstanceProfileInfoV$mh;

  final MethodHandle nvmlDeviceGetGpuInstanceProfileInfoByIdV$mh;

  final MethodHandle nvmlDeviceGetGpuInstancePossiblePlacements_v2$mh;

  final MethodHandle nvmlDeviceGetGpuInstanceRemainingCapacity$mh;

  final MethodHandle nvmlDeviceCreateGpuInstance$mh;

  final MethodHandle nvmlDeviceCreateGpuInstanceWithPlacement$mh;

  final MethodHandle nvmlGpuInstanceDestroy$mh;

  final MethodHandle nvmlDeviceGetGpuInstances$mh;

  final MethodHandle nvmlDeviceGetGpuInstanceById$mh;

  final MethodHandle nvmlGpuInstanceGetInfo$mh;

  final MethodHandle nvmlGpuInstanceGetComputeInstanceProfileInfo$mh;

  final MethodHandle nvmlGpuInstanceGetComputeInstanceProfileInfoV$mh;

  final MethodHandle nvmlGpuInstanceGetComputeInstanceRemainingCapacity$mh;

  final MethodHandle nvmlGpuInstanceGetComputeInstancePossiblePlacements$mh;

  final MethodHandle nvmlGpuInstanceCreateComputeInstance$mh;

  final MethodHandle nvmlGpuInstanceCreateComputeInstanceWithPlacement$mh;

  final MethodHandle nvmlComputeInstanceDestroy$mh;

  final MethodHandle nvmlGpuInstanceGetComputeInstances$mh;

  final MethodHandle nvmlGpuInstanceGetComputeInstanceById$mh;

  final MethodHandle nvmlComputeInstanceGetInfo_v2$mh;

  final MethodHandle nvmlDeviceIsMigDeviceHandle$mh;

  final MethodHandle nvmlDeviceGetGpuInstanceId$mh;

  final MethodHandle nvmlDeviceGetComputeInstanceId$mh;

  final MethodHandle nvmlDeviceGetMaxMigDeviceCount$mh;

  final MethodHandle nvmlDeviceGetMigDeviceHandleByIndex$mh;

  final MethodHandle nvmlDeviceGetDeviceHandleFromMigDeviceHandle$mh;

  final MethodHandle nvmlDeviceGetAttributes_v2$mh;

  final MethodHandle nvmlEventSetCreate$mh;

  final MethodHandle nvmlDeviceRegisterEvents$mh;

  final MethodHandle nvmlDeviceGetSupportedEventTypes$mh;

  final MethodHandle nvmlEventSetWait_v2$mh;

  final MethodHandle nvmlEventSetFree$mh;

  final MethodHandle nvmlGpmQueryDeviceSupport$mh;

  final MethodHandle nvmlGpmSampleAlloc$mh;

  final MethodHandle nvmlGpmSampleFree$mh;

  final MethodHandle nvmlGpmSampleGet$mh;

  final MethodHandle nvmlGpmMigSampleGet$mh;

  final MethodHandle nvmlGpmMetricsGet$mh;

  // Every declared symbol, in declaration order, mapped to whether the library exports it.
  private final Map<String, Boolean> symbols;

  nvml_h(SymbolLookup lookup) {
    Objects.requireNonNull(lookup, "lookup");
    var found = new LinkedHashMap<String, Boolean>();
    nvmlInit_v2$mh = bind(lookup, found, "nvmlInit_v2", nvmlInit_v2$DESC);
    nvmlInitWithFlags$mh = bind(lookup, found, "nvmlInitWithFlags", nvmlInitWithFlags$DESC);
    nvmlShutdown$mh = bind(lookup, found, "nvmlShutdown", nvmlShutdown$DESC);
    nvmlErrorString$mh = bind(lookup, found, "nvmlErrorString", nvmlErrorString$DESC);
    nvmlSystemGetDriverVersion$mh =
        bind(lookup, found, "nvmlSystemGetDriverVersion", nvmlSystemGetDriverVersion$DESC);
    nvmlSystemGetNVMLVersion$mh =
        bind(lookup, found, "nvmlSystemGetNVMLVersion", nvmlSystemGetNVMLVersion$DESC);
    nvmlSystemGetCudaDriverVersion$mh =
        bind(lookup, found, "nvmlSystemGetCudaDriverVersion", nvmlSystemGetCudaDriverVersion$DESC);
    nvmlSystemGetCudaDriverVersion_v2$mh =
        bind(
            lookup,
            found,
            "nvmlSystemGetCudaDriverVersion_v2",
            nvmlSystemGetCudaDriverVersion_v2$DESC);
    nvmlSystemGetProcessName$mh =
        bind(lookup, found, "nvmlSystemGetProcessName", nvmlSystemGetProcessName$DESC);
    nvmlDeviceGetCount_v2$mh =
        bind(lookup, found, "nvmlDeviceGetCount_v2", nvmlDeviceGetCount_v2$DESC);
    nvmlDeviceGetHandleByIndex_v2$mh =
        bind(lookup, found, "nvmlDeviceGetHandleByIndex_v2", nvmlDeviceGetHandleByIndex_v2$DESC);
    nvmlDeviceGetHandleByUUID$mh =
        bind(lookup, found, "nvmlDeviceGetHandleByUUID", nvmlDeviceGetHandleByUUID$DESC);
    nvmlDeviceGetHandleByPciBusId_v2$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetHandleByPciBusId_v2",
            nvmlDeviceGetHandleByPciBusId_v2$DESC);
    nvmlDeviceGetIndex$mh = bind(lookup, found, "nvmlDeviceGetIndex", nvmlDeviceGetIndex$DESC);
    nvmlDeviceGetUUID$mh = bind(lookup, found, "nvmlDeviceGetUUID", nvmlDeviceGetUUID$DESC);
    nvmlDeviceGetName$mh = bind(lookup, found, "nvmlDeviceGetName", nvmlDeviceGetName$DESC);
    nvmlDeviceGetPciInfo_v3$mh =
        bind(lookup, found, "nvmlDeviceGetPciInfo_v3", nvmlDeviceGetPciInfo_v3$DESC);
    nvmlDeviceGetMinorNumber$mh =
        bind(lookup, found, "nvmlDeviceGetMinorNumber", nvmlDeviceGetMinorNumber$DESC);
    nvmlDeviceGetArchitecture$mh =
        bind(lookup, found, "nvmlDeviceGetArchitecture", nvmlDeviceGetArchitecture$DESC);
    nvmlDeviceGetBrand$mh = bind(lookup, found, "nvmlDeviceGetBrand", nvmlDeviceGetBrand$DESC);
    nvmlDeviceGetCudaComputeCapability$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetCudaComputeCapability",
            nvmlDeviceGetCudaComputeCapability$DESC);
    nvmlDeviceGetPersistenceMode$mh =
        bind(lookup, found, "nvmlDeviceGetPersistenceMode", nvmlDeviceGetPersistenceMode$DESC);
    nvmlDeviceGetMemoryInfo$mh =
        bind(lookup, found, "nvmlDeviceGetMemoryInfo", nvmlDeviceGetMemoryInfo$DESC);
    nvmlDeviceGetMemoryInfo_v2$mh =
        bind(lookup, found, "nvmlDeviceGetMemoryInfo_v2", nvmlDeviceGetMemoryInfo_v2$DESC);
    nvmlDeviceGetUtilizationRates$mh =
        bind(lookup, found, "nvmlDeviceGetUtilizationRates", nvmlDeviceGetUtilizationRates$DESC);
    nvmlDeviceGetComputeRunningProcesses_v3$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetComputeRunningProcesses_v3",
            nvmlDeviceGetComputeRunningProcesses_v3$DESC);
    nvmlDeviceGetMPSComputeRunningProcesses_v3$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetMPSComputeRunningProcesses_v3",
            nvmlDeviceGetMPSComputeRunningProcesses_v3$DESC);
    nvmlDeviceGetProcessUtilization$mh =
        bind(
            lookup, found, "nvmlDeviceGetProcessUtilization", nvmlDeviceGetProcessUtilization$DESC);
    nvmlDeviceGetProcessesUtilizationInfo$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetProcessesUtilizationInfo",
            nvmlDeviceGetProcessesUtilizationInfo$DESC);
    nvmlDeviceGetPowerUsage$mh =
        bind(lookup, found, "nvmlDeviceGetPowerUsage", nvmlDeviceGetPowerUsage$DESC);
    nvmlDeviceGetTemperatureV$mh =
        bind(lookup, found, "nvmlDeviceGetTemperatureV", nvmlDeviceGetTemperatureV$DESC);
    nvmlDeviceGetTemperature$mh =
        bind(lookup, found, "nvmlDeviceGetTemperature", nvmlDeviceGetTemperature$DESC);
    nvmlDeviceGetFieldValues$mh =
        bind(lookup, found, "nvmlDeviceGetFieldValues", nvmlDeviceGetFieldValues$DESC);
    nvmlDeviceGetComputeMode$mh =
        bind(lookup, found, "nvmlDeviceGetComputeMode", nvmlDeviceGetComputeMode$DESC);
    nvmlDeviceSetComputeMode$mh =
        bind(lookup, found, "nvmlDeviceSetComputeMode", nvmlDeviceSetComputeMode$DESC);
    nvmlDeviceGetMigMode$mh =
        bind(lookup, found, "nvmlDeviceGetMigMode", nvmlDeviceGetMigMode$DESC);
    nvmlDeviceSetMigMode$mh =
        bind(lookup, found, "nvmlDeviceSetMigMode", nvmlDeviceSetMigMode$DESC);
    nvmlDeviceGetGpuInstanceProfileInfo$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetGpuInstanceProfileInfo",
            nvmlDeviceGetGpuInstanceProfileInfo$DESC);
    nvmlDeviceGetGpuInstanceProfileInfoV$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetGpuInstanceProfileInfoV",
            nvmlDeviceGetGpuInstanceProfileInfoV$DESC);
    nvmlDeviceGetGpuInstanceProfileInfoByIdV$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetGpuInstanceProfileInfoByIdV",
            nvmlDeviceGetGpuInstanceProfileInfoByIdV$DESC);
    nvmlDeviceGetGpuInstancePossiblePlacements_v2$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetGpuInstancePossiblePlacements_v2",
            nvmlDeviceGetGpuInstancePossiblePlacements_v2$DESC);
    nvmlDeviceGetGpuInstanceRemainingCapacity$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetGpuInstanceRemainingCapacity",
            nvmlDeviceGetGpuInstanceRemainingCapacity$DESC);
    nvmlDeviceCreateGpuInstance$mh =
        bind(lookup, found, "nvmlDeviceCreateGpuInstance", nvmlDeviceCreateGpuInstance$DESC);
    nvmlDeviceCreateGpuInstanceWithPlacement$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceCreateGpuInstanceWithPlacement",
            nvmlDeviceCreateGpuInstanceWithPlacement$DESC);
    nvmlGpuInstanceDestroy$mh =
        bind(lookup, found, "nvmlGpuInstanceDestroy", nvmlGpuInstanceDestroy$DESC);
    nvmlDeviceGetGpuInstances$mh =
        bind(lookup, found, "nvmlDeviceGetGpuInstances", nvmlDeviceGetGpuInstances$DESC);
    nvmlDeviceGetGpuInstanceById$mh =
        bind(lookup, found, "nvmlDeviceGetGpuInstanceById", nvmlDeviceGetGpuInstanceById$DESC);
    nvmlGpuInstanceGetInfo$mh =
        bind(lookup, found, "nvmlGpuInstanceGetInfo", nvmlGpuInstanceGetInfo$DESC);
    nvmlGpuInstanceGetComputeInstanceProfileInfo$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceGetComputeInstanceProfileInfo",
            nvmlGpuInstanceGetComputeInstanceProfileInfo$DESC);
    nvmlGpuInstanceGetComputeInstanceProfileInfoV$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceGetComputeInstanceProfileInfoV",
            nvmlGpuInstanceGetComputeInstanceProfileInfoV$DESC);
    nvmlGpuInstanceGetComputeInstanceRemainingCapacity$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceGetComputeInstanceRemainingCapacity",
            nvmlGpuInstanceGetComputeInstanceRemainingCapacity$DESC);
    nvmlGpuInstanceGetComputeInstancePossiblePlacements$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceGetComputeInstancePossiblePlacements",
            nvmlGpuInstanceGetComputeInstancePossiblePlacements$DESC);
    nvmlGpuInstanceCreateComputeInstance$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceCreateComputeInstance",
            nvmlGpuInstanceCreateComputeInstance$DESC);
    nvmlGpuInstanceCreateComputeInstanceWithPlacement$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
            nvmlGpuInstanceCreateComputeInstanceWithPlacement$DESC);
    nvmlComputeInstanceDestroy$mh =
        bind(lookup, found, "nvmlComputeInstanceDestroy", nvmlComputeInstanceDestroy$DESC);
    nvmlGpuInstanceGetComputeInstances$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceGetComputeInstances",
            nvmlGpuInstanceGetComputeInstances$DESC);
    nvmlGpuInstanceGetComputeInstanceById$mh =
        bind(
            lookup,
            found,
            "nvmlGpuInstanceGetComputeInstanceById",
            nvmlGpuInstanceGetComputeInstanceById$DESC);
    nvmlComputeInstanceGetInfo_v2$mh =
        bind(lookup, found, "nvmlComputeInstanceGetInfo_v2", nvmlComputeInstanceGetInfo_v2$DESC);
    nvmlDeviceIsMigDeviceHandle$mh =
        bind(lookup, found, "nvmlDeviceIsMigDeviceHandle", nvmlDeviceIsMigDeviceHandle$DESC);
    nvmlDeviceGetGpuInstanceId$mh =
        bind(lookup, found, "nvmlDeviceGetGpuInstanceId", nvmlDeviceGetGpuInstanceId$DESC);
    nvmlDeviceGetComputeInstanceId$mh =
        bind(lookup, found, "nvmlDeviceGetComputeInstanceId", nvmlDeviceGetComputeInstanceId$DESC);
    nvmlDeviceGetMaxMigDeviceCount$mh =
        bind(lookup, found, "nvmlDeviceGetMaxMigDeviceCount", nvmlDeviceGetMaxMigDeviceCount$DESC);
    nvmlDeviceGetMigDeviceHandleByIndex$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetMigDeviceHandleByIndex",
            nvmlDeviceGetMigDeviceHandleByIndex$DESC);
    nvmlDeviceGetDeviceHandleFromMigDeviceHandle$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetDeviceHandleFromMigDeviceHandle",
            nvmlDeviceGetDeviceHandleFromMigDeviceHandle$DESC);
    nvmlDeviceGetAttributes_v2$mh =
        bind(lookup, found, "nvmlDeviceGetAttributes_v2", nvmlDeviceGetAttributes_v2$DESC);
    nvmlEventSetCreate$mh = bind(lookup, found, "nvmlEventSetCreate", nvmlEventSetCreate$DESC);
    nvmlDeviceRegisterEvents$mh =
        bind(lookup, found, "nvmlDeviceRegisterEvents", nvmlDeviceRegisterEvents$DESC);
    nvmlDeviceGetSupportedEventTypes$mh =
        bind(
            lookup,
            found,
            "nvmlDeviceGetSupportedEventTypes",
            nvmlDeviceGetSupportedEventTypes$DESC);
    nvmlEventSetWait_v2$mh = bind(lookup, found, "nvmlEventSetWait_v2", nvmlEventSetWait_v2$DESC);
    nvmlEventSetFree$mh = bind(lookup, found, "nvmlEventSetFree", nvmlEventSetFree$DESC);
    nvmlGpmQueryDeviceSupport$mh =
        bind(lookup, found, "nvmlGpmQueryDeviceSupport", nvmlGpmQueryDeviceSupport$DESC);
    nvmlGpmSampleAlloc$mh = bind(lookup, found, "nvmlGpmSampleAlloc", nvmlGpmSampleAlloc$DESC);
    nvmlGpmSampleFree$mh = bind(lookup, found, "nvmlGpmSampleFree", nvmlGpmSampleFree$DESC);
    nvmlGpmSampleGet$mh = bind(lookup, found, "nvmlGpmSampleGet", nvmlGpmSampleGet$DESC);
    nvmlGpmMigSampleGet$mh = bind(lookup, found, "nvmlGpmMigSampleGet", nvmlGpmMigSampleGet$DESC);
    nvmlGpmMetricsGet$mh = bind(lookup, found, "nvmlGpmMetricsGet", nvmlGpmMetricsGet$DESC);
    symbols = Collections.unmodifiableMap(found);
  }

  // Binding native functions is the purpose of this class; the loader checks native access.
  @SuppressWarnings("restricted")
  private static MethodHandle bind(
      SymbolLookup lookup,
      Map<String, Boolean> found,
      String symbol,
      FunctionDescriptor descriptor) {
    var address = lookup.find(symbol);
    found.put(symbol, address.isPresent());
    return address.map(a -> Linker.nativeLinker().downcallHandle(a, descriptor)).orElse(null);
  }

  // Throws for a name this class does not declare, so a misspelt symbol cannot read as "absent".
  boolean hasSymbol(String symbol) {
    var present = symbols.get(symbol);
    if (present == null) {
      throw new IllegalArgumentException("nvml_h declares no function " + symbol);
    }
    return present;
  }

  // The declared functions the loaded library does not export, in declaration order.
  List<String> missingSymbols() {
    var missing = new ArrayList<String>();
    symbols.forEach(
        (symbol, present) -> {
          if (!present) {
            missing.add(symbol);
          }
        });
    return List.copyOf(missing);
  }

  // nvmlReturn_t nvmlInit_v2()
  int nvmlInit_v2() {
    var mh$ = nvmlInit_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact();
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlInitWithFlags(unsigned int flags)
  int nvmlInitWithFlags(int flags) {
    var mh$ = nvmlInitWithFlags$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(flags);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlShutdown()
  int nvmlShutdown() {
    var mh$ = nvmlShutdown$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact();
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // const char * nvmlErrorString(nvmlReturn_t result)
  MemorySegment nvmlErrorString(int result) {
    var mh$ = nvmlErrorString$mh;
    if (mh$ == null) {
      return MemorySegment.NULL;
    }
    try {
      return (MemorySegment) mh$.invokeExact(result);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlSystemGetDriverVersion(char * version, unsigned int length)
  int nvmlSystemGetDriverVersion(MemorySegment version, int length) {
    var mh$ = nvmlSystemGetDriverVersion$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(version, length);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlSystemGetNVMLVersion(char * version, unsigned int length)
  int nvmlSystemGetNVMLVersion(MemorySegment version, int length) {
    var mh$ = nvmlSystemGetNVMLVersion$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(version, length);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlSystemGetCudaDriverVersion(int * cudaDriverVersion)
  int nvmlSystemGetCudaDriverVersion(MemorySegment cudaDriverVersion) {
    var mh$ = nvmlSystemGetCudaDriverVersion$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(cudaDriverVersion);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int * cudaDriverVersion)
  int nvmlSystemGetCudaDriverVersion_v2(MemorySegment cudaDriverVersion) {
    var mh$ = nvmlSystemGetCudaDriverVersion_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(cudaDriverVersion);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char * name, unsigned int length)
  int nvmlSystemGetProcessName(int pid, MemorySegment name, int length) {
    var mh$ = nvmlSystemGetProcessName$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(pid, name, length);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int * deviceCount)
  int nvmlDeviceGetCount_v2(MemorySegment deviceCount) {
    var mh$ = nvmlDeviceGetCount_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(deviceCount);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t * device)
  int nvmlDeviceGetHandleByIndex_v2(int index, MemorySegment device) {
    var mh$ = nvmlDeviceGetHandleByIndex_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(index, device);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetHandleByUUID(const char * uuid, nvmlDevice_t * device)
  int nvmlDeviceGetHandleByUUID(MemorySegment uuid, MemorySegment device) {
    var mh$ = nvmlDeviceGetHandleByUUID$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(uuid, device);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char * pciBusId, nvmlDevice_t * device)
  int nvmlDeviceGetHandleByPciBusId_v2(MemorySegment pciBusId, MemorySegment device) {
    var mh$ = nvmlDeviceGetHandleByPciBusId_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(pciBusId, device);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int * index)
  int nvmlDeviceGetIndex(MemorySegment device, MemorySegment index) {
    var mh$ = nvmlDeviceGetIndex$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, index);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char * uuid, unsigned int length)
  int nvmlDeviceGetUUID(MemorySegment device, MemorySegment uuid, int length) {
    var mh$ = nvmlDeviceGetUUID$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, uuid, length);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char * name, unsigned int length)
  int nvmlDeviceGetName(MemorySegment device, MemorySegment name, int length) {
    var mh$ = nvmlDeviceGetName$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, name, length);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t * pci)
  int nvmlDeviceGetPciInfo_v3(MemorySegment device, MemorySegment pci) {
    var mh$ = nvmlDeviceGetPciInfo_v3$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, pci);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int * minorNumber)
  int nvmlDeviceGetMinorNumber(MemorySegment device, MemorySegment minorNumber) {
    var mh$ = nvmlDeviceGetMinorNumber$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, minorNumber);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t device, nvmlDeviceArchitecture_t * arch)
  int nvmlDeviceGetArchitecture(MemorySegment device, MemorySegment arch) {
    var mh$ = nvmlDeviceGetArchitecture$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, arch);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t device, nvmlBrandType_t * type)
  int nvmlDeviceGetBrand(MemorySegment device, MemorySegment type) {
    var mh$ = nvmlDeviceGetBrand$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, type);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int * major, int * minor)
  int nvmlDeviceGetCudaComputeCapability(
      MemorySegment device, MemorySegment major, MemorySegment minor) {
    var mh$ = nvmlDeviceGetCudaComputeCapability$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, major, minor);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, nvmlEnableState_t * mode)
  int nvmlDeviceGetPersistenceMode(MemorySegment device, MemorySegment mode) {
    var mh$ = nvmlDeviceGetPersistenceMode$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, mode);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t * memory)
  int nvmlDeviceGetMemoryInfo(MemorySegment device, MemorySegment memory) {
    var mh$ = nvmlDeviceGetMemoryInfo$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, memory);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t * memory)
  int nvmlDeviceGetMemoryInfo_v2(MemorySegment device, MemorySegment memory) {
    var mh$ = nvmlDeviceGetMemoryInfo_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, memory);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *
  // utilization)
  int nvmlDeviceGetUtilizationRates(MemorySegment device, MemorySegment utilization) {
    var mh$ = nvmlDeviceGetUtilizationRates$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, utilization);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *
  // infoCount, nvmlProcessInfo_t * infos)
  int nvmlDeviceGetComputeRunningProcesses_v3(
      MemorySegment device, MemorySegment infoCount, MemorySegment infos) {
    var mh$ = nvmlDeviceGetComputeRunningProcesses_v3$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, infoCount, infos);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *
  // infoCount, nvmlProcessInfo_t * infos)
  int nvmlDeviceGetMPSComputeRunningProcesses_v3(
      MemorySegment device, MemorySegment infoCount, MemorySegment infos) {
    var mh$ = nvmlDeviceGetMPSComputeRunningProcesses_v3$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, infoCount, infos);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device,
  // nvmlProcessUtilizationSample_t * utilization, unsigned int * processSamplesCount, unsigned long
  // long lastSeenTimeStamp)
  int nvmlDeviceGetProcessUtilization(
      MemorySegment device,
      MemorySegment utilization,
      MemorySegment processSamplesCount,
      long lastSeenTimeStamp) {
    var mh$ = nvmlDeviceGetProcessUtilization$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, utilization, processSamplesCount, lastSeenTimeStamp);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetProcessesUtilizationInfo(nvmlDevice_t device,
  // nvmlProcessesUtilizationInfo_t * procesesUtilInfo)
  int nvmlDeviceGetProcessesUtilizationInfo(MemorySegment device, MemorySegment procesesUtilInfo) {
    var mh$ = nvmlDeviceGetProcessesUtilizationInfo$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, procesesUtilInfo);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int * power)
  int nvmlDeviceGetPowerUsage(MemorySegment device, MemorySegment power) {
    var mh$ = nvmlDeviceGetPowerUsage$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, power);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t device, nvmlTemperature_t * temperature)
  int nvmlDeviceGetTemperatureV(MemorySegment device, MemorySegment temperature) {
    var mh$ = nvmlDeviceGetTemperatureV$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, temperature);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType,
  // unsigned int * temp)
  int nvmlDeviceGetTemperature(MemorySegment device, int sensorType, MemorySegment temp) {
    var mh$ = nvmlDeviceGetTemperature$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, sensorType, temp);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *
  // values)
  int nvmlDeviceGetFieldValues(MemorySegment device, int valuesCount, MemorySegment values) {
    var mh$ = nvmlDeviceGetFieldValues$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, valuesCount, values);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device, nvmlComputeMode_t * mode)
  int nvmlDeviceGetComputeMode(MemorySegment device, MemorySegment mode) {
    var mh$ = nvmlDeviceGetComputeMode$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, mode);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceSetComputeMode(nvmlDevice_t device, nvmlComputeMode_t mode)
  int nvmlDeviceSetComputeMode(MemorySegment device, int mode) {
    var mh$ = nvmlDeviceSetComputeMode$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, mode);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int * currentMode, unsigned int
  // * pendingMode)
  int nvmlDeviceGetMigMode(
      MemorySegment device, MemorySegment currentMode, MemorySegment pendingMode) {
    var mh$ = nvmlDeviceGetMigMode$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, currentMode, pendingMode);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceSetMigMode(nvmlDevice_t device, unsigned int mode, nvmlReturn_t *
  // activationStatus)
  int nvmlDeviceSetMigMode(MemorySegment device, int mode, MemorySegment activationStatus) {
    var mh$ = nvmlDeviceSetMigMode$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, mode, activationStatus);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfo(nvmlDevice_t device, unsigned int profile,
  // nvmlGpuInstanceProfileInfo_t * info)
  int nvmlDeviceGetGpuInstanceProfileInfo(MemorySegment device, int profile, MemorySegment info) {
    var mh$ = nvmlDeviceGetGpuInstanceProfileInfo$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profile, info);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfoV(nvmlDevice_t device, unsigned int profile,
  // nvmlGpuInstanceProfileInfo_v2_t * info)
  int nvmlDeviceGetGpuInstanceProfileInfoV(MemorySegment device, int profile, MemorySegment info) {
    var mh$ = nvmlDeviceGetGpuInstanceProfileInfoV$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profile, info);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfoByIdV(nvmlDevice_t device, unsigned int
  // profileId, nvmlGpuInstanceProfileInfo_v2_t * info)
  int nvmlDeviceGetGpuInstanceProfileInfoByIdV(
      MemorySegment device, int profileId, MemorySegment info) {
    var mh$ = nvmlDeviceGetGpuInstanceProfileInfoByIdV$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profileId, info);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstancePossiblePlacements_v2(nvmlDevice_t device, unsigned int
  // profileId, nvmlGpuInstancePlacement_t * placements, unsigned int * count)
  int nvmlDeviceGetGpuInstancePossiblePlacements_v2(
      MemorySegment device, int profileId, MemorySegment placements, MemorySegment count) {
    var mh$ = nvmlDeviceGetGpuInstancePossiblePlacements_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profileId, placements, count);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstanceRemainingCapacity(nvmlDevice_t device, unsigned int
  // profileId, unsigned int * count)
  int nvmlDeviceGetGpuInstanceRemainingCapacity(
      MemorySegment device, int profileId, MemorySegment count) {
    var mh$ = nvmlDeviceGetGpuInstanceRemainingCapacity$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profileId, count);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceCreateGpuInstance(nvmlDevice_t device, unsigned int profileId,
  // nvmlGpuInstance_t * gpuInstance)
  int nvmlDeviceCreateGpuInstance(MemorySegment device, int profileId, MemorySegment gpuInstance) {
    var mh$ = nvmlDeviceCreateGpuInstance$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profileId, gpuInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceCreateGpuInstanceWithPlacement(nvmlDevice_t device, unsigned int
  // profileId, const nvmlGpuInstancePlacement_t * placement, nvmlGpuInstance_t * gpuInstance)
  int nvmlDeviceCreateGpuInstanceWithPlacement(
      MemorySegment device, int profileId, MemorySegment placement, MemorySegment gpuInstance) {
    var mh$ = nvmlDeviceCreateGpuInstanceWithPlacement$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profileId, placement, gpuInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceDestroy(nvmlGpuInstance_t gpuInstance)
  int nvmlGpuInstanceDestroy(MemorySegment gpuInstance) {
    var mh$ = nvmlGpuInstanceDestroy$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstances(nvmlDevice_t device, unsigned int profileId,
  // nvmlGpuInstance_t * gpuInstances, unsigned int * count)
  int nvmlDeviceGetGpuInstances(
      MemorySegment device, int profileId, MemorySegment gpuInstances, MemorySegment count) {
    var mh$ = nvmlDeviceGetGpuInstances$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, profileId, gpuInstances, count);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstanceById(nvmlDevice_t device, unsigned int id,
  // nvmlGpuInstance_t * gpuInstance)
  int nvmlDeviceGetGpuInstanceById(MemorySegment device, int id, MemorySegment gpuInstance) {
    var mh$ = nvmlDeviceGetGpuInstanceById$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, id, gpuInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceGetInfo(nvmlGpuInstance_t gpuInstance, nvmlGpuInstanceInfo_t *
  // info)
  int nvmlGpuInstanceGetInfo(MemorySegment gpuInstance, MemorySegment info) {
    var mh$ = nvmlGpuInstanceGetInfo$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, info);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceGetComputeInstanceProfileInfo(nvmlGpuInstance_t gpuInstance,
  // unsigned int profile, unsigned int engProfile, nvmlComputeInstanceProfileInfo_t * info)
  int nvmlGpuInstanceGetComputeInstanceProfileInfo(
      MemorySegment gpuInstance, int profile, int engProfile, MemorySegment info) {
    var mh$ = nvmlGpuInstanceGetComputeInstanceProfileInfo$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, profile, engProfile, info);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceGetComputeInstanceProfileInfoV(nvmlGpuInstance_t gpuInstance,
  // unsigned int profile, unsigned int engProfile, nvmlComputeInstanceProfileInfo_v2_t * info)
  int nvmlGpuInstanceGetComputeInstanceProfileInfoV(
      MemorySegment gpuInstance, int profile, int engProfile, MemorySegment info) {
    var mh$ = nvmlGpuInstanceGetComputeInstanceProfileInfoV$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, profile, engProfile, info);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceGetComputeInstanceRemainingCapacity(nvmlGpuInstance_t gpuInstance,
  // unsigned int profileId, unsigned int * count)
  int nvmlGpuInstanceGetComputeInstanceRemainingCapacity(
      MemorySegment gpuInstance, int profileId, MemorySegment count) {
    var mh$ = nvmlGpuInstanceGetComputeInstanceRemainingCapacity$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, profileId, count);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceGetComputeInstancePossiblePlacements(nvmlGpuInstance_t gpuInstance,
  // unsigned int profileId, nvmlComputeInstancePlacement_t * placements, unsigned int * count)
  int nvmlGpuInstanceGetComputeInstancePossiblePlacements(
      MemorySegment gpuInstance, int profileId, MemorySegment placements, MemorySegment count) {
    var mh$ = nvmlGpuInstanceGetComputeInstancePossiblePlacements$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, profileId, placements, count);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceCreateComputeInstance(nvmlGpuInstance_t gpuInstance, unsigned int
  // profileId, nvmlComputeInstance_t * computeInstance)
  int nvmlGpuInstanceCreateComputeInstance(
      MemorySegment gpuInstance, int profileId, MemorySegment computeInstance) {
    var mh$ = nvmlGpuInstanceCreateComputeInstance$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, profileId, computeInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceCreateComputeInstanceWithPlacement(nvmlGpuInstance_t gpuInstance,
  // unsigned int profileId, const nvmlComputeInstancePlacement_t * placement, nvmlComputeInstance_t
  // * computeInstance)
  int nvmlGpuInstanceCreateComputeInstanceWithPlacement(
      MemorySegment gpuInstance,
      int profileId,
      MemorySegment placement,
      MemorySegment computeInstance) {
    var mh$ = nvmlGpuInstanceCreateComputeInstanceWithPlacement$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, profileId, placement, computeInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlComputeInstanceDestroy(nvmlComputeInstance_t computeInstance)
  int nvmlComputeInstanceDestroy(MemorySegment computeInstance) {
    var mh$ = nvmlComputeInstanceDestroy$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(computeInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceGetComputeInstances(nvmlGpuInstance_t gpuInstance, unsigned int
  // profileId, nvmlComputeInstance_t * computeInstances, unsigned int * count)
  int nvmlGpuInstanceGetComputeInstances(
      MemorySegment gpuInstance,
      int profileId,
      MemorySegment computeInstances,
      MemorySegment count) {
    var mh$ = nvmlGpuInstanceGetComputeInstances$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, profileId, computeInstances, count);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpuInstanceGetComputeInstanceById(nvmlGpuInstance_t gpuInstance, unsigned int
  // id, nvmlComputeInstance_t * computeInstance)
  int nvmlGpuInstanceGetComputeInstanceById(
      MemorySegment gpuInstance, int id, MemorySegment computeInstance) {
    var mh$ = nvmlGpuInstanceGetComputeInstanceById$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpuInstance, id, computeInstance);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlComputeInstanceGetInfo_v2(nvmlComputeInstance_t computeInstance,
  // nvmlComputeInstanceInfo_t * info)
  int nvmlComputeInstanceGetInfo_v2(MemorySegment computeInstance, MemorySegment info) {
    var mh$ = nvmlComputeInstanceGetInfo_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(computeInstance, info);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device, unsigned int * isMigDevice)
  int nvmlDeviceIsMigDeviceHandle(MemorySegment device, MemorySegment isMigDevice) {
    var mh$ = nvmlDeviceIsMigDeviceHandle$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, isMigDevice);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int * id)
  int nvmlDeviceGetGpuInstanceId(MemorySegment device, MemorySegment id) {
    var mh$ = nvmlDeviceGetGpuInstanceId$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, id);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int * id)
  int nvmlDeviceGetComputeInstanceId(MemorySegment device, MemorySegment id) {
    var mh$ = nvmlDeviceGetComputeInstanceId$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, id);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int * count)
  int nvmlDeviceGetMaxMigDeviceCount(MemorySegment device, MemorySegment count) {
    var mh$ = nvmlDeviceGetMaxMigDeviceCount$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, count);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
  // nvmlDevice_t * migDevice)
  int nvmlDeviceGetMigDeviceHandleByIndex(
      MemorySegment device, int index, MemorySegment migDevice) {
    var mh$ = nvmlDeviceGetMigDeviceHandleByIndex$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, index, migDevice);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t migDevice, nvmlDevice_t
  // * device)
  int nvmlDeviceGetDeviceHandleFromMigDeviceHandle(MemorySegment migDevice, MemorySegment device) {
    var mh$ = nvmlDeviceGetDeviceHandleFromMigDeviceHandle$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(migDevice, device);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetAttributes_v2(nvmlDevice_t device, nvmlDeviceAttributes_t *
  // attributes)
  int nvmlDeviceGetAttributes_v2(MemorySegment device, MemorySegment attributes) {
    var mh$ = nvmlDeviceGetAttributes_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, attributes);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t * set)
  int nvmlEventSetCreate(MemorySegment set) {
    var mh$ = nvmlEventSetCreate$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(set);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes,
  // nvmlEventSet_t set)
  int nvmlDeviceRegisterEvents(MemorySegment device, long eventTypes, MemorySegment set) {
    var mh$ = nvmlDeviceRegisterEvents$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, eventTypes, set);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device, unsigned long long *
  // eventTypes)
  int nvmlDeviceGetSupportedEventTypes(MemorySegment device, MemorySegment eventTypes) {
    var mh$ = nvmlDeviceGetSupportedEventTypes$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, eventTypes);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t * data, unsigned int
  // timeoutms)
  int nvmlEventSetWait_v2(MemorySegment set, MemorySegment data, int timeoutms) {
    var mh$ = nvmlEventSetWait_v2$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(set, data, timeoutms);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set)
  int nvmlEventSetFree(MemorySegment set) {
    var mh$ = nvmlEventSetFree$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(set);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t device, nvmlGpmSupport_t * gpmSupport)
  int nvmlGpmQueryDeviceSupport(MemorySegment device, MemorySegment gpmSupport) {
    var mh$ = nvmlGpmQueryDeviceSupport$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, gpmSupport);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpmSampleAlloc(nvmlGpmSample_t * gpmSample)
  int nvmlGpmSampleAlloc(MemorySegment gpmSample) {
    var mh$ = nvmlGpmSampleAlloc$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpmSample);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpmSampleFree(nvmlGpmSample_t gpmSample)
  int nvmlGpmSampleFree(MemorySegment gpmSample) {
    var mh$ = nvmlGpmSampleFree$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(gpmSample);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t device, nvmlGpmSample_t gpmSample)
  int nvmlGpmSampleGet(MemorySegment device, MemorySegment gpmSample) {
    var mh$ = nvmlGpmSampleGet$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, gpmSample);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpmMigSampleGet(nvmlDevice_t device, unsigned int gpuInstanceId,
  // nvmlGpmSample_t gpmSample)
  int nvmlGpmMigSampleGet(MemorySegment device, int gpuInstanceId, MemorySegment gpmSample) {
    var mh$ = nvmlGpmMigSampleGet$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(device, gpuInstanceId, gpmSample);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }

  // nvmlReturn_t nvmlGpmMetricsGet(nvmlGpmMetricsGet_t * metricsGet)
  int nvmlGpmMetricsGet(MemorySegment metricsGet) {
    var mh$ = nvmlGpmMetricsGet$mh;
    if (mh$ == null) {
      return NVML_ERROR_FUNCTION_NOT_FOUND();
    }
    try {
      return (int) mh$.invokeExact(metricsGet);
    } catch (Throwable ex$) {
      throw new AssertionError("should not reach here", ex$);
    }
  }
}
