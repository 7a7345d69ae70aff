package io.migd.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The runner's options: every one in the usage line is read, an unknown one is refused. */
class ChaosSettingsTest {
  @Test
  void readsEveryOptionOfTheUsageLine() {
    var settings =
        ChaosSettings.parse(
            List.of(
                "--mode=dra",
                "--seed=9",
                "--minutes=1.5",
                "--rate=3",
                "--trace=t.tsv",
                "--replay=r.tsv",
                "--migd-jar=m.jar",
                "--models=A30,T4",
                "--resync=4",
                "--settle-every=10",
                "--converge-bound=30",
                "--settle-timeout=60",
                "--sample-every=15",
                "--kills=off",
                "--shares=off",
                "--work=/tmp/w"));

    assertThat(settings)
        .isEqualTo(
            new ChaosSettings(
                "dra",
                9,
                new ChaosSettings.Length.Timed(Duration.ofSeconds(90)),
                3,
                Path.of("t.tsv"),
                Optional.of(Path.of("r.tsv")),
                Path.of("m.jar"),
                "A30,T4",
                Duration.ofSeconds(4),
                10,
                Duration.ofSeconds(30),
                Duration.ofSeconds(60),
                Duration.ofSeconds(15),
                false,
                false,
                Path.of("/tmp/w")));
  }

  @Test
  void countsOperationsInsteadOfTimeWhenTold() {
    var length = ChaosSettings.parse(List.of("--operations=24")).length();

    assertThat(length).isEqualTo(new ChaosSettings.Length.Counted(24));
    assertThat(length.generates(23, Duration.ofHours(1))).isTrue();
    assertThat(length.generates(24, Duration.ZERO)).isFalse();
    assertThat(
            ChaosSettings.parse(List.of("--seconds=50"))
                .length()
                .generates(1000, Duration.ofSeconds(49)))
        .isTrue();
  }

  @Test
  void boundsConvergenceByTwiceTheResyncUnlessTold() {
    assertThat(ChaosSettings.parse(List.of("--resync=7")).convergeBound())
        .isEqualTo(Duration.ofSeconds(14));
  }

  @Test
  void refusesAnUnknownOption() {
    assertThatThrownBy(() -> ChaosSettings.parse(List.of("--kill=off")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option --kill");
  }
}
