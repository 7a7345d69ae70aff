package io.migd.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.mps.ClaimDaemons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos runner's share invariants name the device, the claims and the numbers when a twin's
 * shares exceed its capacities, a share daemon's limits fall below a share, or an exclusive claim
 * holds a shared GPU.
 */
class DraShareInvariantsTest {
  private static final String GPU_UUID = "GPU-5a1e0000-0000-4000-8000-000000000001";
  private static final String TWIN = "gpu-0-shared";
  private static final NvmlView NVML =
      new NvmlView(
          List.of(new NvmlView.Gpu(0, "T4", GPU_UUID, false, false, List.of(), Set.of(), 3)));
  private static final Map<String, Map<String, Long>> TWINS =
      Map.of(TWIN, Map.of("memory", 16L << 30, "compute", 100L));

  @TempDir Path mpsRoot;

  private final ChaosReport report = new ChaosReport(5);

  @Test
  void sharesOfATwinWithinItsCapacitiesAndUnderItsDaemonsLimitsHold() throws IOException {
    daemon(8192, 60);

    check(List.of(share("a", 8 << 10, 40), share("b", 8 << 10, 60)), "{\"claims\":[]}");

    assertThat(report.violations()).isEmpty();
  }

  @Test
  void sharesOverATwinsComputeOrMemoryAreNamedWithTheirNumbers() throws IOException {
    daemon(12288, 70);

    check(
        List.of(share("a", 12 << 10, 70), share("b", 4 << 10, 40)),
        """
        {"claims":[{"name":"c","uid":"u-c","state":"prepareCompleted","devices":[
          {"name":"gpu-0-shared","share":{"shareId":"s1","memoryBytes":12884901888,"computePercent":20}},
          {"name":"gpu-0-shared","share":{"shareId":"s2","memoryBytes":8589934592,"computePercent":20}}
        ]}]}
        """);

    assertThat(report.violations())
        .extracting(ChaosReport.Violation::detail)
        .containsExactlyInAnyOrder(
            "gpu-0-shared in the kubelet's prepared claims: memory 17179869184 of 17179869184"
                + " bytes, compute 110 of 100 % by [a (12288 MiB, 70 %), b (4096 MiB, 40 %)]",
            "gpu-0-shared in migd's checkpoint: memory 21474836480 of 17179869184 bytes,"
                + " compute 40 of 100 % by [c (12288 MiB, 20 %), c (8192 MiB, 20 %)]");
  }

  @Test
  void aDaemonWhoseLimitsAreBelowAPreparedShareIsNamed() throws IOException {
    daemon(4096, 20);

    check(List.of(share("a", 8 << 10, 40)), "{\"claims\":[]}");

    assertThat(report.violations())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.invariant())
                  .isEqualTo(
                      "every share daemon's limits are at least each of its prepared shares");
              assertThat(v.detail())
                  .isEqualTo(
                      "a gpu-0-shared (8192 MiB, 40 %): daemon "
                          + ClaimDaemons.id("share", GPU_UUID)
                          + " holds 4096 MiB, 20 %");
            });
  }

  @Test
  void anExclusiveClaimOnASharedGpuIsAnOverlapButSharesOfOneTwinAreNot() {
    var exclusive = new DraClaims.Known("x", "u-x", List.of("gpu-0"), true, List.of());

    new DraInvariants(null, report)
        .checkInstances(1, NVML, List.of(share("a", 1 << 10, 10), share("b", 1 << 10, 10)));
    assertThat(report.violations()).isEmpty();

    new DraInvariants(null, report)
        .checkInstances(1, NVML, List.of(share("a", 1 << 10, 10), exclusive));
    assertThat(report.violations())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.invariant()).isEqualTo("no exclusive instance overlaps a shared one");
              assertThat(v.detail()).isEqualTo("x gpu-0 and a gpu-0-shared");
            });
  }

  private void check(List<DraClaims.Known> known, String checkpoint) {
    new DraShareInvariants(report)
        .check(1, NVML, known, GpuTarget.tree(checkpoint), TWINS, Optional.of(mpsRoot));
  }

  /** The twin's daemon, its defaults set to {@code mib} and {@code percent} last. */
  private void daemon(long mib, int percent) throws IOException {
    Path dir = mpsRoot.resolve(ClaimDaemons.id("share", GPU_UUID));
    Files.createDirectories(dir.resolve("pipe"));
    Files.writeString(dir.resolve("daemon.json"), "{\"device\":\"" + GPU_UUID + "\"}");
    Files.write(
        dir.resolve("pipe/control.log"),
        List.of(
            "-f -M",
            "set_default_active_thread_percentage 5",
            "set_default_device_pinned_mem_limit 0 1024M",
            "set_default_active_thread_percentage " + percent,
            "set_default_device_pinned_mem_limit 0 " + mib + "M"));
  }

  private static DraClaims.Known share(String name, long mib, long compute) {
    return new DraClaims.Known(
        name,
        "u-" + name,
        List.of(TWIN),
        true,
        List.of(
            new DraClaims.Share(
                TWIN, "share-" + name, Map.of("memory", mib << 20, "compute", compute))));
  }
}
