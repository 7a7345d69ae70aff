package io.migd.app;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;

class ReconcileParallelismIT {
  @TempDir Path dir;

  @Test
  void aNegativeParallelismIsRefusedAtStart() {
    assertThatThrownBy(
            () ->
                SpringApplication.run(
                        MigdApplication.class,
                        "--server.port=0",
                        "--migd.simulate=A100-SXM4-40GB",
                        "--migd.state-dir=" + dir,
                        "--migd.reconcile.parallelism=-2")
                    .close())
        .rootCause()
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("migd.reconcile.parallelism is -2");
  }
}
