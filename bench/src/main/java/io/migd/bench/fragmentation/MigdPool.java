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
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * migd's pool as {@link PoolBuilder} publishes it for an all-dynamic node whose claims are all
 * prepared: each held device is a GPU instance NVML shows (one compute instance spanning it) and a
 * completed claim ({@link CheckpointClaim}) that owns it, as the checkpoint would record it.
 */
final class MigdPool {
  /** A claim's device: its name, GPU, profile, placement and GPU instance id. */
  record Held(String device, GpuFacts gpu, GpuFacts.MigProfile profile, int start, int giId) {
    /** The claim's device as its prepare's completed record has it. */
    CheckpointClaim claimed() {
      var made =
          new ClaimDevice.Made(
              device,
              gpu.gpu(),
              gpu.uuid(),
              new ClaimDevice.MigInstance(giId, 0, Facts.migUuid(gpu, giId, 0)));
      return record(made, true);
    }

    /**
     * The claim's device as its prepare's started record has it (written before NVML is touched):
     * the placement planned, no GPU or compute instance, no MIG UUID.
     */
    CheckpointClaim started() {
      var planned =
          new ClaimDevice.Planned(
              device,
              gpu.gpu(),
              gpu.uuid(),
              profile.giProfileId(),
              new Placement(start, profile.sliceCount()));
      return record(planned, false);
    }

    private CheckpointClaim record(ClaimDevice d, boolean completed) {
      return new CheckpointClaim(
          new ClaimKey("uid-" + giId, "default", "claim-" + giId),
          completed,
          List.of(new CheckpointClaim.Device(d, Kind.CREATED, List.of(), List.of(), "")));
    }
  }

  /**
   * A share of a whole GPU's twin a claim holds, prepared as the daemon records it: the GPU handed
   * out whole under the twin's name, MIG off, with the share's ID and amounts.
   */
  record HeldShare(String twin, GpuFacts gpu, int id, CheckpointClaim.Share share) {
    CheckpointClaim claimed() {
      return new CheckpointClaim(
          new ClaimKey("uid-share-" + id, "default", "claim-" + id),
          true,
          List.of(
              new CheckpointClaim.Device(
                  new ClaimDevice.Whole(twin, gpu.gpu(), gpu.uuid()),
                  Kind.CREATED,
                  List.of(),
                  List.of(),
                  "",
                  Optional.of(share))));
    }
  }

  private MigdPool() {}

  static PoolContent build(String driver, String node, List<GpuFacts> gpus, Collection<Held> held) {
    return build(driver, node, gpus, held, held.stream().map(Held::claimed).toList(), false);
  }

  /**
   * The pool of an all-dynamic node whose GPUs all ask for shares ({@code shares: true}): each
   * device followed by its shareable twin, twins with prepared shares first.
   */
  static PoolContent withShares(
      String driver,
      String node,
      List<GpuFacts> gpus,
      Collection<Held> held,
      Collection<HeldShare> shares) {
    var claimed = new ArrayList<CheckpointClaim>();
    held.forEach(h -> claimed.add(h.claimed()));
    shares.forEach(s -> claimed.add(s.claimed()));
    return build(driver, node, gpus, held, claimed, true);
  }

  /**
   * The pool as migd publishes it right after {@code last}'s prepare (issue 29): the rebuild runs
   * before the prepare's completed record is written, so {@code last} is still its started record.
   */
  static PoolContent afterPrepare(
      String driver, String node, List<GpuFacts> gpus, Collection<Held> held, Held last) {
    List<CheckpointClaim> claimed =
        held.stream().map(h -> h.equals(last) ? h.started() : h.claimed()).toList();
    return build(driver, node, gpus, held, claimed, false);
  }

  private static PoolContent build(
      String driver,
      String node,
      List<GpuFacts> gpus,
      Collection<Held> held,
      List<CheckpointClaim> claimed,
      boolean shares) {
    var poolGpus = new ArrayList<PoolGpu>(gpus.size());
    for (var gpu : gpus) {
      var instances =
          held.stream()
              .filter(h -> h.gpu().equals(gpu))
              .map(h -> Facts.instance(gpu, h.giId(), h.profile().name(), h.start()))
              .toArray(LiveGpuInstance[]::new);
      poolGpus.add(
          new PoolGpu(
              gpu,
              instances.length == 0 ? Facts.migOff(gpu) : Facts.migOn(gpu, instances),
              true,
              shares));
    }
    return PoolBuilder.build(
            new PoolBuilder.Input(driver, node, poolGpus, () -> claimed, DeviceTaints.NONE, false))
        .content();
  }
}
