package io.migd.plan;

import static io.migd.plan.Gpus.A100_40GB;
import static io.migd.plan.Gpus.GPU0;
import static io.migd.plan.Gpus.H100_80GB;
import static io.migd.plan.Gpus.T4;
import static io.migd.plan.Gpus.gi;
import static io.migd.plan.Gpus.migOff;
import static io.migd.plan.Gpus.migOn;
import static io.migd.plan.Gpus.observed;
import static io.migd.plan.Gpus.specs;
import static io.migd.plan.Gpus.split;
import static io.migd.plan.Gpus.whole;
import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import io.migd.profiles.ProfileName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the planner decides for one GPU, case by case. */
class PlannerTest {
  private static final String A100_PROFILES =
      "; profiles here: 1g.5gb, 1g.5gb+me, 1g.10gb, 2g.10gb, 3g.20gb, 4g.20gb, 7g.40gb";

  record Case(
      String name,
      GpuTarget desired,
      ObservedGpu observed,
      Usage usage,
      GpuModel model,
      Decision expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "in sync: two 3g.20gb, whichever ids the driver gave them",
            mig(specs("3g.20gb", "3g.20gb")),
            migOn(A100_40GB, whole(A100_40GB, 2, "3g.20gb", 0), whole(A100_40GB, 1, "3g.20gb", 4)),
            Usage.NONE,
            A100_40GB,
            new Decision.InSync()),
        new Case(
            "in sync: MIG disabled and asked disabled",
            GpuTarget.whole(GPU0, 4),
            migOff(A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.InSync()),
        new Case(
            "in sync: a GPU without MIG time-sliced",
            GpuTarget.whole(GPU0, 2),
            migOff(T4),
            Usage.NONE,
            T4,
            new Decision.InSync()),
        new Case(
            "enables MIG, then places two 1g.5gb leaving the longest free run",
            mig(specs("1g.5gb", "1g.5gb")),
            migOff(A100_40GB),
            Usage.NONE,
            A100_40GB,
            change(
                new Step.EnableMig(GPU0),
                createGi("1g.5gb", 19, 0, 1),
                createGi("1g.5gb", 19, 1, 1),
                createCi(0, 1, "1g.5gb", 0, 0, 1),
                createCi(1, 1, "1g.5gb", 0, 0, 1))),
        new Case(
            "enables MIG and places a full mix at the smallest starts, then catalogue order",
            mig(specs("3g.20gb", "2g.10gb", "1g.10gb")),
            migOff(A100_40GB),
            Usage.NONE,
            A100_40GB,
            change(
                new Step.EnableMig(GPU0),
                createGi("1g.10gb", 15, 0, 2),
                createGi("2g.10gb", 14, 2, 2),
                createGi("3g.20gb", 9, 4, 4),
                createCi(0, 2, "1g.10gb", 0, 0, 1),
                createCi(2, 2, "2g.10gb", 1, 0, 2),
                createCi(4, 4, "3g.20gb", 2, 0, 3))),
        new Case(
            "disables MIG: compute instances, then GPU instances, then the mode",
            GpuTarget.whole(GPU0, 1),
            migOn(
                A100_40GB,
                whole(A100_40GB, 3, "4g.20gb", 0),
                gi(A100_40GB, 1, "3g.20gb", 4, 0, 2, 0, 1, 1, 2)),
            Usage.NONE,
            A100_40GB,
            change(
                new Step.DestroyComputeInstance(GPU0, 3, 0),
                new Step.DestroyComputeInstance(GPU0, 1, 0),
                new Step.DestroyComputeInstance(GPU0, 1, 1),
                new Step.DestroyGpuInstance(GPU0, 3),
                new Step.DestroyGpuInstance(GPU0, 1),
                new Step.DisableMig(GPU0))),
        new Case(
            "cancels a pending enable by asking for the current mode",
            GpuTarget.whole(GPU0, 1),
            observed(A100_40GB, GPU0, false, true, List.of()),
            Usage.NONE,
            A100_40GB,
            change(new Step.DisableMig(GPU0))),
        new Case(
            "cancels a pending disable when the layout already matches",
            mig(specs("7g.40gb")),
            observed(A100_40GB, GPU0, true, false, List.of(whole(A100_40GB, 0, "7g.40gb", 0))),
            Usage.NONE,
            A100_40GB,
            change(new Step.EnableMig(GPU0))),
        new Case(
            "blocked enabling MIG while a process holds the GPU",
            mig(specs("7g.40gb")),
            migOff(A100_40GB),
            holders(Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES, "process 4242 (python)"),
            A100_40GB,
            new Decision.Blocked(
                List.of("process 4242 (python)"),
                "GPU 0 (A100-SXM4-40GB): enabling MIG needs the GPU free, but it is in use by"
                    + " process 4242 (python)")),
        new Case(
            "blocked disabling MIG while a slice is in use",
            GpuTarget.whole(GPU0, 1),
            migOn(A100_40GB, whole(A100_40GB, 5, "7g.40gb", 0)),
            holders(5, 0, "pod ml/train-0"),
            A100_40GB,
            new Decision.Blocked(
                List.of("pod ml/train-0"),
                "GPU 0 (A100-SXM4-40GB): disabling MIG removes every instance, but the GPU is in"
                    + " use by pod ml/train-0")),
        new Case(
            "blocked when the new layout needs an in-use GPU instance destroyed",
            mig(specs("3g.20gb", "3g.20gb")),
            migOn(A100_40GB, whole(A100_40GB, 5, "7g.40gb", 0)),
            holders(5, 0, "pod ml/train-0"),
            A100_40GB,
            new Decision.Blocked(
                List.of("pod ml/train-0"),
                "GPU 0 (A100-SXM4-40GB): the target has no 7g.40gb for GPU instance 5 (7g.40gb at"
                    + " 0:8) in use by pod ml/train-0")),
        new Case(
            "blocked when the target cannot be placed around an instance in use",
            mig(specs("4g.20gb", "3g.20gb")),
            migOn(A100_40GB, whole(A100_40GB, 7, "3g.20gb", 0)),
            holders(7, Usage.ALL_COMPUTE_INSTANCES, "process 17 (python)"),
            A100_40GB,
            new Decision.Blocked(
                List.of("process 17 (python)"),
                "GPU 0 (A100-SXM4-40GB): the target (3g.20gb + 4g.20gb) does not fit around the"
                    + " GPU instances in use: GPU instance 7 (3g.20gb at 0:4) in use by process 17"
                    + " (python)")),
        new Case(
            "blocked when a compute instance in use is not in the target's split",
            mig(List.of(split("4g.20gb", 4))),
            migOn(A100_40GB, gi(A100_40GB, 2, "4g.20gb", 0, 0, 2, 0, 1, 2, 2)),
            holders(2, 1, "pod ml/infer-1"),
            A100_40GB,
            new Decision.Blocked(
                List.of("pod ml/infer-1"),
                "GPU 0 (A100-SXM4-40GB): the compute instances the target asks of 4g.20gb cannot"
                    + " hold those in use in GPU instance 2 (4g.20gb at 0:4) compute instance 1"
                    + " (2c.4g.20gb at 2:2) in use by pod ml/infer-1")),
        new Case(
            "keeps the 3g.20gb in use at 0:4 and reshapes the rest around it",
            mig(specs("3g.20gb", "1g.10gb", "1g.10gb")),
            migOn(A100_40GB, whole(A100_40GB, 1, "3g.20gb", 0), whole(A100_40GB, 2, "3g.20gb", 4)),
            holders(1, 0, "pod ml/train-0"),
            A100_40GB,
            change(
                new Step.DestroyComputeInstance(GPU0, 2, 0),
                new Step.DestroyGpuInstance(GPU0, 2),
                createGi("1g.10gb", 15, 4, 2),
                createGi("1g.10gb", 15, 6, 2),
                createCi(4, 2, "1g.10gb", 0, 0, 1),
                createCi(6, 2, "1g.10gb", 0, 0, 1))),
        new Case(
            "without usage the same change keeps the 3g.20gb at 4:4 (smaller starts) instead",
            mig(specs("3g.20gb", "1g.10gb", "1g.10gb")),
            migOn(A100_40GB, whole(A100_40GB, 1, "3g.20gb", 0), whole(A100_40GB, 2, "3g.20gb", 4)),
            Usage.NONE,
            A100_40GB,
            change(
                new Step.DestroyComputeInstance(GPU0, 1, 0),
                new Step.DestroyGpuInstance(GPU0, 1),
                createGi("1g.10gb", 15, 0, 2),
                createGi("1g.10gb", 15, 2, 2),
                createCi(0, 2, "1g.10gb", 0, 0, 1),
                createCi(2, 2, "1g.10gb", 0, 0, 1))),
        new Case(
            "completes a half-made GPU instance and removes one the target lacks",
            mig(specs("4g.20gb", "3g.20gb")),
            migOn(A100_40GB, gi(A100_40GB, 3, "4g.20gb", 0), gi(A100_40GB, 6, "1g.5gb", 5)),
            Usage.NONE,
            A100_40GB,
            change(
                new Step.DestroyGpuInstance(GPU0, 6),
                createGi("3g.20gb", 9, 4, 4),
                createCi(0, 4, "4g.20gb", 3, 0, 4),
                createCi(4, 4, "3g.20gb", 2, 0, 3))),
        new Case(
            "1c.4g.20gb ×4 from MIG off: one 4g.20gb with four 1-slice compute instances",
            mig(List.of(split("4g.20gb", 1, 1, 1, 1))),
            migOff(A100_40GB),
            Usage.NONE,
            A100_40GB,
            change(
                new Step.EnableMig(GPU0),
                createGi("4g.20gb", 5, 0, 4),
                createCi(0, 4, "1c.4g.20gb", 0, 0, 1),
                createCi(0, 4, "1c.4g.20gb", 0, 1, 1),
                createCi(0, 4, "1c.4g.20gb", 0, 2, 1),
                createCi(0, 4, "1c.4g.20gb", 0, 3, 1))),
        new Case(
            "splits a kept 4g.20gb, keeping the 2-slice compute instance in use",
            mig(List.of(split("4g.20gb", 1, 1, 2))),
            migOn(A100_40GB, gi(A100_40GB, 2, "4g.20gb", 0, 0, 2, 0, 1, 2, 2)),
            holders(2, 1, "pod ml/infer-1"),
            A100_40GB,
            change(
                new Step.DestroyComputeInstance(GPU0, 2, 0),
                createCi(0, 4, "1c.4g.20gb", 0, 0, 1),
                createCi(0, 4, "1c.4g.20gb", 0, 1, 1))),
        new Case(
            "infeasible: MIG asked of a GPU without MIG",
            mig(specs("1g.5gb")),
            migOff(T4),
            Usage.NONE,
            T4,
            new Decision.Infeasible(
                "GPU 0 (T4): MIG is asked of a GPU without MIG; it can be shared by time-slicing"
                    + " instead")),
        new Case(
            "infeasible: a profile the model lacks",
            mig(specs("3g.40gb")),
            migOn(A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.Infeasible(
                "GPU 0 (A100-SXM4-40GB): no GPU-instance profile 3g.40gb" + A100_PROFILES)),
        new Case(
            "infeasible: more instances of a profile than it allows",
            mig(specs("3g.20gb", "3g.20gb", "3g.20gb")),
            migOn(A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.Infeasible(
                "GPU 0 (A100-SXM4-40GB): 3 × 3g.20gb do not fit (at most 2)" + A100_PROFILES)),
        new Case(
            "infeasible: two profiles that each need the optical flow accelerator",
            mig(specs("1g.5gb+me", "7g.40gb")),
            migOn(A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.Infeasible(
                "GPU 0 (A100-SXM4-40GB): 1g.5gb+me and 7g.40gb do not fit together: each needs"
                    + " the GPU's one optical flow accelerator"
                    + A100_PROFILES)),
        new Case(
            "infeasible: a compute-instance size the GPU-instance profile does not offer",
            mig(List.of(split("4g.20gb", 3))),
            migOn(A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.Infeasible(
                "GPU 0 (A100-SXM4-40GB): 4g.20gb offers no 3-slice compute instance; compute"
                    + " instances of 4g.20gb: 1c.4g.20gb (at most 4), 2c.4g.20gb (at most 2),"
                    + " 4g.20gb (at most 1)")),
        new Case(
            "infeasible: compute instances that cannot be placed together",
            mig(List.of(split("7g.40gb", 3, 4))),
            migOn(A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.Infeasible(
                "GPU 0 (A100-SXM4-40GB): compute instances 3c.7g.40gb + 4c.7g.40gb do not fit"
                    + " together in one 7g.40gb; compute instances of 7g.40gb: 1c.7g.40gb (at"
                    + " most 7), 2c.7g.40gb (at most 3), 3c.7g.40gb (at most 2), 4c.7g.40gb (at"
                    + " most 1), 7g.40gb (at most 1)")),
        new Case(
            "infeasible: a mix that no placement holds names the largest part that fits",
            mig(specs("4g.20gb", "3g.20gb", "1g.10gb")),
            migOn(A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.Infeasible(
                "GPU 0 (A100-SXM4-40GB): 1g.10gb + 3g.20gb + 4g.20gb do not fit together; the"
                    + " largest part that fits: 3g.20gb + 4g.20gb"
                    + A100_PROFILES)),
        new Case(
            "infeasible: MIG enabled on a GPU of another model",
            mig(specs("7g.40gb")),
            observedAs(H100_80GB, A100_40GB),
            Usage.NONE,
            A100_40GB,
            new Decision.Infeasible(
                "GPU 0 (A100-SXM4-40GB): the GPU is 0x233010DE (NVIDIA H100 80GB HBM3), not this"
                    + " model (0x20B010DE); nothing is planned against the wrong placements")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void decides(Case c) {
    assertThat(Planner.decide(c.desired(), c.observed(), c.usage(), c.model()))
        .isEqualTo(c.expected());
  }

  @ParameterizedTest
  @MethodSource("cases")
  void decidesTheSameTwice(Case c) {
    assertThat(Planner.decide(c.desired(), c.observed(), c.usage(), c.model()))
        .isEqualTo(Planner.decide(c.desired(), c.observed(), c.usage(), c.model()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void ignoresTheOrderOfSpecsAndOfObservedInstances(Case c) {
    var specs = new ArrayList<>(c.desired().gpuInstances());
    Collections.reverse(specs);
    var gis = new ArrayList<>(c.observed().gpuInstances());
    Collections.reverse(gis);
    var desired =
        new GpuTarget(c.desired().gpu(), c.desired().migEnabled(), specs, c.desired().replicas());
    var o = c.observed();
    var observed =
        new ObservedGpu(
            o.index(),
            o.uuid(),
            o.name(),
            o.pci(),
            o.memoryMiB(),
            o.migCapable(),
            o.migMode(),
            gis,
            o.processes());
    assertThat(Planner.decide(desired, observed, c.usage(), c.model())).isEqualTo(c.expected());
  }

  @ParameterizedTest
  @MethodSource("cases")
  void plansOnlyWhatAppliesToTheRuleCheckedGpuAndReachesTheTarget(Case c) {
    var gpu = RuleCheckedGpu.of(c.model(), c.observed()).inUse(c.usage());
    switch (Planner.decide(c.desired(), c.observed(), c.usage(), c.model())) {
      case Decision.Change(var plan) -> gpu.apply(plan);
      case Decision.InSync() -> {}
      case Decision.Blocked _, Decision.Infeasible _ -> {
        return;
      }
      case Decision.Unmanaged _, Decision.Failed _ ->
          throw new AssertionError(
              "the planner decided " + c.name() + " as only the reconciler may");
    }
    if (c.desired().migEnabled()) {
      assertThat(gpu.layout()).isEqualTo(RuleCheckedGpu.layoutOf(c.desired().gpuInstances()));
    } else {
      assertThat(gpu.layout()).isEmpty();
    }
    assertThat(Planner.decide(c.desired(), gpu.observed(), c.usage(), c.model()))
        .as("decided again after the plan")
        .isEqualTo(new Decision.InSync());
  }

  @Test
  void rejectsATargetForAnotherGpu() {
    var desired = GpuTarget.mig(new io.migd.layout.GpuIndex(1), specs("7g.40gb"));
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> Planner.decide(desired, migOn(A100_40GB), Usage.NONE, A100_40GB));
  }

  private static GpuTarget mig(List<GpuInstanceSpec> specs) {
    return GpuTarget.mig(GPU0, specs);
  }

  private static Decision change(Step... steps) {
    return new Decision.Change(new Plan(List.of(steps)));
  }

  private static Step createGi(String profile, int id, int start, int size) {
    return new Step.CreateGpuInstance(
        GPU0, ProfileName.parse(profile), id, new Placement(start, size));
  }

  private static Step createCi(
      int giStart, int giSize, String profile, int id, int start, int size) {
    return new Step.CreateComputeInstance(
        GPU0,
        new Placement(giStart, giSize),
        ProfileName.parse(profile),
        id,
        new Placement(start, size));
  }

  private static Usage holders(int gi, int ci, String holder) {
    return new Usage(Map.of(new Usage.SliceKey(GPU0, gi, ci), List.of(holder)));
  }

  /** A GPU of {@code actual} with MIG on, reported as a GPU instance planned as {@code model}. */
  private static ObservedGpu observedAs(GpuModel actual, GpuModel model) {
    return observed(actual, GPU0, true, true, List.of(whole(model, 1, "7g.40gb", 0)));
  }
}
