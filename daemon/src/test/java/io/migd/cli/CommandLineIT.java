package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.migd.app.StateLock;
import io.migd.cli.NvmlSimCommand.GpuLayout;
import io.migd.kubelet.FakePodResources;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The one-shot commands end to end: migd as a child process on simulated GPUs whose state lives in
 * a file, looked at with {@code nvml-sim}.
 */
class CommandLineIT {
  private static final String A100 = "A100-SXM4-40GB";
  private static final String H100 = "H100-SXM5-80GB";
  private static final String ONE_A100 = "--simulate=" + A100;
  private static final String A100_AND_H100 = "--simulate=" + A100 + "," + H100;

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private static NvmlSimCommand nvmlSim;

  @TempDir Path dir;

  @BeforeAll
  static void extractNvmlSim(@TempDir Path simDir) {
    nvmlSim = NvmlSimCommand.extract(simDir);
  }

  @Test
  void exportsAFreshNodeAsDisabledCurrentConfig() {
    var migd = MigdProcess.on(dir.resolve("node"));

    var yaml = migd.run("export", ONE_A100);
    var json = migd.run("export", "-o", "json", ONE_A100);

    assertThat(yaml.exitStatus()).as("%s", yaml).isZero();
    assertThat(json.exitStatus()).as("%s", json).isZero();
    JsonNode expected =
        YAML.readTree(
            """
            version: v1
            mig-configs:
              current:
                - devices: all
                  mig-enabled: false
            """);
    // stdout holds nothing but the document (logs go to stderr), so it parses as a whole
    assertThat(YAML.readTree(yaml.stdout())).isEqualTo(expected);
    assertThat(JSON.readTree(json.stdout())).isEqualTo(expected);
    assertThat(yaml.stderr()).contains("simulating GPUs");
  }

  @Test
  void appliesAssertsAndReproducesAnExportedLayoutOnAnotherNode() throws IOException {
    var migd = MigdProcess.on(dir.resolve("node"));

    var apply = migd.run("apply", "-c", "all-balanced", A100_AND_H100);
    var matching = migd.run("assert", "-c", "all-balanced", A100_AND_H100);
    var notMatching = migd.run("assert", "-c", "all-1g.5gb", A100_AND_H100);
    var export = migd.run("export", A100_AND_H100);

    assertThat(apply.exitStatus()).as("%s", apply).isZero();
    assertThat(matching.exitStatus()).as("%s", matching).isZero();
    assertThat(notMatching.exitStatus()).as("%s", notMatching).isEqualTo(1);
    assertThat(notMatching.stderr()).contains("does not match config all-1g.5gb");
    assertThat(export.exitStatus()).as("%s", export).isZero();
    assertThat(nvmlSim.layouts(migd.stateFile()))
        .containsExactly(
            GpuLayout.mig(
                A100, "1g.5gb[1g.5gb]", "1g.5gb[1g.5gb]", "2g.10gb[2g.10gb]", "3g.20gb[3g.20gb]"),
            GpuLayout.mig(
                H100,
                "1g.10gb[1g.10gb]",
                "1g.10gb[1g.10gb]",
                "2g.20gb[2g.20gb]",
                "3g.40gb[3g.40gb]"));

    Path exported = Files.writeString(dir.resolve("exported.yaml"), export.stdout());
    var other = MigdProcess.on(dir.resolve("other-node"));
    var reproduce = other.run("apply", "-f", exported.toString(), "-c", "current", A100_AND_H100);
    var reproduced = other.run("assert", "-f", exported.toString(), "-c", "current", A100_AND_H100);

    assertThat(reproduce.exitStatus()).as("%s", reproduce).isZero();
    assertThat(reproduced.exitStatus()).as("%s", reproduced).isZero();
    assertThat(nvmlSim.layouts(other.stateFile())).isEqualTo(nvmlSim.layouts(migd.stateFile()));
  }

