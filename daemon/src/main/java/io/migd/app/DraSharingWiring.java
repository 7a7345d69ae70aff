package io.migd.app;

import io.migd.mps.ClaimDaemons;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsPaths;
import io.migd.mps.ProcessMpsControl;
import io.migd.nvml.Nvml;
import io.migd.sharing.ClaimSharing;
import io.migd.sharing.DraSharing;
import java.time.Duration;

/**
 * The sharing of DRA claims (docs/contract.md, "Sharing a claim's devices") as the properties say:
 * compute modes through NVML, the time slice through {@code migd.dra.timeslice-command}, MPS
 * daemons through the {@code -mps} DaemonSet under {@code migd.mps.root}.
 */
final class DraSharingWiring {
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

  private DraSharingWiring() {}

  static ClaimSharing sharing(MigdProperties properties, Nvml nvml) {
    var mps = properties.mps();
    return new DraSharing(
        properties.stateDir(),
        (uuid, mode) -> nvml.setComputeMode(nvml.deviceByUuid(uuid), mode),
        properties.dra().timesliceCommand(),
        new ClaimDaemons(
            new ProcessMpsControl(mps.controlCommand(), COMMAND_TIMEOUT),
            new MpsDaemons.Settings(
                new MpsPaths(mps.root()), mps.shmSize().toBytes(), mps.startTimeout())));
  }
}
