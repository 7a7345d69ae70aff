package io.migd.cli;

import io.migd.app.ConfigFiles;
import io.migd.app.MigdProperties;
import io.migd.app.NodeRuntime;
import io.migd.app.NvmlConnector;
import io.migd.export.CurrentConfig;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.profiles.ConfigFileException;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigWriter;
import io.migd.reconcile.Desired;
import io.migd.reconcile.IntentStore;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** {@code migd export}: the current layout as a v1 config named {@code current}. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = "Print the current layout as a mig-parted v1 config named 'current'.")
final class ExportCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ExportCommand.class);

  /** Output formats. */
  enum Format {
    yaml,
    json
  }

  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new ArrayList<>();
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
      var mixed = mixedSplit(node);
      if (mixed.isPresent()) {
        var err = spec.commandLine().getErr();
        err.println("migd: " + mixed.get());
        err.flush();
        return ExitStatus.NOT_REACHED;
      }
      String yaml =
          MigConfigWriter.write(
              CurrentConfig.of(node, intendedTargets(properties, node, session.nvml())));
      PrintWriter out = spec.commandLine().getOut();
      if (format == Format.json) {
        var tree = YAMLMapper.builder().build().readTree(yaml);
        Reports.json(tree, out);
      } else {
        out.print(yaml);
      }
      out.flush();
      return ExitStatus.OK;
    }
  }

  /**
   * What the persisted intent (else {@code migd.config}) asks of each GPU, for the sharing the
   * export writes back; none when there is no intent or it cannot be read (the layout is still
   * exported, from NVML).
   */
  static Map<GpuIndex, GpuTarget> intendedTargets(
      MigdProperties properties, ObservedNode node, Nvml nvml) {
    Desired desired;
    try {
      desired =
          new IntentStore(properties.stateDir())
              .load()
              .orElse(
                  properties.config().isBlank()
                      ? Desired.none()
                      : Desired.config(Desired.Source.FILE, properties.config(), 0));
    } catch (IntentStore.UnreadableException e) {
      log.warn("exporting without sharing: {}", e.getMessage());
      return Map.of();
    }
    if (desired.intent() instanceof Desired.Intent.Nothing) {
      return Map.of();
    }
    var catalog = GpuModelCatalog.builtIn();
    MigConfigFile configs;
    try {
      configs =
          desired.intent() instanceof Desired.Intent.NamedConfig
              ? ConfigFiles.load(properties.configFile(), catalog)
              : MigConfigFile.of(List.of());
    } catch (ConfigFileException e) {
      log.warn("exporting without sharing: {}", e.getMessage());
      return Map.of();
    }
    return NodeRuntime.targets(nvml, catalog, configs, properties, desired, node);
  }

  /**
   * mig-parted's format counts compute instances by profile ({@code 1c.3g.20gb: 3}) and cannot say
   * that one GPU instance holds compute instances of different sizes: an export of such a split
   * would apply as something else, so it is refused, naming the first GPU instance that has one.
   */
  static Optional<String> mixedSplit(ObservedNode node) {
    for (ObservedGpu gpu : node.gpus()) {
      for (LiveGpuInstance gi : gpu.gpuInstances()) {
        var sizes =
            gi.computeInstances().stream()
                .map(ci -> ci.profile().toString())
                .distinct()
                .sorted()
                .toList();
        if (sizes.size() > 1) {
          return Optional.of(
              "cannot export GPU "
                  + gpu.index()
                  + ": GPU instance "
                  + gi.id()
                  + " ("
                  + gi.profile()
                  + ") is split into compute instances of different sizes ("
                  + String.join(", ", sizes)
                  + "), which mig-parted's config format cannot express");
        }
      }
    }
    return Optional.empty();
  }
}
