package io.migd.pool;

import static io.migd.pool.Pools.claimed;
import static io.migd.pool.Pools.claims;
import static io.migd.pool.Pools.devices;
import static io.migd.pool.Pools.dynamic;
import static io.migd.pool.Pools.fixed;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
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
  void xidOnTheGpuAndALostGpuTaintEveryDevice() {
    BuiltPool xid =
        build(
            STATIC_H100, ClaimedDevices.NONE, new DeviceTaints.Mark.Xid(GPU0, Usage.WHOLE_GPU, 94));
    BuiltPool lost = build(STATIC_H100, ClaimedDevices.NONE, new DeviceTaints.Mark.GpuLost(GPU0));

    assertThat(devices(xid, 0))
        .hasSize(2)
        .allSatisfy(d -> assertThat(d.taints()).containsExactly(XID_94));
    assertThat(devices(lost, 0))
        .hasSize(2)
        .allSatisfy(d -> assertThat(d.taints()).containsExactly(LOST));
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
