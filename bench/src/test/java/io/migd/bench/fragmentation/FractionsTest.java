package io.migd.bench.fragmentation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FractionsTest {
  @Test
  void sharesAdmitMoreClaimsThanExclusiveDevicesEachGrantedItsAskRounded() {
    var gpus = Fragmentation.gpus();
    var events = Fractions.events(1, 200, 1.5, Fractions.Asks.UNIFORM, gpus);

    var shares = Fractions.shares(events, gpus);
    var exclusive = Fractions.exclusive(events, gpus);

    assertThat(exclusive.refused()).as("exclusive refusals").isGreaterThan(exclusive.claims() / 10);
    assertThat(shares.admitted())
        .as("a quarter more at least")
        .isGreaterThanOrEqualTo(exclusive.admitted() * 5 / 4);
    assertThat(shares.grants())
        .allSatisfy(
            g -> {
              assertThat(g.memory())
                  .as("rounded up to the 256 MiB step")
                  .isBetween(g.ask().memory(), g.ask().memory() + 255 * Fractions.MIB);
              assertThat(g.compute()).isEqualTo(g.ask().compute());
            });
    assertThat(exclusive.grants())
        .allSatisfy(
            g -> {
              assertThat(g.memory()).isGreaterThanOrEqualTo(g.ask().memory());
              assertThat(g.compute()).isGreaterThanOrEqualTo(g.ask().compute());
            });
  }
}
