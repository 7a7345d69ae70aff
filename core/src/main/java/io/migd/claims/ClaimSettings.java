package io.migd.claims;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What the claims side of DRA mode is configured with.
 *
 * @param driver the DRA driver's name, {@code gpu.nvidia.com}
 * @param pool the node's pool (the node's name)
 * @param stateDir {@code migd.state-dir}, where the checkpoint lives
 * @param bootIdFile {@code <proc-root>/sys/kernel/random/boot_id}
 * @param reclaimAfter how long an unprepared dynamic instance stays idle for reuse before it is
 *     destroyed ({@code migd.dra.reclaim-after})
 * @param sharesOneNamespace whether a device's shares must all be of one namespace ({@code
 *     migd.dra.shares.namespaces=single})
 */
public record ClaimSettings(
    String driver,
    String pool,
    Path stateDir,
    Path bootIdFile,
    Duration reclaimAfter,
    boolean sharesOneNamespace) {
  /** Checks every part is there. */
  public ClaimSettings {
    Objects.requireNonNull(driver);
    Objects.requireNonNull(pool);
    Objects.requireNonNull(stateDir);
    Objects.requireNonNull(bootIdFile);
    if (reclaimAfter.isNegative()) {
      throw new IllegalArgumentException("reclaim-after " + reclaimAfter + " is negative");
    }
  }

  /** Settings under which shares of a device may be of any namespace. */
  public ClaimSettings(
      String driver, String pool, Path stateDir, Path bootIdFile, Duration reclaimAfter) {
    this(driver, pool, stateDir, bootIdFile, reclaimAfter, false);
  }

  /** The boot id file under a proc root ({@code /proc}, or a test's tree). */
  public static Path bootIdUnder(Path procRoot) {
    return procRoot.resolve("sys/kernel/random/boot_id");
  }
}