  @Test
  void onAKubeletsNodeApplyAndPlanNeverDestroyASliceAPodHolds() throws Exception {
    Path socketDir = Files.createTempDirectory(Path.of("/tmp"), "migd-pr");
    Path socket = socketDir.resolve("pod-resources.sock");
    try (var podResources = FakePodResources.start(socket)) {
      var migd =
          MigdProcess.on(dir.resolve("node"))
              .withEnvironment("MIGD_KUBELET_PODRESOURCESSOCKET", socket.toString());
      assertThat(migd.run("apply", "-c", "all-1g.5gb", ONE_A100).exitStatus()).isZero();
      String held =
          nvmlSim
              .status(migd.stateFile())
              .path("gpus")
              .get(0)
              .path("gpuInstances")
              .get(0)
              .path("computeInstances")
              .get(0)
              .path("uuid")
              .asString();
      podResources.answer(
          FakePodResources.onePod("ml", "trainer-0", "main", "nvidia.com/mig-1g.5gb", held));

      var plan = migd.run("plan", "-c", "all-3g.20gb", ONE_A100);
      var apply = migd.run("apply", "-c", "all-3g.20gb", ONE_A100);

      assertThat(plan.stdout()).contains("blocked").contains("pod ml/trainer-0");
      assertThat(apply.exitStatus()).as("%s", apply).isEqualTo(1);
      assertThat(apply.stderr() + apply.stdout()).contains("pod ml/trainer-0");
      assertThat(apply.stderr()).doesNotContain("SO_KEEPALIVE");
      assertThat(nvmlSim.status(migd.stateFile()).toString()).contains(held);
    } finally {
      Files.deleteIfExists(socket);
      Files.deleteIfExists(socketDir);
    }
  }

  @Test
  void plansInTheRestShapeWithoutChangingAnything() throws IOException {
    var migd = MigdProcess.on(dir.resolve("node"));
    nvmlSim.run(migd.stateFile(), "init", "--gpus", A100 + "," + H100);
    byte[] before = Files.readAllBytes(migd.stateFile());

    var plan = migd.run("plan", "-c", "all-balanced", "-o", "json", A100_AND_H100);

    assertThat(plan.exitStatus()).as("%s", plan).isZero();
    assertThat(Files.readAllBytes(migd.stateFile())).isEqualTo(before);
    JsonNode view = JSON.readTree(plan.stdout());
    assertThat(view.propertyNames()).containsExactlyInAnyOrder("plan", "decisions");
    var steps = new ArrayList<String>();
    for (JsonNode step : view.path("plan").path("steps")) {
      assertThat(step.propertyNames())
          .contains("gpu", "action")
          .isSubsetOf("gpu", "action", "profile", "placement", "gpuInstancePlacement");
      steps.add(
          step.path("gpu").asInt()
              + " "
              + step.path("action").asString()
              + " "
              + step.path("profile").asString()
              + " "
              + (step.has("gpuInstancePlacement")
                  ? at(step.path("gpuInstancePlacement")) + "/"
                  : "")
              + (step.has("placement") ? at(step.path("placement")) : ""));
    }
    assertThat(steps)
        .hasSize(18)
        .contains(
            "0 enableMig  ",
            "0 createGpuInstance 3g.20gb 4:4",
            "0 createComputeInstance 3g.20gb 4:4/0:3",
            "1 enableMig  ",
            "1 createGpuInstance 3g.40gb 4:4",
            "1 createComputeInstance 1g.10gb 0:1/0:1");
    var decisions = new ArrayList<String>();
    for (JsonNode decision : view.path("decisions")) {
      assertThat(decision.path("reason").asString()).isNotBlank();
      decisions.add(decision.path("gpu").asInt() + " " + decision.path("decision").asString());
    }
    assertThat(decisions).containsExactly("0 change", "1 change");
  }

