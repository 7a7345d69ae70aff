package io.migd.cli;

import io.migd.app.KnownProperties;
import io.migd.app.MigdProperties;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Options every command takes: {@code --simulate} and {@code --migd.*=value} properties, bound with
 * Spring Boot's rules (so {@code MIGD_NVML_LIBRARY} works as it does for {@code serve}) but without
 * starting a Spring context.
 */
public final class CommonOptions {
  @Option(
      names = "--simulate",
      paramLabel = "MODEL[,MODEL...]",
      description = "Run on simulated GPUs (e.g. A100-SXM4-40GB,T4) instead of the driver's NVML.")
  String simulate;

  /**
   * The properties a command was given: picocli ignores {@code @Unmatched} in a mixin, so each
   * command declares the field and hands it over here.
   */
  private List<String> properties = List.of();

  /** Takes the arguments picocli did not match as {@code --name=value} properties. */
  CommonOptions withProperties(List<String> unmatched) {
    this.properties = List.copyOf(unmatched);
    return this;
  }

  /** The {@code --migd.*} properties, checked to be of the form {@code --name=value}. */
  List<String> propertyArgs(CommandLine commandLine) {
    var args = new ArrayList<String>();
    for (String p : properties) {
      if (!p.matches("--[a-z][\\w.-]*=.*")) {
        throw new CommandLine.ParameterException(
            commandLine, "unknown option or argument '" + p + "' (properties are --name=value)");
      }
      args.add(p);
    }
    if (simulate != null) {
      args.add("--migd.simulate=" + simulate);
    }
    return args;
  }

  /** Binds the {@code migd.*} properties from these arguments and the environment. */
  MigdProperties bind(CommandLine commandLine) {
    List<String> args = propertyArgs(commandLine);
    KnownProperties.ofMigd()
        .firstUnknown(args, System.getenv())
        .ifPresent(
            unknown -> {
              throw new CommandLine.ParameterException(commandLine, unknown);
            });
    var env = new StandardEnvironment();
    env.getPropertySources()
        .addFirst(new SimpleCommandLinePropertySource(args.toArray(String[]::new)));
    ConfigurationPropertySources.attach(env);
    MigdProperties properties = Binder.get(env).bindOrCreate("migd", MigdProperties.class);
    checkSimulatedModels(properties, commandLine);
    return properties;
  }

  /**
   * Refuses unknown models before the simulator sees them, so the user gets migd's one line with
   * the known models rather than the simulator's usage text. A simulator given more models ({@code
   * NVML_SIM_MODELS}, test-fixtures/README.md) names an unknown one itself.
   */
  static void checkSimulatedModels(MigdProperties properties, CommandLine commandLine) {
    if (!properties.simulated() || !System.getenv().getOrDefault("NVML_SIM_MODELS", "").isEmpty()) {
      return;
    }
    List<String> known = GpuModelCatalog.builtIn().models().stream().map(GpuModel::key).toList();
    for (String model : properties.simulate().split(",", -1)) {
      if (known.stream().noneMatch(k -> k.equalsIgnoreCase(model.strip()))) {
        throw new CommandLine.ParameterException(
            commandLine,
            "unknown GPU model \""
                + model.strip()
                + "\" in --simulate; known models: "
                + String.join(", ", known));
      }
    }
  }
}
