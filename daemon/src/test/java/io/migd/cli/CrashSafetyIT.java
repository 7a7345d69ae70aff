package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.migd.cli.NvmlSimCommand.GpuLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * SLOW (about 55 migd processes, 2-3 minutes; tagged {@code slow}, skip with {@code
 * -DexcludedGroups=slow}). Crash safety of {@code migd apply}: for three reshapes of an
 * A100-SXM4-40GB, the apply is killed (SIGKILL, by the simulator's {@code KILL} fault) right after
 * the N-th call of each state-changing NVML function, for every N the reshape makes (counted from
 * its plan); a second apply without faults must then succeed and leave exactly the target: the same
 * GPU instances, each with its compute instances, nothing extra, and the MIG mode settled. The
 * first two reshapes also run on four A100s changing at once (each state-changing call takes 5 ms),
 * killed after the N-th call of one GPU's (GPU 2's) function while the others are mid-reshape: the
 * second apply must leave every GPU at the target.
 */
@Tag("slow")
class CrashSafetyIT {
  private static final String MODEL = "A100-SXM4-40GB";
  private static final String SIMULATE = "--simulate=" + MODEL;
  private static final String FOUR = String.join(",", Collections.nCopies(4, MODEL));
  private static final String SIMULATE_FOUR = "--simulate=" + FOUR;

  /** Plan actions and the NVML function that carries each out. */
  private static final Map<String, String> FUNCTIONS =
      Map.of(
          "enableMig", "nvmlDeviceSetMigMode",
          "disableMig", "nvmlDeviceSetMigMode",
          "createGpuInstance", "nvmlDeviceCreateGpuInstanceWithPlacement",
          "createComputeInstance", "nvmlGpuInstanceCreateComputeInstanceWithPlacement",
          "destroyComputeInstance", "nvmlComputeInstanceDestroy",
          "destroyGpuInstance", "nvmlGpuInstanceDestroy");

  private static final GpuLayout MIXED_A =
      GpuLayout.mig(MODEL, "4g.20gb[1c.4g.20gb, 1c.4g.20gb]", "1g.5gb[1g.5gb]", "1g.5gb[1g.5gb]");
  private static final GpuLayout MIXED_B =
      GpuLayout.mig(MODEL, "4g.20gb[1c.4g.20gb, 1c.4g.20gb]", "1g.5gb[1g.5gb]", "1g.10gb[1g.10gb]");

  /**
   * A reshape from the state {@code from} leaves (null: fresh, MIG disabled) to config {@code to}.
   */
  record Reshape(String name, String from, String to, GpuLayout target) {}

  private static final List<Reshape> RESHAPES =
      List.of(
          new Reshape("enable MIG and create", null, "mixed-a", MIXED_A),
          new Reshape("keep, destroy and create", "mixed-a", "mixed-b", MIXED_B),
          new Reshape(
              "destroy all and disable MIG", "mixed-b", "disabled", GpuLayout.disabled(MODEL)));

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String LAYOUTS = CommandLineIT.resource("crash-layouts.yaml");

  private static NvmlSimCommand nvmlSim;

  @TempDir Path dir;

  /** State files of the start of each reshape, by the config they were applied with. */
  private final Map<String, Path> snapshots = new LinkedHashMap<>();

  @BeforeAll
  static void extractNvmlSim(@TempDir Path simDir) {
    nvmlSim = NvmlSimCommand.extract(simDir);
  }

  @TestFactory
  Stream<DynamicContainer> reachesTheTargetAfterAKillAfterAnyStateChangingCall() {
    return RESHAPES.stream()
        .map(reshape -> dynamicContainer(reshape.name(), Stream.of(reshape).flatMap(this::kills)));
  }

  /**
   * One test per (function, N) of the reshape's plan, made when the container runs, and one per
   * function that checks the plan counted every call: with the fault on call count + 1 the apply is
   * not killed.
   */
  private Stream<DynamicTest> kills(Reshape reshape) {
    Path start = snapshot(reshape.from());
    Map<String, Integer> calls = callsOfPlan(start, reshape);
    assertThat(calls).as("calls of reshape %s", reshape.name()).isNotEmpty();
    return calls.entrySet().stream()
        .flatMap(
            call ->
                Stream.concat(
                    IntStream.rangeClosed(1, call.getValue())
                        .mapToObj(
                            n ->
                                dynamicTest(
                                    call.getKey() + "#" + n + "=KILL",
                                    () -> killAndRecover(reshape, start, call.getKey(), n))),
                    Stream.of(
                        dynamicTest(
                            call.getKey() + "#" + (call.getValue() + 1) + "=KILL is never reached",
                            () -> applyPastTheLastCall(reshape, start, call)))));
  }

  private void killAndRecover(Reshape reshape, Path start, String function, int n)
      throws IOException {
    var migd = node(reshape.to() + "-" + function + "-" + n, start);

    var killed =
        migd.withEnvironment("NVML_SIM_FAULTS", function + "#" + n + "=KILL")
            .run("apply", "-f", LAYOUTS, "-c", reshape.to(), SIMULATE);
    assertThat(killed.exitStatus()).as("%s", killed).isEqualTo(MigdProcess.KILLED);
    var recovered = migd.run("apply", "-f", LAYOUTS, "-c", reshape.to(), SIMULATE);

    assertThat(recovered.exitStatus()).as("%s", recovered).isZero();
    assertThat(nvmlSim.layouts(migd.stateFile()))
        .as("after %s#%d=KILL and a second apply", function, n)
        .containsExactly(reshape.target());
  }

