package io.migd.app;

import io.migd.nvml.NvmlLoadException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a missing NVML into Spring Boot's short "failed to start" report, without a stack trace.
 */
class NvmlLoadFailureAnalyzer extends AbstractFailureAnalyzer<NvmlLoadException> {
  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, NvmlLoadException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Install the NVIDIA driver, point migd.nvml.library (MIGD_NVML_LIBRARY) at"
            + " libnvidia-ml.so.1, or run with --simulate=MODEL.",
        cause);
  }
}
