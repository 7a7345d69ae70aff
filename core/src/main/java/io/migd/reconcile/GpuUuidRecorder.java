package io.migd.reconcile;

import io.migd.layout.ObservedGpu;
import java.util.Map;
import java.util.TreeMap;

/**
 * Records which GPU each index of the intent was resolved against: a replaced GPU then makes a new
 * generation of a named config ({@link IntentService#followGpus}), and is never reshaped to an
 * explicit layout ({@link Reconciler#resolve} makes it unreachable). The UUIDs come from the
 * outcome's own observation, never from NVML calls of its own: a GPU NVML could not observe is
 * recorded by a later outcome that observed it, and the others are recorded meanwhile.
 */
public final class GpuUuidRecorder implements OutcomeListener {
  private final IntentService intents;

  /** Records into {@code intents}. */
  public GpuUuidRecorder(IntentService intents) {
    this.intents = intents;
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    Map<Integer, String> unrecorded = new TreeMap<>();
    for (ObservedGpu gpu : outcome.observed().gpus()) {
      if (outcome.gpus().containsKey(gpu.index())
          && !desired.gpuUuids().containsKey(gpu.index().value())) {
        unrecorded.put(gpu.index().value(), gpu.uuid());
      }
    }
    if (!unrecorded.isEmpty()) {
      intents.recordUuids(desired.generation(), unrecorded);
    }
  }
}
