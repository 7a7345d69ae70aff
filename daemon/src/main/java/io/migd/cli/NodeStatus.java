package io.migd.cli;

import io.migd.api.rest.GpuDecision;
import io.migd.api.rest.GpuStatus;
import java.util.List;
import java.util.Map;

/**
 * What {@code migd status} shows, whichever source answered: the GPUs as {@code GET /api/v1/gpus}
 * has them, the state and reason of each GPU where the daemon knows them, and the memory in use of
 * each GPU instance where it could be read.
 *
 * @param source one line saying which source answered
 * @param gpus the GPUs, in the REST shape
 * @param states the last reconcile's decision and state per GPU index; empty from NVML alone
 * @param memoryUsedBytes memory in use per GPU instance
 */
record NodeStatus(
    String source,
    List<GpuStatus> gpus,
    Map<Integer, GpuDecision> states,
    Map<GpuInstanceKey, Long> memoryUsedBytes) {
  NodeStatus {
    gpus = List.copyOf(gpus);
    states = Map.copyOf(states);
    memoryUsedBytes = Map.copyOf(memoryUsedBytes);
  }

  /** A GPU instance of one GPU. */
  record GpuInstanceKey(int gpu, int gpuInstanceId) {}

  /** Whether some GPU could not be observed. */
  boolean anyUnobservable() {
    return gpus.stream().anyMatch(g -> g.error() != null);
  }
}
