package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class KnownPropertiesTest {
  private final KnownProperties known = KnownProperties.ofMigd();

  @Test
  void aTypoInAnArgumentIsNamedWithTheClosestProperty() {
    assertThat(known.firstUnknown(List.of("--migd.reconcile.resynk=1m"), Map.of()))
        .hasValue(
            "--migd.reconcile.resynk is not a migd property (a typo?); the closest is"
                + " migd.reconcile.resync (docs/contract.md lists them all)");
  }

  @Test
  void aTypoInTheEnvironmentIsNamedWithTheClosestProperty() {
    assertThat(known.firstUnknown(List.of(), Map.of("MIGD_AUTH_TOKENFIL", "/t")))
        .get()
        .asString()
        .startsWith("the environment variable MIGD_AUTH_TOKENFIL is not a migd property")
        .contains("the closest is migd.auth.token-file ");
  }

  @Test
  void everySpellingSpringBindsIsKnown() {
    assertThat(
            known.firstUnknown(
                List.of(
                    "--migd.auth.token-file=/t",
                    "--migd.auth.tokenFile=/t",
                    "--migd.reset-command[0]=nvidia-smi",
                    "--migd.kubelet.mode=dra",
                    "--server.port=0",
                    "--logging.level.io.migd=DEBUG"),
                Map.of(
                    "MIGD_AUTH_TOKENFILE", "/t",
                    "MIGD_RESETCOMMAND_0", "x",
                    "MIGD_DRA_DRIVERNAME", "gpu.nvidia.com",
                    "MIGD_LOG_LEVEL", "DEBUG",
                    "MIGD_SERVICE_HOST", "10.0.0.1",
                    "MIGD_METRICS_SERVICE_PORT_HTTP", "8080",
                    "MIGD_PORT_8080_TCP_ADDR", "10.0.0.1",
                    "PATH", "/usr/bin")))
        .isEmpty();
  }

  @Test
  void theContractListsEveryPropertyAndNoOther() throws Exception {
    String contract = Files.readString(Path.of("..", "docs", "contract.md"));
    var documented =
        Pattern.compile("^\\| `(migd\\.[a-z.-]+)`(?:, `(migd\\.[a-z.-]+)`)? \\|", Pattern.MULTILINE)
            .matcher(contract)
            .results()
            .flatMap(m -> Stream.of(m.group(1), m.group(2)))
            .filter(name -> name != null)
            .distinct()
            .toList();
    assertThat(documented).containsExactlyInAnyOrderElementsOf(known.names());
  }
}