  @Test
  void planAndApplySayWhatBecomesOfEveryGpuIncludingThoseTheConfigLeavesAlone() {
    var migd = MigdProcess.on(dir.resolve("node"));
    String twoA100 = "--simulate=" + A100 + "," + A100;

    var plan = migd.run("plan", "-f", resource("only-gpu-0.yaml"), twoA100);
    var apply = migd.run("apply", "-f", resource("only-gpu-0.yaml"), twoA100);

    assertThat(plan.exitStatus()).as("%s", plan).isZero();
    assertThat(plan.stdout()).contains("GPU 0: change").contains("GPU 1: unmanaged");
    assertThat(apply.exitStatus()).as("%s", apply).isZero();
    assertThat(apply.stderr()).contains("GPU 0: success").contains("GPU 1: unmanaged");
    assertThat(nvmlSim.layouts(migd.stateFile()).get(0).instances())
        .containsExactly("7g.40gb[7g.40gb]");
    assertThat(nvmlSim.layouts(migd.stateFile()).get(1).migCurrent()).isFalse();
  }

  @Test
  void plansAnUnplaceableLayoutAsInfeasibleNamingGpuAndProfile() {
    var migd = MigdProcess.on(dir.resolve("node"));

    var plan = migd.run("plan", "-f", resource("three-3g.yaml"), ONE_A100);

    assertThat(plan.exitStatus()).as("%s", plan).isEqualTo(1);
    assertThat(plan.stdout()).contains("GPU 0").contains("infeasible").contains("3g.20gb");
    // exit 1 comes with the reason on stderr, for plan as for apply
    assertThat(plan.stderr()).contains("GPU 0").contains(A100).contains("3g.20gb");
  }

  @Test
  void takesMigdPropertiesAsOptions() throws IOException {
    var migd = MigdProcess.on(dir.resolve("node"));
    Path extractDir = dir.resolve("extracted-here");

    var export = migd.run("export", ONE_A100, "--migd.nvml.extract-dir=" + extractDir);

    assertThat(export.exitStatus()).as("%s", export).isZero();
    try (var extracted = Files.list(extractDir)) {
      assertThat(extracted).isNotEmpty();
    }
  }

  record Refusal(String name, List<String> args, int exitStatus, String stderrNames) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Refusal> refusals() {
    return Stream.of(
        new Refusal(
            "unknown option",
            List.of("apply", "--no-such-option", ONE_A100),
            2,
            "--no-such-option"),
        new Refusal(
            "unknown key in the config file",
            List.of("apply", "-f", resource("unknown-key.yaml"), ONE_A100),
            2,
            "mig-devicez"),
        new Refusal(
            "profile name against NVIDIA's grammar",
            List.of("apply", "-f", resource("bad-profile-name.yaml"), ONE_A100),
            2,
            "3x.20gb"),
        new Refusal(
            "well-formed profile the GPU lacks",
            List.of("apply", "-f", resource("missing-profile.yaml"), ONE_A100),
            1,
            "7g.80gb"));
  }

  @ParameterizedTest
  @MethodSource("refusals")
  void refusesWithTheExitStatusOfTheCause(Refusal refusal) {
    var migd = MigdProcess.on(dir.resolve("node"));

    var result = migd.run(refusal.args().toArray(String[]::new));

    assertThat(result.exitStatus()).as("%s", result).isEqualTo(refusal.exitStatus());
    assertThat(result.stderr()).contains(refusal.stderrNames());
    assertThat(result.stdout()).isEmpty();
  }

  @Test
  void exitsThreeWhenNvmlRefusesForLackOfPrivilege() {
    var migd =
        MigdProcess.on(dir.resolve("node"))
            .withEnvironment("NVML_SIM_FAULTS", "nvmlDeviceSetMigMode=NVML_ERROR_NO_PERMISSION");

    var apply = migd.run("apply", "-c", "all-enabled", "--simulate=A100-SXM4-40GB");

    assertThat(apply.exitStatus()).as("%s", apply).isEqualTo(3);
    assertThat(apply.stderr()).contains("NVML_ERROR_NO_PERMISSION").contains("root");
  }

  @Test
  void exitsThreeWithTheRemedyWhenNvmlIsMissing() {
    var migd =
        MigdProcess.on(dir.resolve("node"))
            .withEnvironment("MIGD_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");

    var export = migd.run("export");

    assertThat(export.exitStatus()).as("%s", export).isEqualTo(3);
    assertThat(export.stderr())
        .contains("/nonexistent/libnvidia-ml.so.1")
        .contains("MIGD_NVML_LIBRARY")
        .contains("--simulate");
    assertThat(export.stdout()).isEmpty();
  }

