package io.migd.plan.testing;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.profiles.CiProfile;
import io.migd.profiles.ComputeCapability;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.List;

/**
 * The pathological model of issue 19: {@value #PROFILES} one-slice GPU-instance profiles {@code
 * 1g.<n>gb} that share every placement, and a target with one instance of each. Without memoising
 * and a bound the placement search tries the profiles' permutations over the placements (20! and
 * more) and did not finish in minutes. Used by the planner's tests and the benchmark.
 */
public final class SharedPlacementModel {
  /** How many profiles share the placements. */
  public static final int PROFILES = 20;

  private SharedPlacementModel() {}

  /**
   * The model, {@code SHARED-20x<shared>}: {@code memorySlices} memory slices, every profile
   * placeable on each of the first {@code shared} of them.
   */
  public static GpuModel model(int memorySlices, int shared) {
    var placements = new ArrayList<Placement>();
    for (int start = 0; start < shared; start++) {
      placements.add(new Placement(start, 1));
    }
    var profiles = new ArrayList<GiProfile>();
    for (int n = 1; n <= PROFILES; n++) {
      profiles.add(
          new GiProfile(
              ProfileName.of(1, n),
              n,
              100 + n,
              1,
              shared,
              1024L * n,
              4,
              1,
              0,
              0,
              0,
              0,
              placements,
              List.of(new CiProfile(0, 0, 1, 1, 4, CiProfile.slicePlacements(1, 1)))));
    }
    return new GpuModel(
        "SHARED-" + PROFILES + "x" + shared,
        "Pathological test GPU",
        0x7FFE10DE,
        10,
        new ComputeCapability(10, 0),
        262_144L,
        128,
        true,
        memorySlices,
        profiles);
  }

  /** A GPU of {@code model} with MIG enabled and no instance yet. */
  public static ObservedGpu migOn(GpuModel model, GpuIndex gpu) {
    return new ObservedGpu(
        gpu,
        "GPU-" + model.key() + "-" + gpu,
        model.nvmlName(),
        new PciInfo("00000000:1" + gpu + ":00.0", 0, 0x10 + gpu.value(), 0, model.pciDeviceId(), 0),
        model.memoryMib(),
        true,
        new MigMode(true, true),
        List.of(),
        List.of());
  }

  /** One instance of every profile on {@code gpu}, listed last profile first. */
  public static GpuTarget oneOfEach(GpuIndex gpu) {
    var specs = new ArrayList<GpuInstanceSpec>();
    for (int n = PROFILES; n >= 1; n--) {
      specs.add(GpuInstanceSpec.whole(ProfileName.of(1, n)));
    }
    return GpuTarget.mig(gpu, specs);
  }
}
