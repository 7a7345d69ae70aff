package io.migd.nvml.ffm;

import static java.lang.foreign.MemorySegment.NULL;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

// Every function of nvml-abi.json (NVML 13.3.29, kept in the test resources), and
// nvmlDeviceGetBrand, which that file lacks: its descriptor
// against the C signature copied here, and its wrapper both without the symbol and bound to a
// native stub.
class FunctionDescriptorTest {

  private static final int NVML_ERROR_FUNCTION_NOT_FOUND = 13;
  private static final long STUB_ANSWER = 42;

  // call invokes the wrapper with zero or NULL arguments; an address result counts as its address.
  record CFunction(
      String symbol,
      FunctionDescriptor descriptor,
      MemoryLayout returns,
      List<MemoryLayout> parameters,
      ToLongFunction<nvml_h> call) {
    @Override
    public String toString() {
      return symbol;
    }
  }

  private static CFunction fn(
      String symbol,
      FunctionDescriptor descriptor,
      MemoryLayout returns,
      List<MemoryLayout> parameters,
      ToLongFunction<nvml_h> call) {
    return new CFunction(symbol, descriptor, returns, parameters, call);
  }

  static List<CFunction> functions() {
    return List.of(
        fn("nvmlInit_v2", nvml_h.nvmlInit_v2$DESC, JAVA_INT, List.of(), n -> n.nvmlInit_v2()),
        fn(
            "nvmlInitWithFlags",
            nvml_h.nvmlInitWithFlags$DESC,
            JAVA_INT,
            List.of(JAVA_INT),
            n -> n.nvmlInitWithFlags(0)),
        fn("nvmlShutdown", nvml_h.nvmlShutdown$DESC, JAVA_INT, List.of(), n -> n.nvmlShutdown()),
        fn(
            "nvmlErrorString",
            nvml_h.nvmlErrorString$DESC,
            ADDRESS,
            List.of(JAVA_INT),
            n -> n.nvmlErrorString(0).address()),
        fn(
            "nvmlSystemGetDriverVersion",
            nvml_h.nvmlSystemGetDriverVersion$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT),
            n -> n.nvmlSystemGetDriverVersion(NULL, 0)),
        fn(
            "nvmlSystemGetNVMLVersion",
            nvml_h.nvmlSystemGetNVMLVersion$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT),
            n -> n.nvmlSystemGetNVMLVersion(NULL, 0)),
        fn(
            "nvmlSystemGetCudaDriverVersion",
            nvml_h.nvmlSystemGetCudaDriverVersion$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlSystemGetCudaDriverVersion(NULL)),
        fn(
            "nvmlSystemGetCudaDriverVersion_v2",
            nvml_h.nvmlSystemGetCudaDriverVersion_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlSystemGetCudaDriverVersion_v2(NULL)),
        fn(
            "nvmlSystemGetProcessName",
            nvml_h.nvmlSystemGetProcessName$DESC,
            JAVA_INT,
            List.of(JAVA_INT, ADDRESS, JAVA_INT),
            n -> n.nvmlSystemGetProcessName(0, NULL, 0)),
        fn(
            "nvmlDeviceGetCount_v2",
            nvml_h.nvmlDeviceGetCount_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlDeviceGetCount_v2(NULL)),
        fn(
            "nvmlDeviceGetHandleByIndex_v2",
            nvml_h.nvmlDeviceGetHandleByIndex_v2$DESC,
            JAVA_INT,
            List.of(JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetHandleByIndex_v2(0, NULL)),
        fn(
            "nvmlDeviceGetHandleByUUID",
            nvml_h.nvmlDeviceGetHandleByUUID$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetHandleByUUID(NULL, NULL)),
        fn(
            "nvmlDeviceGetHandleByPciBusId_v2",
            nvml_h.nvmlDeviceGetHandleByPciBusId_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetHandleByPciBusId_v2(NULL, NULL)),
        fn(
            "nvmlDeviceGetIndex",
            nvml_h.nvmlDeviceGetIndex$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetIndex(NULL, NULL)),
        fn(
            "nvmlDeviceGetUUID",
            nvml_h.nvmlDeviceGetUUID$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, JAVA_INT),
            n -> n.nvmlDeviceGetUUID(NULL, NULL, 0)),
        fn(
            "nvmlDeviceGetName",
            nvml_h.nvmlDeviceGetName$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, JAVA_INT),
            n -> n.nvmlDeviceGetName(NULL, NULL, 0)),
        fn(
            "nvmlDeviceGetPciInfo_v3",
            nvml_h.nvmlDeviceGetPciInfo_v3$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetPciInfo_v3(NULL, NULL)),
        fn(
            "nvmlDeviceGetMinorNumber",
            nvml_h.nvmlDeviceGetMinorNumber$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetMinorNumber(NULL, NULL)),
        fn(
            "nvmlDeviceGetArchitecture",
            nvml_h.nvmlDeviceGetArchitecture$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetArchitecture(NULL, NULL)),
        fn(
            "nvmlDeviceGetBrand",
            nvml_h.nvmlDeviceGetBrand$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetBrand(NULL, NULL)),
        fn(
            "nvmlDeviceGetCudaComputeCapability",
            nvml_h.nvmlDeviceGetCudaComputeCapability$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetCudaComputeCapability(NULL, NULL, NULL)),
        fn(
            "nvmlDeviceGetPersistenceMode",
            nvml_h.nvmlDeviceGetPersistenceMode$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetPersistenceMode(NULL, NULL)),
        fn(
            "nvmlDeviceGetMemoryInfo",
            nvml_h.nvmlDeviceGetMemoryInfo$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetMemoryInfo(NULL, NULL)),
        fn(
            "nvmlDeviceGetMemoryInfo_v2",
            nvml_h.nvmlDeviceGetMemoryInfo_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetMemoryInfo_v2(NULL, NULL)),
        fn(
            "nvmlDeviceGetUtilizationRates",
            nvml_h.nvmlDeviceGetUtilizationRates$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetUtilizationRates(NULL, NULL)),
        fn(
            "nvmlDeviceGetComputeRunningProcesses_v3",
            nvml_h.nvmlDeviceGetComputeRunningProcesses_v3$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetComputeRunningProcesses_v3(NULL, NULL, NULL)),
        fn(
            "nvmlDeviceGetMPSComputeRunningProcesses_v3",
            nvml_h.nvmlDeviceGetMPSComputeRunningProcesses_v3$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetMPSComputeRunningProcesses_v3(NULL, NULL, NULL)),
        fn(
            "nvmlDeviceGetProcessUtilization",
            nvml_h.nvmlDeviceGetProcessUtilization$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG),
            n -> n.nvmlDeviceGetProcessUtilization(NULL, NULL, NULL, 0L)),
        fn(
            "nvmlDeviceGetProcessesUtilizationInfo",
            nvml_h.nvmlDeviceGetProcessesUtilizationInfo$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetProcessesUtilizationInfo(NULL, NULL)),
        fn(
            "nvmlDeviceGetPowerUsage",
            nvml_h.nvmlDeviceGetPowerUsage$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetPowerUsage(NULL, NULL)),
        fn(
            "nvmlDeviceGetTemperatureV",
            nvml_h.nvmlDeviceGetTemperatureV$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetTemperatureV(NULL, NULL)),
        fn(
            "nvmlDeviceGetTemperature",
            nvml_h.nvmlDeviceGetTemperature$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetTemperature(NULL, 0, NULL)),
        fn(
            "nvmlDeviceGetFieldValues",
            nvml_h.nvmlDeviceGetFieldValues$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetFieldValues(NULL, 0, NULL)),
        fn(
            "nvmlDeviceGetComputeMode",
            nvml_h.nvmlDeviceGetComputeMode$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetComputeMode(NULL, NULL)),
        fn(
            "nvmlDeviceSetComputeMode",
            nvml_h.nvmlDeviceSetComputeMode$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT),
            n -> n.nvmlDeviceSetComputeMode(NULL, 0)),
        fn(
            "nvmlDeviceGetMigMode",
            nvml_h.nvmlDeviceGetMigMode$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetMigMode(NULL, NULL, NULL)),
        fn(
            "nvmlDeviceSetMigMode",
            nvml_h.nvmlDeviceSetMigMode$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceSetMigMode(NULL, 0, NULL)),
        fn(
            "nvmlDeviceGetGpuInstanceProfileInfo",
            nvml_h.nvmlDeviceGetGpuInstanceProfileInfo$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstanceProfileInfo(NULL, 0, NULL)),
        fn(
            "nvmlDeviceGetGpuInstanceProfileInfoV",
            nvml_h.nvmlDeviceGetGpuInstanceProfileInfoV$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstanceProfileInfoV(NULL, 0, NULL)),
        fn(
            "nvmlDeviceGetGpuInstanceProfileInfoByIdV",
            nvml_h.nvmlDeviceGetGpuInstanceProfileInfoByIdV$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstanceProfileInfoByIdV(NULL, 0, NULL)),
        fn(
            "nvmlDeviceGetGpuInstancePossiblePlacements_v2",
            nvml_h.nvmlDeviceGetGpuInstancePossiblePlacements_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstancePossiblePlacements_v2(NULL, 0, NULL, NULL)),
        fn(
            "nvmlDeviceGetGpuInstanceRemainingCapacity",
            nvml_h.nvmlDeviceGetGpuInstanceRemainingCapacity$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstanceRemainingCapacity(NULL, 0, NULL)),
        fn(
            "nvmlDeviceCreateGpuInstance",
            nvml_h.nvmlDeviceCreateGpuInstance$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceCreateGpuInstance(NULL, 0, NULL)),
        fn(
            "nvmlDeviceCreateGpuInstanceWithPlacement",
            nvml_h.nvmlDeviceCreateGpuInstanceWithPlacement$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
            n -> n.nvmlDeviceCreateGpuInstanceWithPlacement(NULL, 0, NULL, NULL)),
        fn(
            "nvmlGpuInstanceDestroy",
            nvml_h.nvmlGpuInstanceDestroy$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlGpuInstanceDestroy(NULL)),
        fn(
            "nvmlDeviceGetGpuInstances",
            nvml_h.nvmlDeviceGetGpuInstances$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstances(NULL, 0, NULL, NULL)),
        fn(
            "nvmlDeviceGetGpuInstanceById",
            nvml_h.nvmlDeviceGetGpuInstanceById$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstanceById(NULL, 0, NULL)),
        fn(
            "nvmlGpuInstanceGetInfo",
            nvml_h.nvmlGpuInstanceGetInfo$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlGpuInstanceGetInfo(NULL, NULL)),
        fn(
            "nvmlGpuInstanceGetComputeInstanceProfileInfo",
            nvml_h.nvmlGpuInstanceGetComputeInstanceProfileInfo$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
            n -> n.nvmlGpuInstanceGetComputeInstanceProfileInfo(NULL, 0, 0, NULL)),
        fn(
            "nvmlGpuInstanceGetComputeInstanceProfileInfoV",
            nvml_h.nvmlGpuInstanceGetComputeInstanceProfileInfoV$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
            n -> n.nvmlGpuInstanceGetComputeInstanceProfileInfoV(NULL, 0, 0, NULL)),
        fn(
            "nvmlGpuInstanceGetComputeInstanceRemainingCapacity",
            nvml_h.nvmlGpuInstanceGetComputeInstanceRemainingCapacity$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlGpuInstanceGetComputeInstanceRemainingCapacity(NULL, 0, NULL)),
        fn(
            "nvmlGpuInstanceGetComputeInstancePossiblePlacements",
            nvml_h.nvmlGpuInstanceGetComputeInstancePossiblePlacements$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
            n -> n.nvmlGpuInstanceGetComputeInstancePossiblePlacements(NULL, 0, NULL, NULL)),
        fn(
            "nvmlGpuInstanceCreateComputeInstance",
            nvml_h.nvmlGpuInstanceCreateComputeInstance$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlGpuInstanceCreateComputeInstance(NULL, 0, NULL)),
        fn(
            "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
            nvml_h.nvmlGpuInstanceCreateComputeInstanceWithPlacement$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
            n -> n.nvmlGpuInstanceCreateComputeInstanceWithPlacement(NULL, 0, NULL, NULL)),
        fn(
            "nvmlComputeInstanceDestroy",
            nvml_h.nvmlComputeInstanceDestroy$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlComputeInstanceDestroy(NULL)),
        fn(
            "nvmlGpuInstanceGetComputeInstances",
            nvml_h.nvmlGpuInstanceGetComputeInstances$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
            n -> n.nvmlGpuInstanceGetComputeInstances(NULL, 0, NULL, NULL)),
        fn(
            "nvmlGpuInstanceGetComputeInstanceById",
            nvml_h.nvmlGpuInstanceGetComputeInstanceById$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlGpuInstanceGetComputeInstanceById(NULL, 0, NULL)),
        fn(
            "nvmlComputeInstanceGetInfo_v2",
            nvml_h.nvmlComputeInstanceGetInfo_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlComputeInstanceGetInfo_v2(NULL, NULL)),
        fn(
            "nvmlDeviceIsMigDeviceHandle",
            nvml_h.nvmlDeviceIsMigDeviceHandle$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceIsMigDeviceHandle(NULL, NULL)),
        fn(
            "nvmlDeviceGetGpuInstanceId",
            nvml_h.nvmlDeviceGetGpuInstanceId$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetGpuInstanceId(NULL, NULL)),
        fn(
            "nvmlDeviceGetComputeInstanceId",
            nvml_h.nvmlDeviceGetComputeInstanceId$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetComputeInstanceId(NULL, NULL)),
        fn(
            "nvmlDeviceGetMaxMigDeviceCount",
            nvml_h.nvmlDeviceGetMaxMigDeviceCount$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetMaxMigDeviceCount(NULL, NULL)),
        fn(
            "nvmlDeviceGetMigDeviceHandleByIndex",
            nvml_h.nvmlDeviceGetMigDeviceHandleByIndex$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlDeviceGetMigDeviceHandleByIndex(NULL, 0, NULL)),
        fn(
            "nvmlDeviceGetDeviceHandleFromMigDeviceHandle",
            nvml_h.nvmlDeviceGetDeviceHandleFromMigDeviceHandle$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetDeviceHandleFromMigDeviceHandle(NULL, NULL)),
        fn(
            "nvmlDeviceGetAttributes_v2",
            nvml_h.nvmlDeviceGetAttributes_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetAttributes_v2(NULL, NULL)),
        fn(
            "nvmlEventSetCreate",
            nvml_h.nvmlEventSetCreate$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlEventSetCreate(NULL)),
        fn(
            "nvmlDeviceRegisterEvents",
            nvml_h.nvmlDeviceRegisterEvents$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_LONG, ADDRESS),
            n -> n.nvmlDeviceRegisterEvents(NULL, 0L, NULL)),
        fn(
            "nvmlDeviceGetSupportedEventTypes",
            nvml_h.nvmlDeviceGetSupportedEventTypes$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlDeviceGetSupportedEventTypes(NULL, NULL)),
        fn(
            "nvmlEventSetWait_v2",
            nvml_h.nvmlEventSetWait_v2$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS, JAVA_INT),
            n -> n.nvmlEventSetWait_v2(NULL, NULL, 0)),
        fn(
            "nvmlEventSetFree",
            nvml_h.nvmlEventSetFree$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlEventSetFree(NULL)),
        fn(
            "nvmlGpmQueryDeviceSupport",
            nvml_h.nvmlGpmQueryDeviceSupport$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlGpmQueryDeviceSupport(NULL, NULL)),
        fn(
            "nvmlGpmSampleAlloc",
            nvml_h.nvmlGpmSampleAlloc$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlGpmSampleAlloc(NULL)),
        fn(
            "nvmlGpmSampleFree",
            nvml_h.nvmlGpmSampleFree$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlGpmSampleFree(NULL)),
        fn(
            "nvmlGpmSampleGet",
            nvml_h.nvmlGpmSampleGet$DESC,
            JAVA_INT,
            List.of(ADDRESS, ADDRESS),
            n -> n.nvmlGpmSampleGet(NULL, NULL)),
        fn(
            "nvmlGpmMigSampleGet",
            nvml_h.nvmlGpmMigSampleGet$DESC,
            JAVA_INT,
            List.of(ADDRESS, JAVA_INT, ADDRESS),
            n -> n.nvmlGpmMigSampleGet(NULL, 0, NULL)),
        fn(
            "nvmlGpmMetricsGet",
            nvml_h.nvmlGpmMetricsGet$DESC,
            JAVA_INT,
            List.of(ADDRESS),
            n -> n.nvmlGpmMetricsGet(NULL)));
  }

  @Test
  void coversEveryFunctionOfTheAbiOnce() {
    var symbols = functions().stream().map(CFunction::symbol).toList();
    var descriptors =
        Arrays.stream(nvml_h.class.getDeclaredFields())
            .filter(field -> Modifier.isStatic(field.getModifiers()))
            .map(field -> field.getName())
            .filter(name -> name.endsWith("$DESC"))
            .map(name -> name.substring(0, name.length() - "$DESC".length()))
            .toList();
    assertThat(symbols).hasSize(76).doesNotHaveDuplicates();
    assertThat(descriptors).containsExactlyInAnyOrderElementsOf(symbols);
  }

  @ParameterizedTest
  @MethodSource("functions")
  void declaresTheCSignature(CFunction f) {
    assertThat(f.descriptor().argumentLayouts()).isEqualTo(f.parameters());
    assertThat(f.descriptor().returnLayout()).contains(f.returns());
    assertThat(f.descriptor().returnLayout())
        .contains(f.symbol().equals("nvmlErrorString") ? ADDRESS : JAVA_INT);
  }

  @ParameterizedTest
  @MethodSource("functions")
  void answersFunctionNotFoundWhenTheLibraryLacksTheSymbol(CFunction f) {
    var nvml = new nvml_h(symbol -> Optional.empty());

    assertThat(nvml.hasSymbol(f.symbol())).isFalse();
    assertThat(nvml.missingSymbols()).contains(f.symbol());
    assertThat(f.call().applyAsLong(nvml))
        .isEqualTo(f.returns().equals(ADDRESS) ? NULL.address() : NVML_ERROR_FUNCTION_NOT_FOUND);
  }

  // The stub is a native function pointer with the descriptor's exact signature, so the call goes
  // through the real downcall and the wrapper's invokeExact types are checked for every function.
  @ParameterizedTest
  @MethodSource("functions")
  @SuppressWarnings("restricted") // an upcall stub stands in for the library's symbol
  void callsTheBoundSymbol(CFunction f) {
    var answer =
        f.returns().equals(ADDRESS)
            ? MethodHandles.constant(MemorySegment.class, MemorySegment.ofAddress(STUB_ANSWER))
            : MethodHandles.constant(int.class, (int) STUB_ANSWER);
    var target =
        MethodHandles.dropArguments(answer, 0, f.descriptor().toMethodType().parameterList());
    try (var arena = Arena.ofConfined()) {
      var stub = Linker.nativeLinker().upcallStub(target, f.descriptor(), arena);
      var nvml =
          new nvml_h(symbol -> symbol.equals(f.symbol()) ? Optional.of(stub) : Optional.empty());

      assertThat(f.call().applyAsLong(nvml)).isEqualTo(STUB_ANSWER);
      assertThat(nvml.hasSymbol(f.symbol())).isTrue();
      assertThat(nvml.missingSymbols()).hasSize(75).doesNotContain(f.symbol());
    }
  }

  @Test
  void listsMissingSymbolsInDeclarationOrder() {
    var nvml = new nvml_h(symbol -> Optional.empty());
    assertThat(nvml.missingSymbols())
        .isEqualTo(functions().stream().map(CFunction::symbol).toList());
  }

  @Test
  void rejectsASymbolItDoesNotDeclare() {
    var nvml = new nvml_h(symbol -> Optional.empty());
    assertThatThrownBy(() -> nvml.hasSymbol("nvmlDeviceGetCount"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nvmlDeviceGetCount");
  }
}
