package io.migd.mps;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reconcile that wants several MPS daemons asks the supervisor for all of them before it waits
 * for any: a supervisor that starts daemons side by side (here: only once every request is there)
 * runs them all in one pass, and a node without a supervisor holds the pass once, not once per
 * device.
 */
class DaemonReconciliationTest {
  @TempDir Path root;

  private final List<Process> daemons = new ArrayList<>();
  private final List<String> down = new CopyOnWriteArrayList<>();
  private final MpsDaemonState state = new MpsDaemonState();

  @AfterEach
  void stopDaemons() {
    daemons.forEach(Process::destroyForcibly);
  }

  @Test
  void asksForEveryDaemonBeforeWaitingForOne() {
    var paths = new MpsPaths(root);
    var devices = new LinkedHashMap<String, MpsDevice>();
    for (String uuid : List.of("GPU-aaaa", "GPU-bbbb")) {
      devices.put(
          uuid,
          new MpsDevice(
              uuid, new GpuIndex(devices.size()), Usage.WHOLE_GPU, Usage.WHOLE_GPU, 4, 16_000));
    }
    // the supervisor: runs the daemons once both are asked for
    var supervisor =
        new Thread(
            () -> {
              Awaitility.await()
                  .atMost(Duration.ofMinutes(2))
                  .pollInterval(Duration.ofMillis(10))
                  .until(
                      () ->
                          devices.keySet().stream()
                              .allMatch(u -> Files.exists(paths.daemonFile(u))));
              superviseAll(paths, devices.keySet());
            },
            "supervisor");
    supervisor.setDaemon(true);
    supervisor.start();
    var states = new StateFiles(paths);
    var reconciliation = reconciliation(paths, states, Duration.ofSeconds(2));

    reconciliation.reconciled(ObservedNode.none(), devices);

    assertThat(down).as("daemons marked down").isEmpty();
    assertThat(state.running()).containsOnlyKeys("GPU-aaaa", "GPU-bbbb");
  }

  private DaemonReconciliation reconciliation(
      MpsPaths paths, StateFiles states, Duration startTimeout) {
    var requests = new DaemonRequests(paths, 64L << 20);
    MpsControl control = (environment, commands) -> List.of();
    var commands = new DaemonCommands(control, paths, requests, states, startTimeout);
    MpsListener listener =
        new MpsListener() {
          @Override
          public void daemonDown(String uuid) {
            down.add(uuid);
          }
        };
    var lifecycle = new DaemonLifecycle(state, commands, states, listener);
    return new DaemonReconciliation(state, commands, lifecycle, states, requests);
  }

  /** Starts a stand-in daemon (a live process run with {@code -f}) per device, once. */
  private void superviseAll(MpsPaths paths, Iterable<String> uuids) {
    try {
      for (String uuid : uuids) {
        Path stateFile = paths.stateFile(uuid);
        if (Files.exists(stateFile)) {
          continue;
        }
        // sh waits on its stdin, a pipe of this JVM: alive, run with -f, no child of its own
        Process daemon = new ProcessBuilder("sh", "-c", "read line", "-f").start();
        daemons.add(daemon);
        Files.createDirectories(stateFile.getParent());
        Files.writeString(stateFile, "running " + daemon.pid() + "\n");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
