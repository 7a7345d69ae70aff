package io.migd.app;

import dev.failsafe.Failsafe;
import io.migd.command.ExternalCommand;
import io.migd.execute.Backoff;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlException;
import io.migd.reconcile.GpuReset;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resets a GPU with {@code migd.reset-command}, {@code {pciBusId}} replaced by the GPU's, after
 * releasing migd's own NVML session (a reset fails while any NVML client holds the GPU). When NVML
 * does not initialise again afterwards, it is retried with backoff; if it stays down, the result
 * says so instead of leaving a dead session behind silently.
 */
final class CommandReset implements GpuReset {
  private static final Logger log = LoggerFactory.getLogger(CommandReset.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final String INIT = "nvmlInit_v2";

  private final List<String> template;
  private final Nvml nvml;
  private final Duration timeout;
  private final Backoff initBackoff;
  private final int initRetries;

  CommandReset(List<String> template, Nvml nvml) {
    this(template, nvml, TIMEOUT, new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30)), 6);
  }

  CommandReset(
      List<String> template, Nvml nvml, Duration timeout, Backoff initBackoff, int initRetries) {
    this.template = List.copyOf(template);
    this.nvml = nvml;
    this.timeout = timeout;
    this.initBackoff = initBackoff;
    this.initRetries = initRetries;
  }

  @Override
  public Result reset(ObservedGpu gpu) {
    List<String> command =
        template.stream().map(part -> part.replace("{pciBusId}", gpu.pci().busId())).toList();
    var ran = new AtomicReference<ExternalCommand.Ran>();
    var reset = ExternalCommand.of(command, timeout);
    try {
      nvml.whileReleased(
          () -> {
            ran.set(reset.run());
            return null;
          });
    } catch (NvmlException e) {
      if (!e.function().equals(INIT)) {
        throw e;
      }
      log.warn(
          "gpu={} NVML did not initialise again after the reset error=\"{}\"; retrying",
          gpu.index(),
          e.getMessage());
      try {
        initAgain();
      } catch (NvmlException stillDown) {
        log.error(
            "gpu={} NVML stays down after the reset error=\"{}\"",
            gpu.index(),
            stillDown.getMessage());
        return new Result.NvmlDown(
            stillDown.code(),
            "NVML did not initialise again ("
                + stillDown.getMessage()
                + ", "
                + (initRetries + 1)
                + " attempts with backoff); migd sees no GPU until it does"
                + (ran.get() == null ? "" : "; the reset: " + ran.get().describe()));
      }
    }
    ExternalCommand.Ran result = ran.get();
    return result.succeeded()
        ? new Result.Done(result.describe())
        : new Result.NotDone(result.describe());
  }

  /**
   * Initialises NVML again; an NVML already down lets the release step pass (see whileReleased).
   */
  private void initAgain() {
    Failsafe.with(
            initBackoff
                .<Object>retryPolicy(initRetries)
                .handleIf(e -> e instanceof NvmlException n && n.function().equals(INIT))
                .build())
        .run(() -> nvml.whileReleased(() -> null));
  }
}
