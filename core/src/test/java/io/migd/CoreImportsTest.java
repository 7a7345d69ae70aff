package io.migd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reconcile core, the NVML binding and the profiles never import Spring, gRPC, fabric8 or
 * Micrometer: those stay at the edges (docs/architecture.md).
 */
class CoreImportsTest {
  private static final Pattern FRAMEWORK =
      Pattern.compile(
          "^import (static )?(org\\.springframework|io\\.grpc|io\\.fabric8|io\\.micrometer)\\.");

  private static final List<Path> CORE_SOURCES =
      List.of(
          Path.of("src", "main", "java"),
          Path.of("..", "nvml", "src", "main", "java"),
          Path.of("..", "profiles", "src", "main", "java"));

  @Test
  void coreSourcesImportNoFramework() throws IOException {
    long files = 0;
    for (Path root : CORE_SOURCES) {
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path file : paths.filter(p -> p.toString().endsWith(".java")).toList()) {
          files++;
          for (String line : Files.readAllLines(file)) {
            assertThat(FRAMEWORK.matcher(line).find()).as("%s: %s", file, line).isFalse();
          }
        }
      }
    }
    assertThat(files).as("source files checked").isGreaterThan(50);
  }
}
