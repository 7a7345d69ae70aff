package io.migd.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.layout.ObservedNode;
import io.migd.pool.Facts;
import io.migd.pool.GpuFacts;
import io.migd.profiles.MigConfigWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CurrentConfigTest {
  private final GpuFacts gpu0 = Facts.of("H100-SXM5-80GB", 0);
  private final GpuFacts gpu1 = Facts.of("H100-SXM5-80GB", 1);

  /** Both GPUs hold one 1g.10gb instance now: GPU 0 made by a claim, GPU 1 asked for statically. */
  private final ObservedNode node =
      new ObservedNode(
          List.of(
              Facts.migOn(gpu0, Facts.instance(gpu0, 1, "1g.10gb", 6)),
              Facts.migOn(gpu1, Facts.instance(gpu1, 1, "1g.10gb", 6))),
          new TreeMap<>());

  @Test
  void exportsADynamicGpuAsDynamicNotAsTheInstancesItsClaimsHoldNow() {
    Map<GpuIndex, GpuTarget> intent =
        Map.of(
            gpu0.gpu(), GpuTarget.dynamic(gpu0.gpu()),
            gpu1.gpu(), GpuTarget.mig(gpu1.gpu(), List.of()));

    String yaml = MigConfigWriter.write(CurrentConfig.of(node, intent));

    assertThat(yaml)
        .contains(
            """
              current:
                - devices: [0]
                  mig-enabled: true
                  dynamic: true
                - devices: [1]
                  mig-enabled: true
                  mig-devices:
                    "1g.10gb": 1
            """);
  }

  @Test
  void exportsTheSameGpuAsItsInstancesWithoutAnIntent() {
    String yaml = MigConfigWriter.write(CurrentConfig.of(node));

    assertThat(yaml)
        .doesNotContain("dynamic")
        .contains("- devices: all")
        .contains("\"1g.10gb\": 1");
  }

  @Test
  void exportsTheSharesOfADynamicGpuAndOfAWholeGpu() {
    var whole = Facts.of("T4", 1);
    var withShares =
        new ObservedNode(
            List.of(Facts.migOn(gpu0, Facts.instance(gpu0, 1, "1g.10gb", 6)), Facts.migOff(whole)),
            new TreeMap<>());
    Map<GpuIndex, GpuTarget> intent =
        Map.of(
            gpu0.gpu(), GpuTarget.dynamic(gpu0.gpu(), true),
            whole.gpu(), GpuTarget.sharedWhole(whole.gpu()));

    String yaml = MigConfigWriter.write(CurrentConfig.of(withShares, intent));

    assertThat(yaml)
        .contains(
            """
              current:
                - devices: [0]
                  mig-enabled: true
                  dynamic: true
                  shares: true
                - devices: [1]
                  mig-enabled: false
                  shares: true
            """);
  }
}
