package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A dynamic target is MIG enabled with nothing asked for; what shares a GPU is told apart. */
class GpuTargetTest {
  private static final GpuIndex GPU = new GpuIndex(0);

  @Test
  void aDynamicGpuHasMigEnabledNoInstancesAndNoSharing() {
    var dynamic = GpuTarget.dynamic(GPU);

    assertThat(dynamic.dynamic()).isTrue();
    assertThat(dynamic.migEnabled()).isTrue();
    assertThat(dynamic.gpuInstances()).isEmpty();
    assertThat(dynamic.replicated()).isFalse();
    assertThat(GpuTarget.mig(GPU, List.of()).dynamic()).isFalse();
  }

  @Test
  void refusesADynamicGpuThatAsksForInstancesSharingOrMigOff() {
    var oneSlice = List.of(GpuInstanceSpec.whole(ProfileName.parse("1g.5gb")));
    assertThatThrownBy(
            () -> new GpuTarget(GPU, true, oneSlice, new Sharing.TimeSliced(1), Map.of(), true))
        .hasMessageContaining("a dynamic GPU has MIG enabled");
    assertThatThrownBy(
            () -> new GpuTarget(GPU, false, List.of(), new Sharing.TimeSliced(1), Map.of(), true))
        .hasMessageContaining("a dynamic GPU has MIG enabled");
    assertThatThrownBy(
            () -> new GpuTarget(GPU, true, List.of(), new Sharing.Mps(2), Map.of(), true))
        .hasMessageContaining("no sharing");
  }

  @Test
  void isReplicatedWhenTimeSlicedMpsOrSlicesAreShared() {
    assertThat(GpuTarget.whole(GPU, 1).replicated()).isFalse();
    assertThat(GpuTarget.whole(GPU, 2).replicated()).isTrue();
    assertThat(GpuTarget.whole(GPU, new Sharing.Mps(1)).replicated()).isTrue();
    var slice = ProfileName.parse("1g.5gb");
    assertThat(
            GpuTarget.mig(
                    GPU, List.of(GpuInstanceSpec.whole(slice)), Map.of(slice, new Sharing.Mps(2)))
                .replicated())
        .isTrue();
  }

  @Test
  void hasSharesOnlyWhenDynamicOrWholeAndNotReplicated() {
    assertThat(GpuTarget.dynamic(GPU, true).shares()).isTrue();
    assertThat(GpuTarget.sharedWhole(GPU).shares()).isTrue();
    assertThat(GpuTarget.sharedWhole(GPU).replicated()).isFalse();
    assertThatThrownBy(
            () ->
                new GpuTarget(
                    GPU, true, List.of(), new Sharing.TimeSliced(1), Map.of(), false, true))
        .hasMessageContaining("shares need a dynamic GPU or a whole GPU");
    assertThatThrownBy(
            () -> new GpuTarget(GPU, false, List.of(), new Sharing.Mps(2), Map.of(), false, true))
        .hasMessageContaining("without replicas");
  }
}
