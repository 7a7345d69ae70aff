package io.migd.claims;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Device;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.ClaimDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a restart does with the checkpoint: a claim whose prepare had started is undone (its
 * half-made instances destroyed, its CDI spec and entry removed), a completed claim's instances are
 * adopted where NVML still shows them, and on dynamic GPUs the instances no claim owns are
 * destroyed when idle, kept and reported when a process uses them.
 */
final class CheckpointRecovery {
  private static final Logger log = LoggerFactory.getLogger(CheckpointRecovery.class);

  private final ClaimRecords records;
  private final ClaimCheckpoint checkpoint;
  private final ClaimInstances instances;
  private final ClaimCdi cdi;
  private final GpuLanes lanes;

  CheckpointRecovery(ClaimRecords records, ClaimInstances instances, ClaimCdi cdi, GpuLanes lanes) {
    this.records = records;
    this.checkpoint = records.checkpoint();
    this.instances = instances;
    this.cdi = cdi;
    this.lanes = lanes;
  }

  List<RecoveryFinding> recover(Set<GpuIndex> dynamic) {
    var found = new ArrayList<RecoveryFinding>();
    switch (checkpoint.loaded()) {
      case ClaimCheckpoint.Loaded.Empty() -> {}
      case ClaimCheckpoint.Loaded.Read _ -> {}
      case ClaimCheckpoint.Loaded.OtherBoot(var previous) ->
          found.add(
              new RecoveryFinding.CheckpointDropped(
                  "written under boot " + previous + ", before the node rebooted"));
      case ClaimCheckpoint.Loaded.Corrupt(var reason, var keptAt) ->
          found.add(
              new RecoveryFinding.CheckpointDropped(
                  "it is corrupt (" + reason + "); moved to " + keptAt));
    }
    for (CheckpointClaim claim : checkpoint.claims()) {
      try {
        if (claim.completed()) {
          adopt(claim, found);
        } else {
          undo(claim, found);
        }
      } catch (RuntimeException e) {
        found.add(
            new RecoveryFinding.Failed(
                "claim " + claim.claim().label() + ": recovery failed: " + e.getMessage()));
      }
    }
    for (GpuIndex gpu : dynamic) {
      try {
        var owners = records.others(null, gpu);
        for (var swept : lanes.run(gpu, () -> instances.sweep(gpu, owners, gi -> true))) {
          LiveGpuInstance gi = swept.instance();
          found.add(
              swept.kept()
                  ? new RecoveryFinding.KeptInUse(
                      gpu, gi.id(), gi.profile().toString(), swept.holders())
                  : new RecoveryFinding.Destroyed(gpu, gi.id(), gi.profile().toString()));
        }
      } catch (RuntimeException e) {
        found.add(
            new RecoveryFinding.Failed("GPU " + gpu + ": sweeping failed: " + e.getMessage()));
      }
    }
    found.forEach(f -> log.info("dra recovery: {}", f.sentence()));
    return List.copyOf(found);
  }

  private void undo(CheckpointClaim claim, List<RecoveryFinding> found) {
    String uid = claim.claim().uid();
    for (Device d : claim.devices()) {
      if (d.kind() == Kind.CREATED) {
        lanes.run(
            d.gpu(),
            () -> {
              instances.release(d.device(), records.others(claim.claim(), d.gpu()), true);
              return null;
            });
      }
    }
    cdi.remove(uid);
    checkpoint.remove(uid);
    found.add(new RecoveryFinding.Undone(claim.claim()));
  }

  private void adopt(CheckpointClaim claim, List<RecoveryFinding> found) {
    var devices = new ArrayList<Device>();
    for (Device d : claim.devices()) {
      if (d.kind() != Kind.CREATED) {
        devices.add(d);
        continue;
      }
      if (d.device() instanceof ClaimDevice.Whole) {
        devices.add(d);
        continue;
      }
      Optional<LiveGpuInstance> now = lanes.run(d.gpu(), () -> instances.find(d.device()));
      var ci = now.flatMap(gi -> gi.computeInstances().stream().findFirst());
      if (now.isEmpty()) {
        found.add(new RecoveryFinding.Gone(claim.claim(), d.name()));
        devices.add(d);
        continue;
      }
      if (ci.isEmpty()) {
        // an unprepare cut short between its two destroys: the claim keeps it until the retry
        found.add(new RecoveryFinding.Adopted(claim.claim(), d.name(), d.device().deviceUuid()));
        devices.add(d);
        continue;
      }
      String uuid = ci.get().uuid();
      devices.add(
          d.with(
              new ClaimDevice.Made(
                  d.name(),
                  d.gpu(),
                  d.device().gpuUuid(),
                  new ClaimDevice.MigInstance(now.get().id(), ci.get().id(), uuid))));
      found.add(new RecoveryFinding.Adopted(claim.claim(), d.name(), uuid));
    }
    if (!devices.equals(claim.devices())) {
      checkpoint.put(claim.with(true, devices));
    }
  }
}
