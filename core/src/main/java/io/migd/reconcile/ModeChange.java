package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Step;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MIG mode change that did not take effect. IN_USE: name the processes NVML reports; with none, a
 * client NVML does not list holds the GPU (such as nvidia-persistenced): reset it, then decide
 * again. RESET_REQUIRED: only a reboot helps, and it runs once, after every GPU's steps have ended.
 */
final class ModeChange {
  private static final Logger log = LoggerFactory.getLogger(ModeChange.class);

  private final NodeObserver observer;
  private final UsageSource usageSource;
  private final GpuReset reset;
  private final RebootPolicy reboot;

  ModeChange(NodeObserver observer, UsageSource usageSource, GpuReset reset, RebootPolicy reboot) {
    this.observer = observer;
    this.usageSource = usageSource;
    this.reset = reset;
    this.reboot = reboot;
  }

  /**
   * The result for a GPU whose mode change is pending; {@code again} reconciles the GPU once more
   * from a fresh observation after a reset.
   */
  GpuResult pending(
      GpuIndex gpu,
      Step step,
      NvmlReturn activation,
      boolean mayReset,
      Function<ObservedNode, GpuResult> again) {
    if (activation == NvmlReturn.RESET_REQUIRED) {
      // a pass-through VM: from now on the GPU counts as one whose mode change needs a reset
      try {
        observer.resetRequired(observer.observe(gpu).uuid());
      } catch (NvmlException e) {
        log.debug("gpu={} not observed after RESET_REQUIRED ({})", gpu, e.code().cName());
      }
      String why =
          "GPU "
              + gpu
              + " needs a reboot to apply the pending MIG mode (the platform cannot reset"
              + " it, e.g. PCI passthrough)";
      if (reboot.enabled()) {
        return new GpuResult.Rebooting(why);
      }
      return new GpuResult.Failed(
          step,
          activation,
          why + "; reboots are disabled (migd.reboot.enabled=false): reboot the node");
    }
    ObservedGpu now = observer.observe(gpu);
    // pods count too: a reset ends whatever a container holding the GPU runs on it
    var holders = usageSource.usage(new ObservedNode(List.of(now))).holdersOf(gpu);
    if (!holders.isEmpty()) {
      return new GpuResult.AwaitingModeChange(
          holders,
          "MIG mode change on GPU "
              + gpu
              + " is pending: "
              + String.join(", ", holders)
              + " run on it; migd retries when they are gone");
    }
    GpuReset.Result result =
        mayReset ? reset.reset(now) : new GpuReset.Result.NotDone("the reset did not apply it");
    return switch (result) {
      case GpuReset.Result.Done(var detail) -> {
        log.info("gpu={} reset to apply the pending MIG mode detail=\"{}\"", gpu, detail);
        yield again.apply(new ObservedNode(List.of(observer.observe(gpu))));
      }
      case GpuReset.Result.NvmlDown(var code, var detail) ->
          new GpuResult.Failed(step, code, "GPU " + gpu + " was reset but " + detail);
      case GpuReset.Result.NotDone(var detail) ->
          new GpuResult.AwaitingModeChange(
              List.of("a client NVML does not list"),
              "MIG mode change on GPU "
                  + gpu
                  + " is pending: a client that NVML does not list (such as"
                  + " nvidia-persistenced or DCGM) holds the GPU, and a reset was not possible ("
                  + detail
                  + "); migd retries when it lets go");
    };
  }

  /**
   * Once every GPU's steps have ended: asks for the one reboot the {@code rebooting} GPUs need, and
   * says in their results whether it went through.
   */
  SequencedMap<GpuIndex, GpuResult> rebootIfNeeded(
      long generation, SequencedMap<GpuIndex, GpuResult> results) {
    if (results.values().stream().noneMatch(r -> r instanceof GpuResult.Rebooting)) {
      return results;
    }
    RebootPolicy.Request request = reboot.requestReboot(generation);
    var updated = new LinkedHashMap<GpuIndex, GpuResult>();
    results.forEach(
        (gpu, result) -> {
          if (!(result instanceof GpuResult.Rebooting(var why))) {
            updated.put(gpu, result);
            return;
          }
          updated.put(
              gpu,
              switch (request) {
                case RebootPolicy.Request.Started(var output) ->
                    new GpuResult.Rebooting(why + "; a reboot was requested");
                case RebootPolicy.Request.AlreadyRequested() ->
                    new GpuResult.Rebooting(
                        why + "; a reboot was already requested for generation " + generation);
                case RebootPolicy.Request.CommandFailed(var detail) ->
                    new GpuResult.Failed(
                        null,
                        NvmlReturn.RESET_REQUIRED,
                        why
                            + "; the reboot command failed (not run again for generation "
                            + generation
                            + "): "
                            + detail);
              });
        });
    return updated;
  }
}
