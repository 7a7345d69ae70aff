package io.migd.cli;

import io.migd.app.MigdProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code migd status}: the node's GPUs and slices for a person on the node, from the running
 * daemon's REST API when one answers, else from NVML.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Print each GPU (model, MIG mode, state, reason) and each slice (profile, placement, UUID,"
            + " memory used, holders), from the running daemon when one answers, else from NVML.")
final class StatusCommand implements Callable<Integer> {
  /** Output formats: a value picocli does not know is bad usage, exit 2, naming these. */
  enum Format {
    table,
    json
  }

  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new ArrayList<>();
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "table",
      description =
          "Output format: ${COMPLETION-CANDIDATES} (json is GET /api/v1/gpus' records; default"
              + " ${DEFAULT-VALUE}).")
  Format format;

  @Option(
      names = "--url",
      defaultValue = "http://127.0.0.1:8080",
      paramLabel = "URL",
      description = "The daemon's REST API (default ${DEFAULT-VALUE}).")
  String url;

  @Override
  public Integer call() {
    MigdProperties properties = common.withProperties(propertyArgs).bind(spec.commandLine());
    NodeStatus status;
    try {
      status = DaemonStatus.at(url, properties).read();
    } catch (DaemonStatus.NotAnsweringException e) {
      status = NvmlStatus.read(properties, e.getMessage());
    }
    var err = spec.commandLine().getErr();
    err.println(status.source());
    err.flush();
    var out = spec.commandLine().getOut();
    if (format == Format.json) {
      Reports.json(status.gpus(), out);
    } else {
      out.print(StatusTable.render(status));
    }
    out.flush();
    return status.anyUnobservable() ? ExitStatus.NOT_REACHED : ExitStatus.OK;
  }
}
