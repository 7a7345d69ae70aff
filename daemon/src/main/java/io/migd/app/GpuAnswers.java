package io.migd.app;

import io.migd.layout.GpuIndex;
import io.migd.nvml.Nvml;

/**
 * Whether NVML answers for a GPU now (its UUID can be read): a tainted device recovers only while
 * it does. An NVML failure propagates, so the caller keeps the taint and tries again later.
 */
final class GpuAnswers {
  private final Nvml nvml;

  GpuAnswers(Nvml nvml) {
    this.nvml = nvml;
  }

  boolean answers(GpuIndex gpu) {
    nvml.inSequence(() -> nvml.uuid(nvml.deviceByIndex(gpu.value())));
    return true;
  }
}
