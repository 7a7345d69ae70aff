package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.app.StateLock;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every exit status of every command, as a user sees it: an expected condition is exactly one line
 * on stderr, never a stack trace, for {@code serve} as for the one-shot commands.
 */
class ExitStatusIT {
  private static final String A100 = "--simulate=A100-SXM4-40GB";
  private static final String KNOWN_MODELS =
      "known models: A30, A100-SXM4-40GB, A100-SXM4-80GB, H100-SXM5-80GB, H100-NVL, H200, B200,"
          + " T4, L4, L40S";

  @TempDir Path dir;

  /**
   * One refused command.
   *
   * @param setUp what the node looks like (environment, a file in the way)
   * @param line what the one stderr line says, in order
   */
  record Case(
      String name,
      UnaryOperator<MigdProcess> setUp,
      List<String> args,
      int exitStatus,
      List<String> line) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    UnaryOperator<MigdProcess> plain = m -> m;
    UnaryOperator<MigdProcess> stateDirIsAFile = m -> writing(m, m.stateDir(), "not a directory");
    UnaryOperator<MigdProcess> noNvml =
        m -> m.withEnvironment("MIGD_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
    return Stream.of(
        new Case(
            "apply: -f names a missing file",
            plain,
            List.of("apply", "-f", "/nonexistent/layout.yaml", A100),
            2,
            List.of("migd: cannot read config file /nonexistent/layout.yaml: no such file")),
        new Case(
            "plan: migd.config-file names a missing file",
            m -> m.withEnvironment("MIGD_CONFIGFILE", "/nonexistent/layout.yaml"),
            List.of("plan", "-c", "any", A100),
            2,
            List.of("migd: cannot read config file /nonexistent/layout.yaml: no such file")),
        new Case(
            "assert: -f names a directory",
            plain,
            List.of("assert", "-f", "/", A100),
            2,
            List.of("migd: cannot read config file /: it is a directory")),
        new Case(
            "apply: MIG enabled without mig-devices",
            plain,
            List.of("apply", "-f", CommandLineIT.resource("enabled-without-devices.yaml"), A100),
            2,
            List.of(
                "migd: enabled-without-devices.yaml: config \"enabled\", item 0:",
                "\"mig-devices\" is missing")),
        new Case(
            "apply: an unknown option",
            plain,
            List.of("apply", "--no-such-option", A100),
            2,
            List.of("migd: unknown option", "--no-such-option", "migd apply --help")),
        new Case(
            "export: a property of the wrong type",
            plain,
            List.of("export", "--migd.reconcile.resync=soon", A100),
            2,
            List.of("migd: invalid value for migd.reconcile.resync (soon)")),
        new Case(
            "export: an unknown simulated model",
            plain,
            List.of("export", "--simulate=A100-SXM4-40GB,A100-PCIE-40GB"),
            2,
            List.of("migd: unknown GPU model \"A100-PCIE-40GB\" in --simulate;", KNOWN_MODELS)),
        new Case(
            "serve: an unknown simulated model",
            plain,
            List.of("serve", "--simulate=K80"),
            2,
            List.of("migd: unknown GPU model \"K80\" in --simulate;", KNOWN_MODELS)),
        new Case(
            "serve: migd.config-file names a missing file",
            m -> m.withEnvironment("MIGD_CONFIGFILE", "/nonexistent/layout.yaml"),
            List.of("serve", A100),
            2,
            List.of("migd: cannot read config file /nonexistent/layout.yaml: no such file")),
        new Case(
            "serve: an invalid config file",
            plain,
            List.of(
                "serve",
                "--migd.config-file=" + CommandLineIT.resource("enabled-without-devices.yaml"),
                A100),
            2,
            List.of("migd: enabled-without-devices.yaml: config \"enabled\", item 0:")),
        new Case(
            "serve: token auth without migd.auth.token-file",
            m -> m.withEnvironment("SERVER_PORT", "0").withEnvironment("MIGD_AUTH_MODE", "token"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.auth.mode=token needs migd.auth.token-file")),
        new Case(
            "serve: token auth with a missing token file",
            m ->
                m.withEnvironment("SERVER_PORT", "0")
                    .withEnvironment("MIGD_AUTH_MODE", "token")
                    .withEnvironment("MIGD_AUTH_TOKENFILE", "/nonexistent/token"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.auth.token-file /nonexistent/token cannot be read")),
        new Case(
            "serve: token auth with an empty token file",
            m ->
                writing(m, m.stateDir().resolveSibling("token"), " \n")
                    .withEnvironment("SERVER_PORT", "0")
                    .withEnvironment("MIGD_AUTH_MODE", "token")
                    .withEnvironment(
                        "MIGD_AUTH_TOKENFILE", m.stateDir().resolveSibling("token").toString()),
            List.of("serve", A100),
            2,
            List.of("migd: migd.auth.token-file ", "token is empty; write the API token into it")),
        new Case(
            "serve: kubernetes auth without NODE_NAME",
            m ->
                m.withEnvironment("SERVER_PORT", "0")
                    .withEnvironment("MIGD_AUTH_MODE", "kubernetes"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.auth.mode=kubernetes needs NODE_NAME")),
        new Case(
            "serve: no auth on every address",
            m -> m.withEnvironment("SERVER_PORT", "0").withEnvironment("SERVER_ADDRESS", "0.0.0.0"),
            List.of("serve", A100),
            2,
            List.of(
                "migd: migd.auth.mode=none serves the REST API without authentication",
                "it is 0.0.0.0",
                "migd.auth.mode=token or kubernetes")),
        new Case(
            "serve: an unknown auth mode",
            m -> m.withEnvironment("SERVER_PORT", "0").withEnvironment("MIGD_AUTH_MODE", "basic"),
            List.of("serve", A100),
            2,
            List.of("migd: invalid value for migd.auth.mode (basic)")),
        new Case(
            "serve: dra mode without CDI",
            m -> m.withEnvironment("SERVER_PORT", "0").withEnvironment("MIGD_KUBELET_MODE", "dra"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.kubelet.mode=dra needs migd.cdi.enabled=true")),
        new Case(
            "serve: CDI without the driver root mounted",
            m -> m.withEnvironment("SERVER_PORT", "0").withEnvironment("MIGD_CDI_ENABLED", "true"),
            List.of("serve", A100),
            2,
            List.of(
                "migd: the host's driver root is not mounted at /driver-root"
                    + " (migd.cdi.container-driver-root)")),
        new Case(
            "serve: CDI without the hook",
            m ->
                m.withEnvironment("SERVER_PORT", "0")
                    .withEnvironment("MIGD_CDI_ENABLED", "true")
                    .withEnvironment("MIGD_CDI_CONTAINERDRIVERROOT", "/")
                    .withEnvironment("MIGD_CDI_HOOKPATH", "/nonexistent/nvidia-cdi-hook"),
            List.of("serve", A100),
            2,
            List.of(
                "migd: no nvidia-cdi-hook at /nonexistent/nvidia-cdi-hook (migd.cdi.hook-path)")),
        new Case(
            "serve: migd.sysfs-root missing",
            m ->
                m.withEnvironment("SERVER_PORT", "0")
                    .withEnvironment("MIGD_SYSFSROOT", "/nonexistent/sys"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.sysfs-root: /nonexistent/sys does not exist")),
        new Case(
            "serve: migd.kubelet.pod-resources-socket is a directory",
            m ->
                m.withEnvironment("SERVER_PORT", "0")
                    .withEnvironment("MIGD_KUBELET_PODRESOURCESSOCKET", "/tmp"),
            List.of("serve", A100),
            2,
            List.of(
                "migd: migd.kubelet.pod-resources-socket: /tmp is a directory, not the kubelet's PodResources socket")),
        new Case(
            "serve: migd.kubelet.device-plugin-dir is a file",
            m ->
                aFile(m)
                    .withEnvironment("SERVER_PORT", "0")
                    .withEnvironment("MIGD_KUBELET_DEVICEPLUGINDIR", aFilePath(m).toString()),
            List.of("serve", A100),
            2,
            List.of("migd: migd.kubelet.device-plugin-dir: ", "a-file is not a directory")),
        new Case(
            "serve: migd.cdi.dir under a file",
            m -> aFile(m.withCdi(aFilePath(m).resolve("cdi"))).withEnvironment("SERVER_PORT", "0"),
            List.of("serve", A100),
            2,
            List.of(
                "migd: migd.cdi.dir: ",
                "a-file/cdi cannot be created: ",
                "a-file is not a directory")),
        new Case(
            "serve: migd.mps.root relative",
            m -> m.withEnvironment("SERVER_PORT", "0").withEnvironment("MIGD_MPS_ROOT", "run/mps"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.mps.root: run/mps is not an absolute path")),
        new Case(
            "serve: migd.dra.registry-dir is a file",
            m -> aFile(inDra(m)).withEnvironment("MIGD_DRA_REGISTRYDIR", aFilePath(m).toString()),
            List.of("serve", A100),
            2,
            List.of("migd: migd.dra.registry-dir: ", "a-file is not a directory")),
        new Case(
            "serve: migd.dra.plugin-dir relative",
            m -> inDra(m).withEnvironment("MIGD_DRA_PLUGINDIR", "plugins/gpu.nvidia.com"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.dra.plugin-dir: plugins/gpu.nvidia.com is not an absolute path")),
        new Case(
            "serve: migd.dra.proc-root without the boot id",
            m -> inDra(m).withEnvironment("MIGD_DRA_PROCROOT", "/tmp"),
            List.of("serve", A100),
            2,
            List.of("migd: migd.dra.proc-root: /tmp/sys/kernel/random/boot_id cannot be read")),
        new Case(
            "serve: an unknown kubelet mode",
            m -> m.withEnvironment("SERVER_PORT", "0").withEnvironment("MIGD_KUBELET_MODE", "csi"),
            List.of("serve", A100),
            2,
            List.of("migd: invalid value for migd.kubelet.mode (csi)")),
        new Case(
            "serve: a property migd does not know",
            m -> m.withEnvironment("SERVER_PORT", "0"),
            List.of("serve", A100, "--migd.reconcile.resynk=1m"),
            2,
            List.of(
                "migd: --migd.reconcile.resynk is not a migd property (a typo?); the closest is"
                    + " migd.reconcile.resync")),
        new Case(
            "plan: a property migd does not know, in the environment",
            m -> m.withEnvironment("MIGD_RECONCILE_RESYNK", "1m"),
            List.of("plan", "-c", "all-balanced", A100),
            2,
            List.of("migd: the environment variable MIGD_RECONCILE_RESYNK is not a migd property")),
        new Case(
            "apply: the state directory is a file",
            stateDirIsAFile,
            List.of("apply", "-c", "all-balanced", A100),
            3,
            List.of("migd: cannot use the state directory", "MIGD_STATEDIR")),
        new Case(
            "serve: the state directory is a file",
            stateDirIsAFile,
            List.of("serve", A100),
            3,
            List.of("migd: cannot use the state directory", "MIGD_STATEDIR")),
        new Case(
            "serve: the persisted intent cannot be read",
            m ->
                writing(m, m.stateDir().resolve("intent.json"), "{not json")
                    .withEnvironment("SERVER_PORT", "0"),
            List.of("serve", A100),
            3,
            List.of("migd: the persisted intent", "intent.json", "fix or remove it")),
        new Case(
            "serve: the persisted intent is JSON without a key",
            m ->
                writing(
                        m,
                        m.stateDir().resolve("intent.json"),
                        "{\"formatVersion\":1,\"source\":\"REST\",\"generation\":2}")
                    .withEnvironment("SERVER_PORT", "0"),
            List.of("serve", A100),
            3,
            List.of("migd: the persisted intent", "intent.json", "\"config\" is missing")),
        new Case(
            "export: NVML missing",
            noNvml,
            List.of("export"),
            3,
            List.of("migd: ", "/nonexistent/libnvidia-ml.so.1", "MIGD_NVML_LIBRARY", "--simulate")),
        new Case(
            "serve: NVML missing",
            noNvml.andThen(m -> m.withEnvironment("SERVER_PORT", "0"))::apply,
            List.of("serve"),
            3,
            List.of("migd: ", "/nonexistent/libnvidia-ml.so.1", "MIGD_NVML_LIBRARY", "--simulate")),
        new Case(
            "export: the simulated NVML cannot be extracted",
            m -> m.withEnvironment("MIGD_NVML_EXTRACTDIR", "/proc/migd-cannot-be-here"),
            List.of("export", A100),
            3,
            List.of(
                "migd: cannot extract the simulated NVML into /proc/migd-cannot-be-here",
                "MIGD_NVML_EXTRACTDIR")),
        new Case(
            "export: native access off",
            MigdProcess::withoutNativeAccess,
            List.of("export", A100),
            3,
            List.of("migd: ", "--enable-native-access=ALL-UNNAMED")),
        new Case(
            "serve: native access off",
            m -> m.withoutNativeAccess().withEnvironment("SERVER_PORT", "0"),
            List.of("serve", A100),
            3,
            List.of("migd: ", "--enable-native-access=ALL-UNNAMED")));
  }

  /** The node in dra mode, its registry and plugin directories under the node's directory. */
  private static MigdProcess inDra(MigdProcess migd) {
    Path node = migd.stateDir().getParent();
    return migd.withCdi(node.resolve("cdi"))
        .withEnvironment("SERVER_PORT", "0")
        .withEnvironment("MIGD_KUBELET_MODE", "dra")
        .withEnvironment("MIGD_DRA_REGISTRYDIR", node.resolve("registry").toString())
        .withEnvironment("MIGD_DRA_PLUGINDIR", node.resolve("plugins/gpu.nvidia.com").toString());
  }

  /** A plain file in the node's directory, where a path property names a directory. */
  private static Path aFilePath(MigdProcess migd) {
    return migd.stateDir().resolveSibling("a-file");
  }

  private static MigdProcess aFile(MigdProcess migd) {
    return writing(migd, aFilePath(migd), "not a directory");
  }

  /** The node with {@code content} written at {@code file}, where migd expects something else. */
  private static MigdProcess writing(MigdProcess migd, Path file, String content) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return migd;
  }

  @ParameterizedTest
  @MethodSource("cases")
  void endsWithOneLineAndTheExitStatusOfTheCause(Case c) {
    var migd = c.setUp().apply(MigdProcess.on(dir.resolve("node")).quiet());

    var result = migd.run(c.args().toArray(String[]::new));

    assertThat(result.exitStatus()).as("%s", result).isEqualTo(c.exitStatus());
    assertThat(nonEmptyLines(result.stderr()))
        .as("%s", result)
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line).startsWith(c.line().getFirst());
              assertThat(line).containsSubsequence(c.line());
            });
    assertThat(result.stdout()).as("%s", result).doesNotContain("Exception", "\tat ");
  }

  @Test
  void refusesToServeOrApplyWhileAnotherProcessHoldsTheStateLock() throws IOException {
    var migd = MigdProcess.on(dir.resolve("node")).quiet();
    Files.createDirectories(migd.stateDir());
    // this test JVM is "another process" for the child: the lock is an flock
    var attempt = StateLock.tryAcquire(migd.stateDir());
    assertThat(attempt).isInstanceOf(StateLock.Attempt.Acquired.class);
    try (var held = ((StateLock.Attempt.Acquired) attempt).lock()) {
      Path lockFile = migd.stateDir().resolve(StateLock.FILE_NAME);

      var serve = migd.withEnvironment("SERVER_PORT", "0").run("serve", A100);
      var apply = migd.run("apply", "-c", "all-balanced", A100);

      assertThat(serve.exitStatus()).as("%s", serve).isEqualTo(3);
      assertThat(nonEmptyLines(serve.stderr()))
          .singleElement()
          .isEqualTo(
              "migd: another migd holds "
                  + lockFile
                  + " (pid "
                  + ProcessHandle.current().pid()
                  + "); only one daemon may run per node");
      assertThat(apply.exitStatus()).as("%s", apply).isEqualTo(3);
      assertThat(nonEmptyLines(apply.stderr()))
          .singleElement()
          .asString()
          .startsWith("migd: a migd daemon holds " + lockFile)
          .contains("--force");
    }
  }

  @Test
  void servesNotWhenItsPortIsTakenAndSaysWhich() throws IOException {
    try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      var migd = MigdProcess.on(dir.resolve("node")).quiet();

      var serve = migd.run("serve", A100, "--server.port=" + port);

      assertThat(serve.exitStatus()).as("%s", serve).isEqualTo(3);
      assertThat(nonEmptyLines(serve.stderr()))
          .singleElement()
          .isEqualTo(
              "migd: port "
                  + port
                  + " is already in use; stop what listens there or choose another with"
                  + " --server.port=PORT");
    }
  }

  @Test
  void refusesToExportAGpuInstanceSplitIntoComputeInstancesOfDifferentSizes() throws IOException {
    var migd = MigdProcess.on(dir.resolve("node")).quiet();
    var enable = migd.run("apply", "-c", "all-enabled", A100);
    assertThat(enable.exitStatus()).as("%s", enable).isZero();
    int gpuInstance = splitA3g(migd.stateFile());

    var export = migd.run("export", A100);

    assertThat(export.exitStatus()).as("%s", export).isEqualTo(1);
    assertThat(export.stdout()).isEmpty();
    assertThat(nonEmptyLines(export.stderr()))
        .singleElement()
        .isEqualTo(
            "migd: cannot export GPU 0: GPU instance "
                + gpuInstance
                + " (3g.20gb) is split into compute instances of different sizes (1c.3g.20gb,"
                + " 2c.3g.20gb), which mig-parted's config format cannot express");
  }

  /**
   * Splits a new 3g GPU instance of GPU 0 into a 2-slice and a 1-slice compute instance, through
   * NVML on the node's state file, as another tool (nvidia-smi) could; returns its id.
   */
  private int splitA3g(Path stateFile) {
    var sim = SimulatedNvml.extract(dir.resolve("in-process"));
    sim.require("state", stateFile.toString());
    try (Nvml nvml =
        FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE)) {
      var gpu = nvml.deviceByIndex(0);
      var threeSlice =
          nvml.gpuInstanceProfiles(gpu).stream()
              .filter(p -> p.sliceCount() == 3)
              .findFirst()
              .orElseThrow();
      var gi = nvml.createGpuInstance(gpu, threeSlice.id(), new InstancePlacement(4, 4));
      for (var at : List.of(new InstancePlacement(0, 2), new InstancePlacement(2, 1))) {
        var ci =
            nvml.computeInstanceProfiles(gi).stream()
                .filter(p -> p.sliceCount() == at.size())
                .findFirst()
                .orElseThrow();
        nvml.createComputeInstance(gi, ci.id(), at);
      }
      return nvml.gpuInstanceInfo(gi).id();
    }
  }

  private static List<String> nonEmptyLines(String text) {
    return text.lines().filter(line -> !line.isBlank()).toList();
  }
}
