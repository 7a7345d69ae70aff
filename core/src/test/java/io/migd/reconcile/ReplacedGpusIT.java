package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN section 1, replaced GPUs: a named config (label, {@code migd.config}, REST {@code
 * {"config": ...}}) applies to the GPUs present, so GPUs whose UUIDs changed (here the simulator's
 * state made again, as a board swap or {@code --simulate} run twice makes them) are reshaped like
 * any other, in a new generation of the same source that says which GPU was replaced. Only an
 * explicit per-GPU layout stays bound to the GPUs it was made for.
 */
class ReplacedGpusIT {
  private static MigConfigFile shipped;
  private static SimulatedNode node;

  @TempDir Path stateDir;

  @BeforeAll
  static void start() throws IOException {
    shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    node = SimulatedNode.start("A100-SXM4-40GB,H100-SXM5-80GB");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  /**
   * The intent service, the reconciler and the UUID recorder, wired as {@code serve} wires them.
   */
  private final class Daemon {
    final IntentService intents;
    final Reconciler reconciler;
    final PresentGpusIntent intent;

    Daemon(Optional<IntentService.FileConfig> file, RebootPolicy reboot) throws IOException {
      intents = new IntentService(new IntentStore(Files.createDirectories(stateDir)), file);
      reconciler = node.reconciler(shipped, reboot);
      intent = new PresentGpusIntent(intents, node.observer);
    }

    Outcome reconcile() {
      Desired desired = intent.get();
      Outcome outcome = reconciler.reconcile(desired);
      new GpuUuidRecorder(intents).reconciled(desired, outcome);
      return outcome;
    }
  }

  @Test
  void aLabelIntentReshapesReplacedGpusAsANewGenerationSayingWhichWasReplaced() throws Exception {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB");
    var daemon = new Daemon(Optional.empty(), RebootPolicy.DISABLED);
    daemon.intents.labelSeen(Optional.of("all-1g.10gb"));

    assertReshapedAfterReplacement(daemon, Desired.Source.LABEL);
  }

  @Test
  void aMigdConfigIntentReshapesReplacedGpus() throws Exception {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB");
    var daemon =
        new Daemon(
            Optional.of(new IntentService.FileConfig("all-1g.10gb", "digest")),
            RebootPolicy.DISABLED);

    assertReshapedAfterReplacement(daemon, Desired.Source.FILE);
  }

  @Test
  void aRestConfigIntentReshapesReplacedGpus() throws Exception {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB");
    var daemon = new Daemon(Optional.empty(), RebootPolicy.DISABLED);
    daemon.intents.change(Desired.Source.REST, new Desired.Intent.NamedConfig("all-1g.10gb"));

    assertReshapedAfterReplacement(daemon, Desired.Source.REST);
  }

  private void assertReshapedAfterReplacement(Daemon daemon, Desired.Source source) {
    assertThat(daemon.reconcile().state()).isEqualTo(GpuResult.State.SUCCESS);
    long generation = daemon.intents.current().generation();
    List<String> before = uuids();
    assertThat(daemon.intents.current().gpuUuids()).containsValues(before.toArray(String[]::new));

    node.sim.init("A100-SXM4-40GB,H100-SXM5-80GB");
    List<String> after = uuids();
    assertThat(after).doesNotContainAnyElementsOf(before);

    Outcome reshaped = daemon.reconcile();

    assertThat(reshaped.state()).as(reshaped.reason()).isEqualTo(GpuResult.State.SUCCESS);
    assertThat(reshaped.generation()).isEqualTo(generation + 1);
    assertThat(daemon.intents.current().source()).isEqualTo(source);
    assertThat(daemon.intents.current().gpuUuids()).containsValues(after.toArray(String[]::new));
    assertThat(reshaped.gpus().get(new GpuIndex(0)).reason())
        .contains("GPU 0 was replaced: " + before.get(0) + " -> " + after.get(0));
    for (ObservedGpu gpu : node.observe().gpus()) {
      assertThat(gpu.migMode().current()).isTrue();
      assertThat(gpu.gpuInstances()).isNotEmpty();
    }
    // said once: the next reconcile is the same generation
    assertThat(daemon.reconcile().generation()).isEqualTo(generation + 1);
  }

  @Test
  void anExplicitLayoutIsNeverAppliedToAReplacedGpu() throws Exception {
    node.reset("A100-SXM4-40GB,H100-SXM5-80GB");
    var daemon = new Daemon(Optional.empty(), RebootPolicy.DISABLED);
    daemon.intents.change(
        Desired.Source.REST,
        new Desired.Intent.Layout(List.of(GpuTarget.mig(new GpuIndex(0), List.of()))));
    assertThat(daemon.reconcile().state()).isEqualTo(GpuResult.State.SUCCESS);
    long generation = daemon.intents.current().generation();

    node.sim.init("A100-SXM4-40GB,H100-SXM5-80GB");
    Outcome refused = daemon.reconcile();

    assertThat(refused.state()).isEqualTo(GpuResult.State.INFEASIBLE);
    assertThat(refused.reason()).contains("an explicit layout is never applied to another GPU");
    assertThat(refused.generation()).isEqualTo(generation);
    assertThat(node.observe().gpus().get(0).migMode().current()).isFalse();
  }

  @Test
  void anAmpereGpuReplacedInAPassThroughSetupGetsTheRebootItNeeds() throws Exception {
    node.reset("A100-SXM4-40GB");
    var requested = new ArrayList<Long>();
    RebootPolicy reboots =
        new RebootPolicy() {
          @Override
          public boolean enabled() {
            return true;
          }

          @Override
          public RebootPolicy.Request requestReboot(long generation) {
            if (requested.contains(generation)) {
              return new RebootPolicy.Request.AlreadyRequested();
            }
            requested.add(generation);
            return new RebootPolicy.Request.Started("");
          }
        };
    var daemon = new Daemon(Optional.empty(), reboots);
    daemon.intents.labelSeen(Optional.of("all-enabled"));
    node.sim.require("passthrough", "--gpu", "0", "on");
    assertThat(daemon.reconcile().state()).isEqualTo(GpuResult.State.REBOOTING);
    node.sim.require("reset", "--gpu", "0"); // the reboot applies the pending mode
    assertThat(daemon.reconcile().state()).isEqualTo(GpuResult.State.SUCCESS);
    long generation = daemon.intents.current().generation();

    // the board is replaced by another Ampere GPU, in the same pass-through setup
    node.sim.init("A100-SXM4-40GB");
    node.sim.require("passthrough", "--gpu", "0", "on");
    Outcome replaced = daemon.reconcile();

    assertThat(replaced.state()).as(replaced.reason()).isEqualTo(GpuResult.State.REBOOTING);
    assertThat(replaced.reason()).contains("a reboot was requested");
    assertThat(requested).containsExactly(generation, generation + 1);
  }

  private static List<String> uuids() {
    return node.observe().gpus().stream().map(ObservedGpu::uuid).toList();
  }
}
