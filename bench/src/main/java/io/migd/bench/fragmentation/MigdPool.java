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
    /** The claim's device as its prepare's completed record has it. */
    ClaimedDevice claimed() {
      return record(giId, 0, Facts.migUuid(gpu, giId, 0), true);
    }

    /**
     * The claim's device as its prepare's started record has it (written before NVML is touched):
     * the placement planned, no GPU or compute instance, no MIG UUID.
     */
    ClaimedDevice started() {
      return record(-1, -1, "", false);
    }

    private ClaimedDevice record(int gi, int ci, String migUuid, boolean completed) {
      return new ClaimedDevice(
          "uid-" + giId,
          "default",
          "claim-" + giId,
          device,
          gpu.gpu(),
          gpu.uuid(),
          gi,
          ci,
          start,
          profile.sliceCount(),
          migUuid,
          completed);
    }
  }

  private MigdPool() {}

  static PoolContent build(String driver, String node, List<GpuFacts> gpus, Collection<Held> held) {
    return build(driver, node, gpus, held, held.stream().map(Held::claimed).toList());
  }

  /**
   * The pool as migd publishes it right after {@code last}'s prepare (issue 29): the rebuild runs
   * before the prepare's completed record is written, so {@code last} is still its started record.
   */
  static PoolContent afterPrepare(
      String driver, String node, List<GpuFacts> gpus, Collection<Held> held, Held last) {
    List<ClaimedDevice> claimed =
        held.stream().map(h -> h.equals(last) ? h.started() : h.claimed()).toList();
    return build(driver, node, gpus, held, claimed);
  }

  private static PoolContent build(
      String driver,
      String node,
      List<GpuFacts> gpus,
      Collection<Held> held,
      List<ClaimedDevice> claimed) {
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
    return PoolBuilder.build(
            new PoolBuilder.Input(driver, node, poolGpus, () -> claimed, DeviceTaints.NONE, false))
        .content();
  }
}
