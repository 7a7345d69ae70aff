package io.migd.cli;

import io.migd.nvml.NvmlReturn;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import java.io.PrintWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * How the one-shot commands report an outcome: a line per GPU on stderr, and the exit status (3
 * when NVML refused for lack of privilege, which is the environment, not the layout).
 */
final class Reports {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Reports() {}

  /** Prints {@code value} as indented JSON, the form of every command's {@code -o json}. */
  static void json(Object value, PrintWriter out) {
    out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value));
  }

  static int outcome(Outcome outcome, PrintWriter err) {
    outcome
        .results()
        .forEach(
            (gpu, result) ->
                err.println(
                    "GPU " + gpu + ": " + result.state().wireName() + ": " + result.reason()));
    boolean permissionDenied =
        outcome.results().values().stream()
            .anyMatch(
                r ->
                    r instanceof GpuResult.Failed(var step, var code, var reason)
                        && code == NvmlReturn.NO_PERMISSION);
    if (permissionDenied) {
      err.println(
          "migd: NVML refused the change (NVML_ERROR_NO_PERMISSION): MIG changes need root;"
              + " run migd as root (the DaemonSet runs privileged)");
      err.flush();
      return ExitStatus.ENVIRONMENT;
    }
    err.flush();
    return outcome.state() == GpuResult.State.SUCCESS ? ExitStatus.OK : ExitStatus.NOT_REACHED;
  }
}
