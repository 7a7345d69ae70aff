package io.migd.bench.fragmentation;

import io.migd.layout.LiveGpuInstance;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.pool.DeviceTaints;
import io.migd.pool.Facts;
import io.migd.pool.GpuFacts;
import io.migd.pool.PoolBuilder;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolGpu;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * migd's pool as {@link PoolBuilder} publishes it for an all-dynamic node whose claims are all
 * prepared: each held device is a GPU instance NVML shows (one compute instance spanning it) and a
 * completed claim ({@link CheckpointClaim}) that owns it, as the checkpoint would record it.
 */
final class MigdPool {
  /** A claim's device: its name, GPU, profile, placement and GPU instance id. */
  record Held(String device, GpuFacts gpu, GpuFacts.MigProfile profile, int start, int giId) {
    CheckpointClaim claimed() {
      var made =
          new ClaimDevice.Made(
              device,
              gpu.gpu(),
              gpu.uuid(),
              new ClaimDevice.MigInstance(giId, 0, Facts.migUuid(gpu, giId, 0)));
      return new CheckpointClaim(
          new ClaimKey("uid-" + giId, "default", "claim-" + giId),
          true,
          List.of(new CheckpointClaim.Device(made, Kind.CREATED, List.of(), List.of(), "")));
    }
  }

  private MigdPool() {}

  static PoolContent build(String driver, String node, List<GpuFacts> gpus, Collection<Held> held) {
    var poolGpus = new ArrayList<PoolGpu>(gpus.size());
    for (var gpu : gpus) {
      var instances =
          held.stream()
              .filter(h -> h.gpu().equals(gpu))
              .map(h -> Facts.instance(gpu, h.giId(), h.profile().name(), h.start()))
              .toArray(LiveGpuInstance[]::new);
      poolGpus.add(
          new PoolGpu(
              gpu, instances.length == 0 ? Facts.migOff(gpu) : Facts.migOn(gpu, instances), true));
    }
    List<CheckpointClaim> claimed = held.stream().map(Held::claimed).toList();
    return PoolBuilder.build(
            new PoolBuilder.Input(driver, node, poolGpus, () -> claimed, DeviceTaints.NONE, false))
        .content();
  }
}
