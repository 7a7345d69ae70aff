package io.migd.claims;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.claims.RecoveryFinding.Adopted;
import io.migd.claims.RecoveryFinding.CheckpointDropped;
import io.migd.claims.RecoveryFinding.Destroyed;
import io.migd.claims.RecoveryFinding.KeptInUse;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.ownership.ClaimedDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restart over the DRA checkpoint, and the periodic claim check. GPU 0 is an A100. */
class CheckpointRecoveryIT {
  @TempDir Path dir;
  private ClaimsRig rig;

  @BeforeEach
  void start() {
    rig = ClaimsRig.start(dir, "A100-SXM4-40GB");
    rig.enableMig(0);
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  @Test
  void aRestartAdoptsACompletedClaimsInstance() {
    var claim = rig.allocate("c1", rig.deviceAt(0, "2g.10gb", 2));
    var answer = rig.prepare(claim);
    LiveGpuInstance made = rig.instances(0).getFirst();

    var found = rig.restart();

    assertThat(found)
        .containsExactly(
            new Adopted(
                claim, rig.deviceAt(0, "2g.10gb", 2), made.computeInstances().getFirst().uuid()));
    assertThat(rig.instances(0)).containsExactly(made);
    assertThat(rig.prepare(claim)).isEqualTo(answer);
    assertThat(rig.preparer.claimed().all()).singleElement().matches(ClaimedDevice::completed);
  }

  @Test
  void aCheckpointOfAnotherBootIsDroppedAndItsInstancesSweptAway() {
    rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 0)));
    rig.writeBootId("boot-2");

    var found = rig.restart();

    assertThat(found).first().isInstanceOf(CheckpointDropped.class);
    assertThat(found.getFirst().sentence()).contains("boot-1");
    assertThat(found).hasSize(2).last().isInstanceOf(Destroyed.class);
    assertThat(rig.preparer.claimed().all()).isEmpty();
    assertThat(rig.instances(0)).isEmpty();
  }

  @Test
  void aCorruptCheckpointIsReportedMovedAsideAndTreatedAsEmpty() throws Exception {
    rig.prepare(rig.allocate("c1", rig.deviceAt(0, "1g.5gb", 0)));
    Path file = dir.resolve("state").resolve(ClaimCheckpoint.FILE_NAME);
    Files.writeString(file, Files.readString(file).replace("claim-c1", "claim-c2"));

    var found = rig.restart();

    assertThat(found.getFirst()).isInstanceOf(CheckpointDropped.class);
    assertThat(found.getFirst().sentence()).contains("checksum").contains(".corrupt");
    assertThat(dir.resolve("state").resolve(ClaimCheckpoint.FILE_NAME + ".corrupt")).exists();
    assertThat(rig.preparer.claimed().all()).isEmpty();
  }

  @Test
  void anUnownedInstanceIsDestroyedWhenIdleAndKeptAndReportedWhenAProcessUsesIt() {
    LiveGpuInstance idle = rig.idleInstance(0, "1g.5gb", 0);
    LiveGpuInstance busy = rig.idleInstance(0, "1g.5gb", 1);
    rig.attachProcess(0, busy.id(), 99, "stray");

    var found = rig.restart();

    assertThat(found)
        .containsExactlyInAnyOrder(
            new Destroyed(new GpuIndex(0), idle.id(), "1g.5gb"),
            new KeptInUse(new GpuIndex(0), busy.id(), "1g.5gb", " process 99 (stray)"));
    assertThat(rig.instances(0)).containsExactly(busy);
  }

  @Test
  void theClaimCheckUnpreparesAClaimThatIsGone() {
    var gone = rig.allocate("gone", rig.deviceAt(0, "1g.5gb", 0));
    var kept = rig.allocate("kept", rig.deviceAt(0, "1g.5gb", 1));
    rig.prepare(gone);
    rig.prepare(kept);
    rig.claims.delete(ClaimsRig.NAMESPACE, gone.name());

    assertThat(rig.preparer.claimCheck()).containsExactly(new UnprepareAnswer.Unprepared(gone));

    assertThat(rig.preparer.claimed().all())
        .singleElement()
        .matches(d -> d.key().uid().equals("kept"));
    assertThat(rig.instances(0)).singleElement().matches(gi -> gi.placement().start() == 1);
  }
}
