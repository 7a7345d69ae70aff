package io.migd.cli;

import io.migd.app.MigdProperties;
import io.migd.app.NodeRuntime;
import io.migd.app.NvmlConnector;
import io.migd.app.StateLock;
import io.migd.nvml.NvmlCallObserver;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.RebootPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code migd apply -f FILE -c NAME}: make the GPUs match a config once, then exit. */
@Command(
    name = "apply",
    mixinStandardHelpOptions = true,
    description = "Make the GPUs match a config once, then exit (0 reached, 1 not reached).")
final class ApplyCommand implements Callable<Integer> {
  /** A plan that ran but did not converge is retried this many times within one apply. */
  private static final int ROUNDS = 3;

  @Mixin CommonOptions common;
  @CommandLine.Unmatched List<String> propertyArgs = new ArrayList<>();
  @Mixin ConfigOptions configOptions;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--force", description = "Apply even while a migd daemon holds the state lock.")
  boolean force;

  @Override
  public Integer call() throws IOException {
    MigdProperties properties = common.withProperties(propertyArgs).bind(spec.commandLine());
    GpuModelCatalog catalog = GpuModelCatalog.builtIn();
    var file = configOptions.load(properties, catalog);
    var config = configOptions.select(file, properties);
    StateLock lock = null;
    if (!force) {
      switch (tryLock(properties)) {
        case StateLock.Attempt.Acquired(var acquired) -> lock = acquired;
        case StateLock.Attempt.HeldElsewhere(var lockFile) -> {
          spec.commandLine()
              .getErr()
              .println(
                  "migd: a migd daemon holds "
                      + lockFile
                      + " and would undo this apply; change its intent instead (label or REST),"
                      + " or use --force");
          return ExitStatus.ENVIRONMENT;
        }
      }
    }
    try (var session = NvmlConnector.open(properties, NvmlCallObserver.NONE);
        var node = NodeRuntime.oneShot(session, catalog, file, properties, RebootPolicy.DISABLED)) {
      var reconciler = node.reconciler();
      Desired desired = Desired.config(Desired.Source.FILE, config.name(), 1);
      Outcome outcome = reconciler.reconcile(desired);
      for (int round = 1; round < ROUNDS && outcome.state() == GpuResult.State.APPLYING; round++) {
        outcome = reconciler.reconcile(desired);
      }
      return Reports.outcome(outcome, spec.commandLine().getErr());
    } finally {
      if (lock != null) {
        lock.close();
      }
    }
  }

  private StateLock.Attempt tryLock(MigdProperties properties) {
    try {
      return StateLock.tryAcquire(properties.stateDir());
    } catch (IOException e) {
      throw new EnvironmentException(StateLock.unusable(properties.stateDir(), e), e);
    }
  }
}
