package io.migd.plan;

import static io.migd.plan.Gpus.GPU0;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.Usage;
import io.migd.profiles.CiProfile;
import io.migd.profiles.ComputeCapability;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Models wider than any GPU shipped so far: more GPU-instance profiles than fit a 4-bit rank, more
 * compute instances in one GPU instance than 16, and more memory slices than 16. The planner has no
 * such caps; only past 64 slices it answers {@link Decision.Infeasible}, never an exception.
 */
class LargeModelTest {
  private static final int PROFILES = 20;
  private static final int MEMORY_SLICES = 32;

  /**
   * {@value #PROFILES} one-slice profiles {@code 1g.<n>gb} (n = 1..20), each placeable on every
   * memory slice, and one {@code 24g.200gb} with 24 compute slices at 0:24 that splits into 1-slice
   * compute instances.
   */
  private static final GpuModel WIDE = wide(MEMORY_SLICES);

  private static GpuModel wide(int memorySlices) {
    var profiles = new ArrayList<GiProfile>();
    var everySlice = new ArrayList<Placement>();
    for (int start = 0; start < memorySlices; start++) {
      everySlice.add(new Placement(start, 1));
    }
    for (int n = 1; n <= PROFILES; n++) {
      profiles.add(
          new GiProfile(
              ProfileName.of(1, n),
              n,
              100 + n,
              1,
              memorySlices,
              1024L * n,
              4,
              1,
              0,
              0,
              0,
              0,
              everySlice,
              List.of(new CiProfile(0, 0, 1, 1, 4, CiProfile.slicePlacements(1, 1)))));
    }
    profiles.add(
        new GiProfile(
            ProfileName.of(24, 200),
            0,
            0,
            24,
            1,
            204_800L,
            96,
            8,
            0,
            0,
            0,
            0,
            List.of(new Placement(0, 24)),
            List.of(
                new CiProfile(0, 0, 1, 24, 4, CiProfile.slicePlacements(1, 24)),
                new CiProfile(9, 9, 24, 1, 96, CiProfile.slicePlacements(24, 24)))));
    return new GpuModel(
        "WIDE-" + memorySlices,
        "Wide test GPU",
        0x7FFF10DE,
        10,
        new ComputeCapability(10, 0),
        262_144L,
        128,
        true,
        memorySlices,
        profiles);
  }

  private static GiProfile profile(int n) {
    return WIDE.giProfile(ProfileName.of(1, n)).orElseThrow();
  }

  @Test
  void ordersProfilesPastTheSixteenthByCatalogueRank() {
    // Equal placements everywhere, so only the catalogue rank decides which profile sits first.
    var specs =
        List.of(
            GpuInstanceSpec.whole(ProfileName.of(1, 20)),
            GpuInstanceSpec.whole(ProfileName.of(1, 18)),
            GpuInstanceSpec.whole(ProfileName.of(1, 17)));
    var decision = Planner.decide(GpuTarget.mig(GPU0, specs), Gpus.migOn(WIDE), Usage.NONE, WIDE);

    assertThat(decision).isInstanceOf(Decision.Change.class);
    var plan = ((Decision.Change) decision).plan();
    assertThat(plan.steps())
        .filteredOn(Step.CreateGpuInstance.class::isInstance)
        .map(Step.CreateGpuInstance.class::cast)
        .extracting(s -> s.profile() + "@" + s.placement())
        .containsExactly("1g.17gb@0:1", "1g.18gb@1:1", "1g.20gb@2:1");
    var gpu = new RuleCheckedGpu(WIDE, GPU0, true);
    gpu.apply(plan);
    assertThat(gpu.layout()).isEqualTo(RuleCheckedGpu.layoutOf(specs));
  }

  @Test
  void keepsAnInstanceOfTheTwentiethProfileAndPlacesTheRestAroundIt() {
    GiProfile last = profile(PROFILES);
    var observed =
        Gpus.migOn(
            WIDE,
            new LiveGpuInstance(
                7, last.id(), last.name(), new Placement(0, 1), List.of(Gpus.ci(last, 7, 0, 1, 0))),
            new LiveGpuInstance(
                9,
                profile(3).id(),
                profile(3).name(),
                new Placement(1, 1),
                List.of(Gpus.ci(profile(3), 9, 0, 1, 0))));
    var specs =
        List.of(
            GpuInstanceSpec.whole(ProfileName.of(1, 2)),
            GpuInstanceSpec.whole(ProfileName.of(1, 19)),
            GpuInstanceSpec.whole(ProfileName.of(1, PROFILES)));
    var target = GpuTarget.mig(GPU0, specs);

    var decision = Planner.decide(target, observed, Usage.NONE, WIDE);

    assertThat(decision).isInstanceOf(Decision.Change.class);
    var plan = ((Decision.Change) decision).plan();
    assertThat(plan.gpuInstancesDestroyed()).isEqualTo(1);
    var gpu = RuleCheckedGpu.of(WIDE, observed);
    gpu.apply(plan);
    assertThat(gpu.layout()).isEqualTo(RuleCheckedGpu.layoutOf(specs));
    assertThat(gpu.placed()).containsExactly("1g.20gb@0:1", "1g.2gb@1:1", "1g.19gb@2:1");
    assertThat(Planner.decide(target, gpu.observed(), Usage.NONE, WIDE))
        .isEqualTo(new Decision.InSync());
  }

  @Test
  void splitsAGpuInstanceIntoMoreThanSixteenComputeInstancesKeepingThoseThatExist() {
    GiProfile big = WIDE.giProfile(ProfileName.of(24, 200)).orElseThrow();
    var cis = new ArrayList<LiveComputeInstance>();
    for (int k = 0; k < 18; k++) {
      cis.add(Gpus.ci(big, 0, k, 1, k));
    }
    var observed =
        Gpus.migOn(WIDE, new LiveGpuInstance(0, big.id(), big.name(), new Placement(0, 24), cis));
    var usage = new Usage(Map.of(new Usage.SliceKey(GPU0, 0, 17), List.of("pod a/b")));
    var target =
        GpuTarget.mig(GPU0, List.of(new GpuInstanceSpec(big.name(), Collections.nCopies(20, 1))));

    var decision = Planner.decide(target, observed, usage, WIDE);

    assertThat(decision).isInstanceOf(Decision.Change.class);
    var plan = ((Decision.Change) decision).plan();
    assertThat(plan.steps())
        .allMatch(Step.CreateComputeInstance.class::isInstance)
        .extracting(s -> ((Step.CreateComputeInstance) s).placement())
        .containsExactly(new Placement(18, 1), new Placement(19, 1));
    var gpu = RuleCheckedGpu.of(WIDE, observed);
    gpu.apply(plan);
    assertThat(Planner.decide(target, gpu.observed(), usage, WIDE))
        .isEqualTo(new Decision.InSync());
  }

  @Test
  void answersInfeasibleForAGpuPastSixtyFourMemorySlices() {
    GpuModel huge = wide(65);
    var decision =
        Planner.decide(
            GpuTarget.mig(GPU0, List.of(GpuInstanceSpec.whole(ProfileName.of(1, 1)))),
            Gpus.migOn(huge),
            Usage.NONE,
            huge);

    assertThat(decision)
        .isEqualTo(
            new Decision.Infeasible(
                "GPU 0 (WIDE-65): the GPU has 65 memory slices; migd plans up to 64"));
  }
}
