package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Step;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
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
  private final OperandPause pause;

  ModeChange(
      NodeObserver observer,
      UsageSource usageSource,
      GpuReset reset,
      RebootPolicy reboot,
      OperandPause pause) {
    this.observer = observer;
    this.usageSource = usageSource;
    this.reset = reset;
    this.reboot = reboot;
    this.pause = pause;
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
    var paused = paused(gpu, step);
    if (paused.isPresent()) {
      return paused.get();
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
   * The result while the GPU Operator's operands are paused for this GPU and their pods are still
   * on the node, or once they stayed too long; empty when nothing is paused or their pods are gone.
   */
  private Optional<GpuResult> paused(GpuIndex gpu, Step step) {
    String pending = "MIG mode change on GPU " + gpu + " is pending: a client NVML does not list";
    return switch (pause.await(gpu)) {
      case OperandPause.Wait.Off _, OperandPause.Wait.Clear _ -> Optional.empty();
      case OperandPause.Wait.Waiting(var labels, var pods, var left) ->
          Optional.of(
              new GpuResult.AwaitingModeChange(
                  pods.stream().map(p -> "pod " + p).toList(),
                  pending
                      + " holds the GPU; the GPU Operator's operands are paused ("
                      + String.join(", ", labels)
                      + "="
                      + OperandPause.PAUSED
                      + ") and migd waits up to "
                      + shown(left)
                      + " more for their pods to leave the node: "
                      + String.join(", ", pods)));
      case OperandPause.Wait.TimedOut(var pods, var timeout, var again) ->
          Optional.of(
              new GpuResult.Failed(
                  step,
                  NvmlReturn.IN_USE,
                  pending
                      + " holds the GPU, and the paused GPU Operator operands' pods "
                      + String.join(", ", pods)
                      + " did not leave the node within migd.pause.timeout ("
                      + shown(timeout)
                      + "); their labels are set back to true, and migd pauses them again from "
                      + again));
      case OperandPause.Wait.Failed(var detail) ->
          Optional.of(
              new GpuResult.AwaitingModeChange(
                  List.of("a client NVML does not list"),
                  pending
                      + " holds the GPU, and pausing the GPU Operator's operands failed ("
                      + detail
                      + "); migd retries"));
    };
  }

  /** {@code 4m12s}, {@code 5m}, {@code 30s}: whole seconds, rounded up. */
  static String shown(Duration duration) {
    long seconds = duration.plusNanos(999_999_999).toSeconds();
    long minutes = seconds / 60;
    if (minutes == 0) {
      return seconds + "s";
    }
    return seconds % 60 == 0 ? minutes + "m" : minutes + "m" + seconds % 60 + "s";
  }

  /** As {@link #ended}, over the GPUs' outcome entries: each keeps its resolution and decision. */
  SequencedMap<GpuIndex, Outcome.Gpu> endedEntries(
      long generation, SequencedMap<GpuIndex, Outcome.Gpu> reconciled) {
    var results = new LinkedHashMap<GpuIndex, GpuResult>();
    reconciled.forEach((gpu, entry) -> results.put(gpu, entry.result()));
    var ended = new LinkedHashMap<GpuIndex, Outcome.Gpu>();
    ended(generation, results)
        .forEach(
            (gpu, result) -> {
              Outcome.Gpu entry = reconciled.get(gpu);
              ended.put(
                  gpu,
                  new Outcome.Gpu(
                      entry.resolution(), entry.decision(), result, entry.turningStatic()));
            });
    return ended;
  }

  /**
   * Once every GPU's steps have ended: lets go of the operands no GPU waits for any more ({@link
   * OperandPause#settle}), asks for the one reboot the {@code rebooting} GPUs need, and says in
   * their results whether it went through.
   */
  SequencedMap<GpuIndex, GpuResult> ended(
      long generation, SequencedMap<GpuIndex, GpuResult> results) {
    pause.settle(results);
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
