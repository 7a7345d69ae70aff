package io.migd.app;

import io.migd.reconcile.ReconcileSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code migd.*} properties, read the same way by {@code serve} (Spring Boot) and by the
 * one-shot commands (Spring's binder without a context): command-line {@code --migd.x=y}, then
 * environment ({@code MIGD_NVML_LIBRARY}), then these defaults.
 *
 * @param nvml where NVML comes from
 * @param simulate GPU models to simulate ({@code --simulate=A100-SXM4-40GB,T4}); empty for the
 *     driver's NVML
 * @param stateDir where the intent and the lock live
 * @param configFile the mig-parted config file; empty for the one generated from the catalogue
 * @param config the config of that file to apply when no label or REST call says otherwise
 * @param reconcile loop timing
 * @param reboot reboots for MIG mode changes that need one
 * @param resetCommand resets a GPU so a pending MIG mode applies, as an argument list ({pciBusId}
 *     is replaced); never split on whitespace
 * @param health liveness of the reconcile loop
 */
@ConfigurationProperties("migd")
public record MigdProperties(
    @DefaultValue Nvml nvml,
    @DefaultValue("") String simulate,
    @DefaultValue("/var/lib/migd") Path stateDir,
    @DefaultValue("") String configFile,
    @DefaultValue("") String config,
    @DefaultValue Reconcile reconcile,
    @DefaultValue Reboot reboot,
    @DefaultValue({"nvidia-smi", "-r", "-i", "{pciBusId}"}) List<String> resetCommand,
    @DefaultValue Health health) {

  /** Refuses a command element holding whitespace; fills in the default liveness timeout. */
  public MigdProperties {
    resetCommand = CommandList.check("migd.reset-command", resetCommand);
    if (health.livenessTimeout() == null) {
      health =
          new Health(
              ReconcileSettings.defaultLivenessTimeout(reconcile.resync(), reconcile.maxBackoff()));
    }
  }

  /**
   * @param resync how often to reconcile when nothing triggers it
   * @param maxBackoff the longest wait between retries after a failure
   */
  public record Reconcile(
      @DefaultValue("5m") Duration resync, @DefaultValue("5m") Duration maxBackoff) {}

  /**
   * @param enabled whether migd may reboot the node when only a reboot applies a MIG mode
   * @param command the reboot command, as an argument list; never split on whitespace
   */
  public record Reboot(
      @DefaultValue("false") boolean enabled,
      @DefaultValue({"systemctl", "reboot"}) List<String> command) {
    /** Refuses a command element holding whitespace. */
    public Reboot {
      command = CommandList.check("migd.reboot.command", command);
    }
  }

  /**
   * @param livenessTimeout liveness turns DOWN when no reconcile has completed for this long; unset
   *     means 2 x resync + max backoff
   */
  public record Health(Duration livenessTimeout) {}

  /**
   * @param library the NVML library to load: a path, or a name the dynamic linker finds
   * @param extractDir where the bundled simulated library is extracted; empty for a temp dir
   */
  public record Nvml(
      @DefaultValue("libnvidia-ml.so.1") String library, @DefaultValue("") String extractDir) {}

  /** Whether migd runs on simulated GPUs. */
  public boolean simulated() {
    return !simulate.isBlank();
  }
}
