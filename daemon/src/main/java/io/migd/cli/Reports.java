package io.migd.cli;

import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import java.io.PrintWriter;

/** How the one-shot commands report an outcome: a line per GPU on stderr, and the exit status. */
final class Reports {
  private Reports() {}

  static int outcome(Outcome outcome, PrintWriter err) {
    outcome
        .results()
        .forEach(
            (gpu, result) ->
                err.println(
                    "GPU " + gpu + ": " + result.state().wireName() + ": " + result.reason()));
    err.flush();
    return outcome.state() == GpuResult.State.SUCCESS ? ExitStatus.OK : ExitStatus.NOT_REACHED;
  }
}
