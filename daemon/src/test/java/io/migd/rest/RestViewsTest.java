package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.api.rest.GpuStatus;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ClaimedDevice;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.List;
import org.junit.jupiter.api.Test;

class RestViewsTest {
  private static final GpuIndex GPU = new GpuIndex(0);

  @Test
  void aSliceAPreparedClaimOwnsNamesTheClaimAndIsInUseWithoutAProcess() {
    ProfileName oneG = ProfileName.parse("1g.10gb");
    var claimed =
        new LiveGpuInstance(
            7,
            19,
            oneG,
            new Placement(6, 1),
            List.of(new LiveComputeInstance(0, 0, oneG, new Placement(0, 1), "MIG-claimed")));
    var idle =
        new LiveGpuInstance(
            8,
            19,
            oneG,
            new Placement(5, 1),
            List.of(new LiveComputeInstance(0, 0, oneG, new Placement(0, 1), "MIG-idle")));
    var gpu =
        new ObservedGpu(
            GPU,
            "GPU-0",
            "NVIDIA H100 80GB HBM3",
            new PciInfo("00000000:3B:00.0", 0, 0x3b, 0, 0x233010DE, 0x16C110DE),
            81559,
            true,
            new MigMode(true, true),
            List.of(claimed, idle),
            List.of());
    var entry =
        new CheckpointClaim.Device(
            new ClaimDevice.Made(
                "gpu-0-mig-1g10gb-19-6",
                GPU,
                "GPU-0",
                new ClaimDevice.MigInstance(7, 0, "MIG-claimed")),
            CheckpointClaim.Kind.STATIC,
            List.of(),
            List.of(),
            "");
    var device =
        new ClaimedDevice(
            new CheckpointClaim(new ClaimKey("uid-1", "ml", "train"), true, List.of(entry)), entry);

    GpuStatus status = RestViews.gpu(gpu, Usage.NONE, 1, List.of(device));

    assertThat(status.slices()).hasSize(2);
    GpuStatus.Slice first = status.slices().get(0);
    assertThat(first.uuid()).isEqualTo("MIG-claimed");
    assertThat(first.inUse()).isTrue();
    assertThat(first.claim())
        .isEqualTo(new GpuStatus.Claim("ml", "train", "uid-1", "gpu-0-mig-1g10gb-19-6", true));
    GpuStatus.Slice second = status.slices().get(1);
    assertThat(second.inUse()).isFalse();
    assertThat(second.claim()).isNull();
  }
}
