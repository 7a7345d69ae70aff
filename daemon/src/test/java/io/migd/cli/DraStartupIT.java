package io.migd.cli;

import static io.migd.cli.DraServeNode.PATIENCE;
import static io.migd.cli.DraServeNode.prepare;
import static io.migd.cli.DraServeNode.unprepare;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.api.dra.v1.Device;
import io.migd.sim.SimulatedNvml;
import io.migd.sim.SimulatedProc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kubelet plugin is served before the first reconcile ends (DESIGN section 12): while that
 * reconcile is held (the A100's reset, {@code migd.reset-command}, is a script that waits for the
 * test, as in ResetInProgressServeIT), the kubelet registers, an unprepare of an unknown claim
 * succeeds, and a prepare of a device on a GPU not reconciled yet answers the retryable "GPU of
 * device D not reconciled yet" (the pool is not built before the first outcome, so the GPU's index
 * is not known yet); once the reset is let go, the same prepare succeeds.
 */
@EnableKubernetesMockClient(crud = true)
class DraStartupIT {
  private static final String HOLDER_PID = "99";

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path nodeDir;

  @Test
  void answersTheKubeletWhileTheFirstReconcileIsHeld() throws Exception {
    NvmlSimCommand nvmlSim =
        NvmlSimCommand.extract(Files.createDirectories(nodeDir.resolve("cli")));
    Path library =
        SimulatedNvml.extract(Files.createDirectories(nodeDir.resolve("driver"))).libraryPath();
    try (var node =
        DraServeNode.create(
            server,
            client,
            nodeDir,
            List.of(new SimulatedProc.Gpu(0, 8, 7), new SimulatedProc.Gpu(1, 0, 0)))) {
      Path state = node.stateFile();
      nvmlSim.run(state, "init", "--gpus", "A100-SXM4-40GB,T4");
      // a holder NVML does not list keeps the A100's MIG mode change pending: migd resets it
      nvmlSim.run(
          state, "attach", "--gpu", "0", "--holder", "--pid", HOLDER_PID, "--name", "persistenced");
      Path started = nodeDir.resolve("reset-started");
      Path release = nodeDir.resolve("reset-release");
      Path done = nodeDir.resolve("reset-done");
      Path script = nodeDir.resolve("reset.sh");
      String sim = nvmlSim.executable() + " --state '" + state + "' ";
      Files.writeString(
          script,
          String.join(
              "\n",
              "touch '" + started + "'",
              "while [ ! -e '" + release + "' ]; do sleep 0.05; done",
              sim + "detach --pid " + HOLDER_PID,
              sim + "reset --gpu 0",
              "touch '" + done + "'",
              ""));
      try (var daemon =
          node.migd()
              .withEnvironment("MIGD_NVML_LIBRARY", library.toString())
              .withEnvironment("MIGD_NVML_RESETWAIT", "200ms")
              .withEnvironment("MIGD_RESETCOMMAND", "sh," + script + ",{pciBusId}")
              .start("serve")) {
        await().atMost(PATIENCE).until(() -> Files.exists(started));
        try (var kubelet = node.register()) {
          var unknown = unprepare(kubelet, "never", "0f0f0f0f-0000-4000-8000-000000000001");
          assertThat(unknown.getError()).isEmpty();

          String uid = node.createClaim("early", "gpu-1");
          var early = prepare(kubelet, "early", uid);
          assertThat(early.getError())
              .isEqualTo(
                  "GPU of device gpu-1 not reconciled yet"
                      + " (the first reconcile since migd started has not ended)");
          assertThat(Files.exists(done)).as("the reset is still held").isFalse();

          Files.createFile(release);
          var prepared =
              await()
                  .atMost(PATIENCE)
                  .until(() -> prepare(kubelet, "early", uid), r -> r.getError().isEmpty());
          assertThat(prepared.getDevicesList())
              .extracting(Device::getDeviceName)
              .containsExactly("gpu-1");
          assertThat(unprepare(kubelet, "early", uid).getError()).isEmpty();
          assertThat(daemon.isAlive()).as(daemon.stderr()).isTrue();
        }
      }
    }
  }
}
