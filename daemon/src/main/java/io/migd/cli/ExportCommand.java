package io.migd.cli;

import io.migd.app.MigdProperties;
import io.migd.app.NvmlConnector;
import io.migd.export.CurrentConfig;
import io.migd.layout.NodeObserver;
import io.migd.nvml.NvmlCallObserver;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigWriter;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** {@code migd export}: the current layout as a v1 config named {@code current}. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = "Print the current layout as a mig-parted v1 config named 'current'.")
final class ExportCommand implements Callable<Integer> {
  /** Output formats. */
  enum Format {
    yaml,
    json
  }

  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new java.util.ArrayList<>();
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "yaml",
      description = "Output format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
  Format format;

  @Override
  public Integer call() {
    MigdProperties properties = common.withProperties(propertyArgs).bind(spec.commandLine());
    try (var session = NvmlConnector.open(properties, NvmlCallObserver.NONE)) {
      var node = new NodeObserver(session.nvml(), GpuModelCatalog.builtIn()).observe();
      String yaml = MigConfigWriter.write(CurrentConfig.of(node));
      PrintWriter out = spec.commandLine().getOut();
      if (format == Format.json) {
        var tree = YAMLMapper.builder().build().readTree(yaml);
        out.println(
            JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValueAsString(tree));
      } else {
        out.print(yaml);
      }
      out.flush();
      return ExitStatus.OK;
    }
  }
}
