package io.migd.pool;

import io.migd.devices.DraTaints;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.ownership.ClaimedDevices;
import io.migd.plan.Decision;
import io.migd.profiles.Sharing;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.Resolution;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A {@link PoolSurface} as the daemon wires it, over a node snapshot the test sets: facts read from
 * what is observed (by UUID, at the observed index and minor), outcomes told as the reconcile loop
 * tells them, and every publication the sink received, in order.
 */
final class Surfaced {
  final AtomicReference<ObservedNode> node = new AtomicReference<>(new ObservedNode(List.of()));
  final DraTaints health = new DraTaints();
  final List<PoolSurface.Publication> published = new CopyOnWriteArrayList<>();
  final Map<String, GpuFacts> factsByUuid = new ConcurrentHashMap<>();
  final PoolSurface surface;
  private long generation;

  Surfaced(ClaimedDevices claimed, Consumer<PoolSurface.Publication> alsoTell) {
    surface =
        new PoolSurface(
            new PoolSurface.Settings(Pools.DRIVER, Pools.NODE),
            this::facts,
            node::get,
            claimed,
            health,
            publication -> {
              alsoTell.accept(publication);
              published.add(publication);
            });
    surface.publishing(new PoolSurface.Publishing(true, false));
  }

  Surfaced() {
    this(ClaimedDevices.NONE, publication -> {});
  }

  /** The facts of an observed GPU: its model's, at the index and minor it is observed at. */
  private GpuFacts facts(ObservedGpu gpu) {
    GpuFacts base = factsByUuid.get(gpu.uuid());
    return new GpuFacts(
        gpu.index(),
        gpu.minor(),
        base.uuid(),
        base.productName(),
        base.brand(),
        base.architecture(),
        base.cudaComputeCapability(),
        base.driverVersion(),
        base.cudaDriverVersion(),
        base.pciBusId(),
        base.pcieRoot(),
        base.numaNode(),
        base.memoryBytes(),
        base.profiles());
  }

  /** Knows {@code facts}' GPU (its UUID), for when it is observed. */
  Surfaced knows(GpuFacts... facts) {
    for (GpuFacts f : facts) {
      factsByUuid.put(f.uuid(), f);
    }
    return this;
  }

  /**
   * A reconcile ends with {@code observed}: the snapshot takes it first (as in the daemon), then
   * the surface; the GPUs of {@code dynamic} are dynamic, every other one unselected.
   */
  void reconciled(ObservedNode observed, Set<GpuIndex> dynamic) {
    node.set(observed);
    var gpus = new TreeMap<GpuIndex, Outcome.Gpu>();
    for (GpuIndex gpu : observed.indices()) {
      gpus.put(
          gpu,
          dynamic.contains(gpu)
              ? new Outcome.Gpu(
                  new Resolution.Target(GpuTarget.dynamic(gpu)),
                  new Decision.InSync(),
                  new GpuResult.InSync())
              : new Outcome.Gpu(
                  new Resolution.Unselected(new Sharing.TimeSliced(1), Map.of()),
                  new Decision.Unmanaged(),
                  new GpuResult.Unmanaged()));
    }
    surface.reconciled(
        Desired.none(), new Outcome(++generation, gpus, observed, "", Instant.EPOCH));
  }

  void reconciled(ObservedNode observed) {
    reconciled(observed, Set.of());
  }

  /** A reconcile that could not even list the GPUs. */
  void failed(String why) {
    surface.reconciled(Desired.none(), Outcome.failed(++generation, why, Instant.EPOCH));
  }

  /**
   * {@code gpu} as NVML numbers it after a reset renumbered the GPUs: index and minor {@code i}.
   */
  static ObservedGpu at(ObservedGpu gpu, int i) {
    return new ObservedGpu(
        new GpuIndex(i),
        gpu.uuid(),
        gpu.name(),
        gpu.pci(),
        gpu.memoryMiB(),
        gpu.migCapable(),
        gpu.migMode(),
        gpu.gpuInstances(),
        gpu.processes(),
        i);
  }

  /** The last publication the sink received. */
  PoolSurface.Publication last() {
    return published.getLast();
  }
}
