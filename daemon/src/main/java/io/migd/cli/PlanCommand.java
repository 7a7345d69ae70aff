package io.migd.cli;

import io.migd.app.MigdProperties;
import io.migd.app.NodeRuntime;
import io.migd.app.NvmlConnector;
import io.migd.nvml.NvmlCallObserver;
import io.migd.plan.Decision;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.Desired;
import io.migd.reconcile.RebootPolicy;
import io.migd.rest.RestViews;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code migd plan -f FILE -c NAME}: the plan and per-GPU decisions, changing nothing. */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description =
        "Print the plan and per-GPU decisions without changing anything (0 every GPU can be"
            + " reached, 1 some cannot).")
final class PlanCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new java.util.ArrayList<>();
  @Mixin ConfigOptions configOptions;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Output formats: a value picocli does not know is bad usage, exit 2, naming these. */
  enum Format {
    text,
    json
  }

  @Option(
      names = {"-o", "--output"},
      defaultValue = "text",
      description =
          "Output format: ${COMPLETION-CANDIDATES} (json is the REST shape; default"
              + " ${DEFAULT-VALUE}).")
  Format format;

  @Override
  public Integer call() {
    MigdProperties properties = common.withProperties(propertyArgs).bind(spec.commandLine());
    GpuModelCatalog catalog = GpuModelCatalog.builtIn();
    var file = configOptions.load(properties, catalog);
    var config = configOptions.select(file, properties);
    try (var session = NvmlConnector.open(properties, NvmlCallObserver.NONE);
        var node = NodeRuntime.oneShot(session, catalog, file, properties, RebootPolicy.DISABLED)) {
      var reconciler = node.reconciler();
      var decisions = reconciler.plan(Desired.config(Desired.Source.FILE, config.name(), 1));
      var out = spec.commandLine().getOut();
      if (format == Format.json) {
        Reports.json(RestViews.planResult(decisions), out);
      } else {
        decisions.forEach((gpu, decision) -> out.println(PlanView.describe(gpu, decision)));
      }
      out.flush();
      boolean reachable = true;
      var err = spec.commandLine().getErr();
      for (var entry : decisions.entrySet()) {
        if (!(entry.getValue() instanceof Decision.InSync
            || entry.getValue() instanceof Decision.Change
            || entry.getValue() instanceof Decision.Unmanaged)) {
          reachable = false;
          err.println(PlanView.describe(entry.getKey(), entry.getValue()));
        }
      }
      err.flush();
      return reachable ? ExitStatus.OK : ExitStatus.NOT_REACHED;
    }
  }
}
