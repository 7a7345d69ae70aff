package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Helm reads files inside the chart only, so the chart carries a copy of the shipped configs. */
class ShippedConfigCopyTest {
  @Test
  void theChartsConfigFileIsTheShippedOne() throws IOException {
    var shipped = Path.of("..", "profiles", "configs", "default.yaml");
    var copy = Chart.DIR.resolve("files/default.yaml");

    assertThat(Files.readString(copy))
        .as(
            "helm/migd/files/default.yaml differs from profiles/configs/default.yaml:"
                + " cp profiles/configs/default.yaml helm/migd/files/default.yaml")
        .isEqualTo(Files.readString(shipped));
  }
}