  @Test
  void refusesToApplyWhileADaemonHoldsTheLockUnlessForced() throws IOException {
    var migd = MigdProcess.on(dir.resolve("node"));
    Path lockFile = migd.stateDir().resolve(StateLock.FILE_NAME);
    // the environment form of server.port, as a DaemonSet would set it
    try (var daemon = migd.withEnvironment("SERVER_PORT", "0").start("serve", ONE_A100)) {
      await()
          .atMost(MigdProcess.TIMEOUT)
          .until(
              () -> {
                if (!daemon.isAlive()) {
                  fail("migd serve ended before taking the lock:%n%s", daemon.stderr());
                }
                return Files.exists(lockFile)
                    && Files.readString(lockFile).strip().equals(Long.toString(daemon.pid()));
              });

      var refused = migd.run("apply", "-c", "all-balanced", ONE_A100);
      var forced = migd.run("apply", "-c", "all-balanced", "--force", ONE_A100);

      assertThat(refused.exitStatus()).as("%s", refused).isEqualTo(3);
      assertThat(refused.stderr()).contains(lockFile.toString()).contains("--force");
      assertThat(forced.exitStatus()).as("%s", forced).isZero();
      assertThat(nvmlSim.layouts(migd.stateFile()))
          .containsExactly(
              GpuLayout.mig(
                  A100,
                  "1g.5gb[1g.5gb]",
                  "1g.5gb[1g.5gb]",
                  "2g.10gb[2g.10gb]",
                  "3g.20gb[3g.20gb]"));
      assertThat(daemon.isAlive()).as("the daemon keeps running").isTrue();
    }
  }

  @Test
  void leavesASliceInUseAndChangesTheOtherGpu() {
    var migd = MigdProcess.on(dir.resolve("node"));
    var balanced = migd.run("apply", "-c", "all-balanced", A100_AND_H100);
    assertThat(balanced.exitStatus()).as("%s", balanced).isZero();
    JsonNode a100 = nvmlSim.status(migd.stateFile()).path("gpus").get(0);
    int busy = gpuInstanceId(a100, "3g.20gb");
    nvmlSim.run(
        migd.stateFile(),
        "attach",
        "--gpu",
        "0",
        "--gi",
        Integer.toString(busy),
        "--pid",
        "4242",
        "--mem",
        "100",
        "--name",
        "trainer");

    var apply = migd.run("apply", "-f", resource("all-small.yaml"), A100_AND_H100);

    assertThat(apply.exitStatus()).as("%s", apply).isEqualTo(1);
    assertThat(apply.stderr()).contains("blocked").contains("4242");
    JsonNode after = nvmlSim.status(migd.stateFile()).path("gpus");
    assertThat(gpuInstanceId(after.get(0), "3g.20gb")).isEqualTo(busy);
    assertThat(after.get(0).path("gpuInstances")).isEqualTo(a100.path("gpuInstances"));
    assertThat(GpuLayout.of(after.get(1)))
        .isEqualTo(
            GpuLayout.mig(
                H100,
                "1g.10gb[1g.10gb]",
                "1g.10gb[1g.10gb]",
                "1g.10gb[1g.10gb]",
                "1g.10gb[1g.10gb]",
                "1g.10gb[1g.10gb]",
                "1g.10gb[1g.10gb]",
                "1g.10gb[1g.10gb]"));
  }

  private static String at(JsonNode placement) {
    return placement.path("start").asInt() + ":" + placement.path("size").asInt();
  }

  private static int gpuInstanceId(JsonNode gpu, String profile) {
    for (JsonNode gi : gpu.path("gpuInstances")) {
      if (gi.path("profile").asString().equals(profile)) {
        return gi.path("id").asInt();
      }
    }
    return fail("no %s GPU instance on GPU %s", profile, gpu.path("index"));
  }

  static String resource(String name) {
    try {
      return Path.of(CommandLineIT.class.getResource(name).toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
