package io.migd.app;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReconcileParallelismTest {
  @Test
  void aNegativeParallelismIsRefusedSayingWhatToGive() {
    assertThatThrownBy(
            () -> new MigdProperties.Reconcile(Duration.ofMinutes(5), Duration.ofMinutes(5), -1))
        .hasMessageContaining("migd.reconcile.parallelism is -1")
        .hasMessageContaining("0 (every GPU at once");
  }
}
