package io.migd.pool;

import static io.migd.pool.Pools.claimed;
import static io.migd.pool.Pools.claims;
import static io.migd.pool.Pools.devices;
import static io.migd.pool.Pools.dynamic;
import static io.migd.pool.Pools.fixed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.ownership.ClaimedDevices;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolTaintsTest {
  private static final GpuFacts H100 = Facts.of("H100-SXM5-80GB", 0);
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final Taint XID_94 =
      new Taint("gpu.nvidia.com/xid", "94", Taint.Effect.NO_SCHEDULE);
  private static final Taint LOST =
      new Taint("gpu.nvidia.com/gpu-lost", "", Taint.Effect.NO_SCHEDULE);

  private static final PoolGpu STATIC_H100 =
      fixed(
          H100,
          Facts.migOn(
              H100, Facts.instance(H100, 1, "1g.10gb", 0), Facts.instance(H100, 2, "3g.40gb", 4)));

  private static BuiltPool build(PoolGpu gpu, ClaimedDevices claimed, DeviceTaints.Mark... marks) {
    return Pools.build(List.of(gpu), claimed, new DeviceTaints(List.of(marks)));
  }

  @Test
  void xidOnAGpuInstanceTaintsOnlyItsDevice() {
    BuiltPool pool =
        build(STATIC_H100, ClaimedDevices.NONE, new DeviceTaints.Mark.Xid(GPU0, 2, 94));

    assertThat(pool.content().device("gpu-0-mig-3g40gb-9-4").orElseThrow().taints())
        .containsExactly(XID_94);
    assertThat(pool.content().device("gpu-0-mig-1g10gb-19-0").orElseThrow().taints()).isEmpty();
  }

  @Test
  void xidOnTheGpuTaintsEveryDevice() {
    BuiltPool xid =
        build(
            STATIC_H100, ClaimedDevices.NONE, new DeviceTaints.Mark.Xid(GPU0, Usage.WHOLE_GPU, 94));

    assertThat(devices(xid, 0))
        .hasSize(2)
        .allSatisfy(d -> assertThat(d.taints()).containsExactly(XID_94));
  }

  /**
   * A lost GPU as the daemon really has it: the reconcile's observation lists it among the GPUs
   * NVML cannot observe (GPU_IS_LOST). It stays published with its devices as last observed, every
   * one tainted {@code gpu-lost}, and the slices after it keep their names (before, it dropped out
   * of the pool and GPU 1's slice was renamed to GPU 0's).
   */
  @Test
  void aLostGpuStaysPublishedTaintedAndTheSlicesAfterItKeepTheirNames() {
    GpuFacts second = Facts.of("H100-SXM5-80GB", 1);
    var pool = new Surfaced().knows(H100, second);
    pool.reconciled(new ObservedNode(List.of(STATIC_H100.observed(), Facts.migOff(second))));
    var namesBefore = sliceNames(pool.surface.current());

    pool.reconciled(
        new ObservedNode(List.of(Facts.migOff(second)))
            .with(
                GPU0,
                new NvmlException(
                    "nvmlDeviceGetMigMode", NvmlReturn.GPU_IS_LOST, "observing GPU 0")));

    PoolContent content = pool.surface.current();
    assertThat(sliceNames(content)).isEqualTo(namesBefore);
    assertThat(devices(pool.surface.built(), 0))
        .extracting(PoolDevice::name, PoolDevice::taints)
        .containsExactly(
            tuple("gpu-0-mig-1g10gb-19-0", List.of(LOST)),
            tuple("gpu-0-mig-3g40gb-9-4", List.of(LOST)));
    assertThat(devices(pool.surface.built(), 1))
        .extracting(PoolDevice::name, PoolDevice::taints)
        .containsExactly(tuple("gpu-1", List.of()));
  }

  private static List<String> sliceNames(PoolContent content) {
    return content.slices().stream()
        .map(
            s -> s.name() + (s.content() instanceof PoolSlice.Devices(var g, var d) ? "/" + g : ""))
        .toList();
  }

  @Test
  void taintClearsWhenTheMarkIsGone() {
    BuiltPool healthy = build(STATIC_H100, ClaimedDevices.NONE);

    assertThat(devices(healthy, 0)).allSatisfy(d -> assertThat(d.taints()).isEmpty());
  }

  @Test
  void xidOnAPreparedDynamicInstanceTaintsItAndNotThePlacementsThatDoNotExist() {
    String prepared = "gpu-0-mig-3g40gb-9-4";
    BuiltPool pool =
        build(
            dynamic(H100, Facts.migOn(H100, Facts.instance(H100, 2, "3g.40gb", 4))),
            claims(claimed(H100, "c1", prepared, 2, 4, 4)),
            new DeviceTaints.Mark.Xid(GPU0, 2, 94));

    assertThat(devices(pool, 0))
        .allSatisfy(
            d ->
                assertThat(d.taints())
                    .isEqualTo(d.name().equals(prepared) ? List.of(XID_94) : List.of()));
  }

  @Test
  void leavesUnhealthyDevicesOutWhereTheApiServerDropsTaints() {
    BuiltPool pool =
        PoolBuilder.build(
            new PoolBuilder.Input(
                Pools.DRIVER,
                Pools.NODE,
                List.of(STATIC_H100),
                ClaimedDevices.NONE,
                new DeviceTaints(List.of(new DeviceTaints.Mark.Xid(GPU0, 2, 94))),
                true));

    assertThat(Pools.deviceNames(pool, 0)).containsExactly("gpu-0-mig-1g10gb-19-0");
    assertThat(pool.reasons(GPU0))
        .singleElement()
        .satisfies(
            r ->
                assertThat(r)
                    .contains("gpu-0-mig-3g40gb-9-4", "gpu.nvidia.com/xid=94", "left out"));
  }
}
