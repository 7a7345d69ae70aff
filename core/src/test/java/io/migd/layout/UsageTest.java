package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who holds what: a user of a whole GPU holds every instance on it. */
class UsageTest {
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final GpuIndex GPU1 = new GpuIndex(1);

  @Test
  void aPodGivenAMigEnabledGpuWholeHoldsEveryInstanceOnItAndNothingElsewhere() {
    var usage =
        new Usage(
            Map.of(
                new Usage.SliceKey(GPU0, Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES),
                List.of("pod ml/whole (container main)"),
                new Usage.SliceKey(GPU1, 3, 0),
                List.of("process 7 (python)")));

    assertThat(usage.holdersOf(GPU0, 5)).containsExactly("pod ml/whole (container main)");
    assertThat(usage.holdersOf(GPU0, 5, 0)).containsExactly("pod ml/whole (container main)");
    assertThat(usage.holdersOf(GPU1, 3, 0)).containsExactly("process 7 (python)");
    assertThat(usage.holdersOf(GPU1, 3)).containsExactly("process 7 (python)");
    assertThat(usage.holdersOf(GPU1, 4)).isEmpty();
    assertThat(usage.holdersOf(GPU1, 4, 0)).isEmpty();
  }
}
