package io.migd.bench.fragmentation;

import io.migd.claims.ClaimedDevice;
import io.migd.layout.LiveGpuInstance;
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
 * completed {@link ClaimedDevice} that owns it, as the checkpoint would record it.
 */
final class MigdPool {
  /** A claim's device: its name, GPU, profile, placement and GPU instance id. */
  record Held(String device, GpuFacts gpu, GpuFacts.MigProfile profile, int start, int giId) {
    ClaimedDevice claimed() {
      return new ClaimedDevice(
          "uid-" + giId,
          "default",
          "claim-" + giId,
          device,
          gpu.gpu(),
          gpu.uuid(),
          giId,
          0,
          start,
          profile.sliceCount(),
          Facts.migUuid(gpu, giId, 0),
          true);
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
    List<ClaimedDevice> claimed = held.stream().map(Held::claimed).toList();
    return PoolBuilder.build(
            new PoolBuilder.Input(driver, node, poolGpus, () -> claimed, DeviceTaints.NONE, false))
        .content();
  }
}
