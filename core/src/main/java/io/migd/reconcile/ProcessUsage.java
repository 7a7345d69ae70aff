package io.migd.reconcile;

import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.layout.Usage;
import io.migd.nvml.ProcessInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/** Usage from the compute processes NVML reports, named by pid and process name. */
public final class ProcessUsage implements UsageSource {
  private final IntFunction<String> processName;
  private final IntPredicate ignored;

  /**
   * Names processes with {@code processName} (NVML's); a process it cannot name (gone, or not
   * visible to migd) is named by its pid alone.
   */
  public ProcessUsage(IntFunction<String> processName) {
    this(processName, pid -> false);
  }

  /**
   * As {@link #ProcessUsage(IntFunction)}, leaving out the processes {@code ignored} picks: MPS
   * servers, which run on a shared device for its clients and do not use it themselves.
   */
  public ProcessUsage(IntFunction<String> processName, IntPredicate ignored) {
    this.processName = processName;
    this.ignored = ignored;
  }

  @Override
  public Usage usage(ObservedNode observed) {
    var holders = new HashMap<Usage.SliceKey, List<String>>();
    for (ObservedGpu gpu : observed.gpus()) {
      for (ProcessInfo p : gpu.processes()) {
        if (ignored.test(p.pid())) {
          continue;
        }
        int gi = p.gpuInstanceId() == ProcessInfo.NO_INSTANCE ? Usage.WHOLE_GPU : p.gpuInstanceId();
        int ci =
            p.computeInstanceId() == ProcessInfo.NO_INSTANCE
                ? Usage.ALL_COMPUTE_INSTANCES
                : p.computeInstanceId();
        holders
            .computeIfAbsent(new Usage.SliceKey(gpu.index(), gi, ci), k -> new ArrayList<>())
            .add("process " + p.pid() + " (" + nameOf(p.pid()) + ")");
      }
    }
    return new Usage(holders);
  }

  private String nameOf(int pid) {
    try {
      return processName.apply(pid);
    } catch (RuntimeException e) {
      return "pid " + pid;
    }
  }
}
