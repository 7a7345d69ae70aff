package io.migd.claims;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM that prepares or unprepares one claim on the node a {@link ClaimsRig} keeps in a
 * directory, with a simulator fault set (the {@code KILL} fault ends it with SIGKILL right after
 * the faulted call).
 */
final class ClaimKillProbe {
  /** The exit status of a process killed by SIGKILL. */
  static final int KILLED = 137;

  /** The fault that ends the probe right after the claim's CDI spec is written. */
  static final String CDI_KILL = "CDI=KILL";

  private ClaimKillProbe() {}

  /** Runs the probe and waits for it; returns its exit status. */
  static int run(Path dir, String faults, String operation, String uid, String device)
      throws IOException, InterruptedException {
    var java = ProcessHandle.current().info().command().orElseThrow();
    Process process =
        new ProcessBuilder(
                List.of(
                    java,
                    "--enable-native-access=ALL-UNNAMED",
                    // start-up dominates a probe; C1 only and the serial collector start fastest
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    ClaimKillProbe.class.getName(),
                    dir.toString(),
                    faults,
                    operation,
                    uid,
                    device))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("probe.log").toFile())
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("the probe did not end: " + log(dir));
    }
    return process.exitValue();
  }

  static String log(Path dir) throws IOException {
    return Files.readString(dir.resolve("probe.log"));
  }

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    var rig = ClaimsRig.attach(dir);
    if (args[1].equals(CDI_KILL)) {
      rig.cdiWriter = killedAfterWriting(rig.cdi);
    } else {
      rig.sim.require("faults", args[1]);
    }
    rig.preparer = rig.newPreparer();
    var claim = rig.allocate(args[3], args[4]);
    Object answer = args[2].equals("prepare") ? rig.prepare(claim) : rig.unprepare(claim);
    System.out.println("not killed: " + answer);
    System.exit(0);
  }

  /** {@code cdi}, ending the process as SIGKILL would right after it wrote a spec. */
  private static ClaimCdi killedAfterWriting(ClaimCdi cdi) {
    return new ClaimCdi() {
      @Override
      public List<String> write(String claimUid, List<CdiDevice> devices) {
        cdi.write(claimUid, devices);
        Runtime.getRuntime().halt(KILLED);
        throw new IllegalStateException("halted");
      }

      @Override
      public void remove(String claimUid) {
        cdi.remove(claimUid);
      }
    };
  }
}