  private void applyPastTheLastCall(Reshape reshape, Path start, Map.Entry<String, Integer> call)
      throws IOException {
    var migd = node(reshape.to() + "-" + call.getKey() + "-past", start);

    var apply =
        migd.withEnvironment(
                "NVML_SIM_FAULTS", call.getKey() + "#" + (call.getValue() + 1) + "=KILL")
            .run("apply", "-f", LAYOUTS, "-c", reshape.to(), SIMULATE);

    assertThat(apply.exitStatus()).as("%s", apply).isZero();
    assertThat(nvmlSim.layouts(migd.stateFile())).containsExactly(reshape.target());
  }

  @TestFactory
  Stream<DynamicContainer> reachesTheTargetOnEveryGpuAfterAKillOnOneWhileTheOthersReshape() {
    return RESHAPES.subList(0, 2).stream()
        .map(
            reshape ->
                dynamicContainer(
                    reshape.name() + " on four GPUs at once",
                    Stream.of(reshape).flatMap(this::killsOnOneOfFour)));
  }

  /** One test per (function, N) of one GPU's plan, the kill aimed at GPU 2's N-th call. */
  private Stream<DynamicTest> killsOnOneOfFour(Reshape reshape) {
    Map<String, Integer> calls = callsOfPlan(snapshot(reshape.from()), reshape);
    Path start = snapshotOfFour(reshape.from());
    return calls.entrySet().stream()
        .flatMap(
            call ->
                IntStream.rangeClosed(1, call.getValue())
                    .mapToObj(
                        n ->
                            dynamicTest(
                                call.getKey() + "@2#" + n + "=KILL",
                                () -> killOneOfFourAndRecover(reshape, start, call.getKey(), n))));
  }

  private void killOneOfFourAndRecover(Reshape reshape, Path start, String function, int n)
      throws IOException {
    var migd =
        node("four-" + reshape.to() + "-" + function + "-" + n, start)
            .withEnvironment("NVML_SIM_LATENCY_MS", "5");

    var killed =
        migd.withEnvironment("NVML_SIM_FAULTS", function + "@2#" + n + "=KILL")
            .run("apply", "-f", LAYOUTS, "-c", reshape.to(), SIMULATE_FOUR);
    assertThat(killed.exitStatus()).as("%s", killed).isEqualTo(MigdProcess.KILLED);
    var recovered = migd.run("apply", "-f", LAYOUTS, "-c", reshape.to(), SIMULATE_FOUR);

    assertThat(recovered.exitStatus()).as("%s", recovered).isZero();
    assertThat(nvmlSim.layouts(migd.stateFile()))
        .as("every GPU after %s@2#%d=KILL and a second apply", function, n)
        .containsExactly(reshape.target(), reshape.target(), reshape.target(), reshape.target());
  }

  /** As {@link #snapshot}, for four A100s. */
  private Path snapshotOfFour(String from) {
    String key = "four-" + (from == null ? "fresh" : from);
    Path known = snapshots.get(key);
    if (known != null) {
      return known;
    }
    try {
      Path snapshot = Files.createDirectories(dir.resolve("snapshots")).resolve(key);
      if (from == null) {
        nvmlSim.run(snapshot, "init", "--gpus", FOUR);
      } else {
        var migd = node("setup-" + key, snapshotOfFour(null));
        var apply = migd.run("apply", "-f", LAYOUTS, "-c", from, SIMULATE_FOUR);
        assertThat(apply.exitStatus()).as("%s", apply).isZero();
        Files.copy(migd.stateFile(), snapshot, StandardCopyOption.REPLACE_EXISTING);
      }
      snapshots.put(key, snapshot);
      return snapshot;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The state file a reshape starts from: fresh, or after applying config {@code from}. */
  private Path snapshot(String from) {
    String key = from == null ? "fresh" : from;
    Path known = snapshots.get(key);
    if (known != null) {
      return known;
    }
    try {
      Path snapshot = Files.createDirectories(dir.resolve("snapshots")).resolve(key);
      if (from == null) {
        nvmlSim.run(snapshot, "init", "--gpus", MODEL);
      } else {
        // the layouts chain: each "from" is the target of the reshape before it
        Reshape before =
            RESHAPES.stream().filter(r -> r.to().equals(from)).findFirst().orElseThrow();
        var migd = node("setup-" + from, snapshot(before.from()));
        var apply = migd.run("apply", "-f", LAYOUTS, "-c", from, SIMULATE);
        assertThat(apply.exitStatus()).as("%s", apply).isZero();
        assertThat(nvmlSim.layouts(migd.stateFile())).containsExactly(before.target());
        Files.copy(migd.stateFile(), snapshot, StandardCopyOption.REPLACE_EXISTING);
      }
      snapshots.put(key, snapshot);
      return snapshot;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How often the apply of a reshape calls each state-changing function: its plan's steps. */
  private Map<String, Integer> callsOfPlan(Path start, Reshape reshape) {
    try {
      var migd = node("plan-" + reshape.to(), start);
      var plan = migd.run("plan", "-f", LAYOUTS, "-c", reshape.to(), "-o", "json", SIMULATE);
      assertThat(plan.exitStatus()).as("%s", plan).isZero();
      var calls = new LinkedHashMap<String, Integer>();
      for (JsonNode step : JSON.readTree(plan.stdout()).path("plan").path("steps")) {
        String action = step.path("action").asString();
        assertThat(FUNCTIONS).as("plan of %s", reshape.name()).containsKey(action);
        calls.merge(FUNCTIONS.get(action), 1, Integer::sum);
      }
      return calls;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private MigdProcess node(String name, Path state) throws IOException {
    var migd = MigdProcess.on(dir.resolve(name));
    Files.copy(state, migd.stateFile(), StandardCopyOption.REPLACE_EXISTING);
    return migd;
  }
}
