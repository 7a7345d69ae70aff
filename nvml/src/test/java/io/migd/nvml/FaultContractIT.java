package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every NVML function the typed API calls can fail, and each failure surfaces as an {@link
 * NvmlException} naming that function and the code. Codes are spread over the functions so that
 * every return code is seen at least once; a function whose typed call maps a code to an answer
 * (NOT_FOUND to "no such MIG device", FUNCTION_NOT_FOUND to the older call) gets another code.
 */
class FaultContractIT {
  private static final Set<NvmlReturn> FALLBACK = EnumSet.of(NvmlReturn.FUNCTION_NOT_FOUND);
  private static SimNode node;
  private static Scene scene;

  /** Handles the calls are made on; a faulted call has no effect, so they stay valid. */
  record Scene(
      DeviceHandle gpu,
      GpuInstanceHandle gi,
      ComputeInstanceHandle ci,
      DeviceHandle mig,
      int giProfileId,
      int ciProfileId,
      EventSetHandle events,
      String uuid) {}

  @FunctionalInterface
  interface Call {
    void run(Nvml nvml, Scene s) throws Exception;
  }

  record Case(String function, String alsoFault, Set<NvmlReturn> handled, Call call) {
    @Override
    public String toString() {
      return function;
    }
  }

  @BeforeAll
  static void start() {
    node = SimNode.start("H100-SXM5-80GB");
    Nvml nvml = node.nvml;
    DeviceHandle gpu = node.gpu(0);
    nvml.setMigMode(gpu, true);
    var profile = nvml.gpuInstanceProfiles(gpu).getFirst();
    var gi = nvml.createGpuInstance(gpu, profile.id(), new InstancePlacement(0, 1));
    int ciProfile = nvml.computeInstanceProfiles(gi).getFirst().id();
    var ci = nvml.createComputeInstance(gi, ciProfile, new InstancePlacement(0, 1));
    var mig = nvml.migDeviceByIndex(gpu, 0).orElseThrow();
    scene =
        new Scene(gpu, gi, ci, mig, profile.id(), ciProfile, nvml.createEventSet(), nvml.uuid(gpu));
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  private static Case c(String function, Call call) {
    return new Case(function, "", FALLBACK, call);
  }

  private static Case c(String function, Set<NvmlReturn> handled, Call call) {
    return new Case(function, "", handled, call);
  }

  /** A legacy function is reached when the newer one is missing from the driver. */
  private static Case legacy(String function, String newer, Set<NvmlReturn> handled, Call call) {
    return new Case(function, newer + "=NVML_ERROR_FUNCTION_NOT_FOUND", handled, call);
  }

  private static NvmlLibrary library() {
    return NvmlLibrary.load(node.sim.libraryPath().toString());
  }

  static List<Case> functions() {
    var notFound = EnumSet.of(NvmlReturn.NOT_FOUND, NvmlReturn.FUNCTION_NOT_FOUND);
    var sizing = EnumSet.of(NvmlReturn.INSUFFICIENT_SIZE, NvmlReturn.FUNCTION_NOT_FOUND);
    var profileV =
        EnumSet.of(
            NvmlReturn.INVALID_ARGUMENT, NvmlReturn.NOT_SUPPORTED, NvmlReturn.FUNCTION_NOT_FOUND);
    var profileOld = EnumSet.of(NvmlReturn.INVALID_ARGUMENT, NvmlReturn.NOT_SUPPORTED);
    return List.of(
        c("nvmlInit_v2", (n, s) -> FfmNvml.open(library(), NvmlCallObserver.NONE).close()),
        c("nvmlShutdown", (n, s) -> FfmNvml.open(library(), NvmlCallObserver.NONE).close()),
        c("nvmlSystemGetProcessName", (n, s) -> n.processName(1)),
        c("nvmlDeviceGetCount_v2", (n, s) -> n.deviceCount()),
        c("nvmlDeviceGetHandleByIndex_v2", (n, s) -> n.deviceByIndex(0)),
        c("nvmlDeviceGetHandleByUUID", (n, s) -> n.deviceByUuid(s.uuid())),
        c("nvmlDeviceGetIndex", (n, s) -> n.index(s.gpu())),
        c("nvmlDeviceGetUUID", (n, s) -> n.uuid(s.gpu())),
        c("nvmlDeviceGetName", (n, s) -> n.name(s.gpu())),
        c("nvmlDeviceGetPciInfo_v3", (n, s) -> n.pciInfo(s.gpu())),
        legacy(
            "nvmlDeviceGetMemoryInfo",
            "nvmlDeviceGetMemoryInfo_v2",
            FALLBACK,
            (n, s) -> n.memory(s.gpu())),
        c("nvmlDeviceGetMemoryInfo_v2", (n, s) -> n.memory(s.gpu())),
        c("nvmlDeviceGetUtilizationRates", (n, s) -> n.utilization(s.gpu())),
        c("nvmlDeviceGetComputeRunningProcesses_v3", sizing, (n, s) -> n.computeProcesses(s.gpu())),
        c("nvmlDeviceGetMigMode", (n, s) -> n.migMode(s.gpu())),
        c("nvmlDeviceSetMigMode", (n, s) -> n.setMigMode(s.gpu(), true)),
        legacy(
            "nvmlDeviceGetGpuInstanceProfileInfo",
            "nvmlDeviceGetGpuInstanceProfileInfoV",
            profileOld,
            (n, s) -> n.gpuInstanceProfiles(s.gpu())),
        c(
            "nvmlDeviceGetGpuInstanceProfileInfoV",
            profileV,
            (n, s) -> n.gpuInstanceProfiles(s.gpu())),
        c(
            "nvmlDeviceGetGpuInstanceProfileInfoByIdV",
            profileV,
            (n, s) -> n.gpuInstanceProfileById(s.gpu(), s.giProfileId())),
        c(
            "nvmlDeviceGetGpuInstancePossiblePlacements_v2",
            (n, s) -> n.gpuInstancePossiblePlacements(s.gpu(), s.giProfileId())),
        c(
            "nvmlDeviceCreateGpuInstanceWithPlacement",
            (n, s) -> n.createGpuInstance(s.gpu(), s.giProfileId(), new InstancePlacement(6, 1))),
        c("nvmlGpuInstanceDestroy", (n, s) -> n.destroyGpuInstance(s.gi())),
        c("nvmlDeviceGetGpuInstances", (n, s) -> n.gpuInstances(s.gpu(), s.giProfileId())),
        c("nvmlDeviceGetGpuInstanceById", (n, s) -> n.gpuInstanceById(s.gpu(), 1)),
        c("nvmlGpuInstanceGetInfo", (n, s) -> n.gpuInstanceInfo(s.gi())),
        legacy(
            "nvmlGpuInstanceGetComputeInstanceProfileInfo",
            "nvmlGpuInstanceGetComputeInstanceProfileInfoV",
            profileOld,
            (n, s) -> n.computeInstanceProfiles(s.gi())),
        c(
            "nvmlGpuInstanceGetComputeInstanceProfileInfoV",
            profileV,
            (n, s) -> n.computeInstanceProfiles(s.gi())),
        c(
            "nvmlGpuInstanceGetComputeInstancePossiblePlacements",
            (n, s) -> n.computeInstancePossiblePlacements(s.gi(), s.ciProfileId())),
        c(
            "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
            (n, s) ->
                n.createComputeInstance(s.gi(), s.ciProfileId(), new InstancePlacement(0, 1))),
        c("nvmlComputeInstanceDestroy", (n, s) -> n.destroyComputeInstance(s.ci())),
        c(
            "nvmlGpuInstanceGetComputeInstances",
            (n, s) -> n.computeInstances(s.gi(), s.ciProfileId())),
        c("nvmlGpuInstanceGetComputeInstanceById", (n, s) -> n.computeInstanceById(s.gi(), 0)),
        c("nvmlComputeInstanceGetInfo_v2", (n, s) -> n.computeInstanceInfo(s.ci())),
        c("nvmlDeviceGetGpuInstanceId", (n, s) -> n.gpuInstanceId(s.mig())),
        c("nvmlDeviceGetComputeInstanceId", (n, s) -> n.computeInstanceId(s.mig())),
        c("nvmlDeviceGetMaxMigDeviceCount", (n, s) -> n.maxMigDeviceCount(s.gpu())),
        c(
            "nvmlDeviceGetMigDeviceHandleByIndex",
            notFound,
            (n, s) -> n.migDeviceByIndex(s.gpu(), 0)),
        c("nvmlEventSetCreate", (n, s) -> n.createEventSet()),
        c(
            "nvmlDeviceRegisterEvents",
            (n, s) -> n.registerEvents(s.gpu(), EventData.XID_CRITICAL_ERROR, s.events())),
        c("nvmlDeviceGetSupportedEventTypes", (n, s) -> n.supportedEventTypes(s.gpu())),
        c(
            "nvmlEventSetWait_v2",
            EnumSet.of(NvmlReturn.TIMEOUT, NvmlReturn.FUNCTION_NOT_FOUND),
            (n, s) -> n.waitForEvent(s.events(), Duration.ofMillis(10))),
        c("nvmlEventSetFree", (n, s) -> n.freeEventSet(s.events())));
  }

  /** The code each case is faulted with: every error code at least once over the table. */
  static List<NvmlReturn> assignedCodes() {
    var errors = new ArrayList<NvmlReturn>(EnumSet.complementOf(EnumSet.of(NvmlReturn.SUCCESS)));
    var unused = new LinkedHashSet<>(errors);
    var result = new ArrayList<NvmlReturn>();
    int next = 0;
    for (Case c : functions()) {
      NvmlReturn pick =
          unused.stream().filter(code -> !c.handled().contains(code)).findFirst().orElse(null);
      while (pick == null) {
        NvmlReturn candidate = errors.get(next++ % errors.size());
        if (!c.handled().contains(candidate)) {
          pick = candidate;
        }
      }
      unused.remove(pick);
      result.add(pick);
    }
    return result;
  }

  static List<Object[]> faults() {
    var cases = functions();
    var codes = assignedCodes();
    var result = new ArrayList<Object[]>();
    for (int i = 0; i < cases.size(); i++) {
      result.add(new Object[] {cases.get(i), codes.get(i)});
    }
    return result;
  }

  @ParameterizedTest(name = "{0} fails with {1}")
  @MethodSource("faults")
  void aFaultedCallSurfacesAsAnExceptionNamingTheFunctionAndCode(Case c, NvmlReturn code) {
    String spec = c.function() + "=" + code.cName();
    node.faults(c.alsoFault().isEmpty() ? spec : c.alsoFault() + ";" + spec);
    try {
      assertThatThrownBy(() -> c.call().run(node.nvml, scene))
          .isInstanceOfSatisfying(
              NvmlException.class,
              e -> {
                assertThat(e.function()).isEqualTo(c.function());
                assertThat(e.code()).isEqualTo(code);
                assertThat(e.getMessage()).contains(c.function()).contains(code.cName());
              });
    } finally {
      node.faults("");
    }
  }

  @Test
  void theTableCoversEveryFunctionAndEveryCode() {
    assertThat(functions()).extracting(Case::function).doesNotHaveDuplicates().hasSize(42);
    assertThat(EnumSet.copyOf(assignedCodes()))
        .isEqualTo(EnumSet.complementOf(EnumSet.of(NvmlReturn.SUCCESS)));
  }

  @Test
  void aFaultOnTheNthCallLeavesTheEarlierCallsAlone() {
    node.faults("nvmlDeviceGetCount_v2#2=NVML_ERROR_GPU_IS_LOST");
    try {
      assertThat(node.nvml.deviceCount()).isEqualTo(1);
      assertThatThrownBy(() -> node.nvml.deviceCount())
          .isInstanceOfSatisfying(
              NvmlException.class, e -> assertThat(e.code()).isEqualTo(NvmlReturn.GPU_IS_LOST));
      assertThat(node.nvml.deviceCount()).isEqualTo(1);
    } finally {
      node.faults("");
    }
  }

  @Test
  void aFaultedCreateLeavesNothingBehind() {
    node.faults("nvmlDeviceCreateGpuInstanceWithPlacement=NVML_ERROR_UNKNOWN");
    try {
      assertThatThrownBy(
              () ->
                  node.nvml.createGpuInstance(
                      scene.gpu(), scene.giProfileId(), new InstancePlacement(5, 1)))
          .isInstanceOf(NvmlException.class);
    } finally {
      node.faults("");
    }
    assertThat(node.nvml.gpuInstances(scene.gpu(), scene.giProfileId())).hasSize(1);
  }
}
