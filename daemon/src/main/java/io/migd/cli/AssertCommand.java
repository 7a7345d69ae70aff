package io.migd.cli;

import io.migd.app.MigdProperties;
import io.migd.app.NodeRuntime;
import io.migd.app.NvmlConnector;
import io.migd.layout.LayoutMatch;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.NvmlCallObserver;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.Desired;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code migd assert -f FILE -c NAME}: exit 0 when the GPUs match the config. */
@Command(
    name = "assert",
    mixinStandardHelpOptions = true,
    description =
        "Exit 0 when every selected GPU matches the config (MIG mode and profile counts), 1 if not.")
final class AssertCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new java.util.ArrayList<>();
  @Mixin ConfigOptions configOptions;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    MigdProperties properties = common.withProperties(propertyArgs).bind(spec.commandLine());
    GpuModelCatalog catalog = GpuModelCatalog.builtIn();
    var file = configOptions.load(properties, catalog);
    var config = configOptions.select(file, properties);
    try (var session = NvmlConnector.open(properties, NvmlCallObserver.NONE)) {
      var node = new NodeObserver(session.nvml(), catalog).observe();
      var err = spec.commandLine().getErr();
      boolean allMatch = true;
      var targets =
          NodeRuntime.targets(
              session.nvml(),
              catalog,
              file,
              properties,
              Desired.config(Desired.Source.FILE, config.name(), 0),
              node);
      for (var entry : targets.entrySet()) {
        ObservedGpu gpu = node.gpus().get(entry.getKey().value());
        boolean matches = LayoutMatch.matches(entry.getValue(), gpu);
        allMatch &= matches;
        err.println(
            "GPU "
                + entry.getKey()
                + ": "
                + (matches ? "matches" : "does not match")
                + " config "
                + config.name()
                + " (has "
                + (gpu.migMode().current() ? LayoutMatch.specsOf(gpu) : "MIG disabled")
                + ", wants "
                + (entry.getValue().migEnabled() ? entry.getValue().gpuInstances() : "MIG disabled")
                + ")");
      }
      err.flush();
      return allMatch ? ExitStatus.OK : ExitStatus.NOT_REACHED;
    }
  }
}
