package io.migd.reconcile;

import static io.migd.reconcile.GpuSelection.andResolved;
import static io.migd.reconcile.GpuSelection.resolutionOf;
import static io.migd.reconcile.GpuSelection.unplanned;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.NvmlException;
import io.migd.plan.Decision;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What intents would make of an observed node, without changing anything: the target of every GPU
 * each selects and the decision for every GPU, the planner running once per GPU and intent.
 */
final class DryRun {
  private static final Logger log = LoggerFactory.getLogger(DryRun.class);

  private final NodeDecider decider;
  private final GpuReconcile gpus;
  private final UsageSource usageSource;
  private final GpuPool pool;

  DryRun(NodeDecider decider, GpuReconcile gpus, UsageSource usageSource, GpuPool pool) {
    this.decider = decider;
    this.gpus = gpus;
    this.usageSource = usageSource;
    this.pool = pool;
  }

  /** Each intent's plan over {@code observed}, in the order of {@code intents}. */
  List<NodePlan> plan(List<Desired> intents, ObservedNode observed) {
    Usage usage = usageSource.usage(observed);
    var plans = new ArrayList<NodePlan>();
    for (Desired desired : intents) {
      var resolutions = decider.resolve(desired, observed);
      var decisions =
          pool.each(
              andResolved(observed, resolutions),
              gpu ->
                  unplanned(desired, gpu, observed, resolutionOf(resolutions, gpu))
                      .orElseGet(
                          () -> decide(gpu, resolutionOf(resolutions, gpu), observed, usage)));
      var targets = new LinkedHashMap<GpuIndex, GpuTarget>();
      resolutions.forEach(
          (gpu, resolution) -> {
            if (resolution instanceof Resolution.Target(var target, _)) {
              targets.put(gpu, target);
            }
          });
      plans.add(new NodePlan(targets, decisions));
    }
    return plans;
  }

  private Decision decide(GpuIndex gpu, Resolution resolution, ObservedNode observed, Usage usage) {
    try {
      return gpus.decide(resolution, gpu, observed, usage);
    } catch (NvmlException e) {
      return Decision.Failed.of("deciding for GPU " + gpu, e);
    } catch (RuntimeException e) {
      log.error("gpu={} deciding failed, a bug in migd; the other GPUs go on", gpu, e);
      return Decision.Failed.unexpected("deciding for GPU " + gpu, e);
    }
  }
}
