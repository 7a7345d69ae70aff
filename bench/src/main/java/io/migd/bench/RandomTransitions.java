package io.migd.bench;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.layout.Usage;
import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.Placement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded set of random per-GPU transitions on a node of one GPU model: what each GPU holds now (a
 * random valid layout, some GPU instances split into compute instances or half-made, some MIG off,
 * some slices in use) and a random target that some layout of the model holds.
 */
public final class RandomTransitions {
  /** One planner input. */
  public record Transition(GpuTarget desired, ObservedGpu observed, Usage usage, GpuModel model) {}

  private record Placed(GiProfile profile, Placement placement) {}

  private final GpuModel model;
  private final Random random;
  private final List<Placed> candidates = new ArrayList<>();

  private RandomTransitions(GpuModel model, long seed) {
    this.model = model;
    this.random = new Random(seed);
    for (GiProfile profile : model.giProfiles()) {
      for (Placement placement : profile.placements()) {
        candidates.add(new Placed(profile, placement));
      }
    }
  }

  /**
   * {@code count} transitions on a node of {@code gpus} GPUs of {@code model}, cycling through the
   * GPU indexes.
   */
  public static List<Transition> generate(GpuModel model, int gpus, int count, long seed) {
    var generator = new RandomTransitions(model, seed);
    var result = new ArrayList<Transition>(count);
    for (int i = 0; i < count; i++) {
      result.add(generator.next(new GpuIndex(i % gpus)));
    }
    return result;
  }

  private Transition next(GpuIndex gpu) {
    boolean migOn = random.nextInt(10) != 0;
    var live = new ArrayList<LiveGpuInstance>();
    var holders = new HashMap<Usage.SliceKey, List<String>>();
    if (migOn) {
      var ids = new ArrayList<Integer>();
      for (int id = 1; id <= 14; id++) {
        ids.add(id);
      }
      Collections.shuffle(ids, random);
      int k = 0;
      for (Placed p : randomLayout()) {
        int id = ids.get(k++);
        var cis = computeInstances(p.profile(), id);
        live.add(new LiveGpuInstance(id, p.profile().id(), p.profile().name(), p.placement(), cis));
        if (!cis.isEmpty() && random.nextInt(5) == 0) {
          holders.put(
              new Usage.SliceKey(gpu, id, cis.getFirst().id()),
              List.of("pod bench/job-" + gpu + "-" + id));
        }
      }
      live.sort(Comparator.comparingInt(g -> g.placement().start()));
    }
    GpuTarget desired;
    if (random.nextInt(20) == 0) {
      desired = GpuTarget.whole(gpu, 1);
    } else {
      var specs = new ArrayList<GpuInstanceSpec>();
      for (Placed p : randomLayout()) {
        int g = p.profile().slices();
        specs.add(
            g > 1 && random.nextInt(6) == 0
                ? new GpuInstanceSpec(p.profile().name(), Collections.nCopies(g, 1))
                : GpuInstanceSpec.whole(p.profile().name()));
      }
      Collections.shuffle(specs, random);
      desired = GpuTarget.mig(gpu, specs);
    }
    var observed =
        new ObservedGpu(
            gpu,
            "GPU-bench-" + gpu,
            model.nvmlName(),
            new PciInfo(
                "00000000:1" + gpu + ":00.0", 0, 0x10 + gpu.value(), 0, model.pciDeviceId(), 0),
            model.memoryMib(),
            true,
            new MigMode(migOn, migOn),
            live,
            List.of());
    return new Transition(desired, observed, new Usage(Map.copyOf(holders)), model);
  }

  /** A random layout: candidates in random order, each taken when it fits, until one stops. */
  private List<Placed> randomLayout() {
    var order = new ArrayList<>(candidates);
    Collections.shuffle(order, random);
    var layout = new ArrayList<Placed>();
    int stopAfter = 1 + random.nextInt(7);
    for (Placed c : order) {
      if (layout.size() == stopAfter) {
        break;
      }
      if (fits(layout, c)) {
        layout.add(c);
      }
    }
    return layout;
  }

  private static boolean fits(List<Placed> layout, Placed c) {
    int same = 0;
    for (Placed p : layout) {
      if (p.placement().overlaps(c.placement())
          || (p.profile().opticalFlowAccelerators() > 0
              && c.profile().opticalFlowAccelerators() > 0)) {
        return false;
      }
      if (p.profile().equals(c.profile())) {
        same++;
      }
    }
    return same < c.profile().instances();
  }

  /** Mostly the one spanning compute instance; sometimes none (half-made) or 1-slice ones. */
  private List<LiveComputeInstance> computeInstances(GiProfile gi, int giId) {
    int roll = random.nextInt(10);
    int g = gi.slices();
    var cis = new ArrayList<LiveComputeInstance>();
    if (roll < 7 || g == 1) {
      cis.add(ci(gi, giId, 0, g, 0));
    } else if (roll < 9) {
      int n = 1 + random.nextInt(g);
      for (int i = 0; i < n; i++) {
        cis.add(ci(gi, giId, i, 1, i));
      }
    }
    return cis;
  }

  private static LiveComputeInstance ci(GiProfile gi, int giId, int id, int slices, int start) {
    return new LiveComputeInstance(
        id,
        gi.ciProfileBySlices(slices).orElseThrow().id(),
        gi.name().computeInstance(slices),
        new Placement(start, slices),
        "MIG-bench-" + giId + "-" + id);
  }
}
