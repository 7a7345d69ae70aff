package io.migd.node.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.migd.pool.PoolContent;
import io.migd.pool.Taint;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SliceObjectsTest {
  static final SliceObjects.Owner OWNER = new SliceObjects.Owner("n1", "uid-1");
  static final Instant T0 = Instant.parse("2026-11-26T01:00:00Z");

  private static Map<String, ResourceSlice> byName(List<ResourceSlice> slices) {
    return slices.stream()
        .collect(Collectors.toMap(s -> s.getMetadata().getName(), Function.identity()));
  }

  @Test
  void aSliceTheServerCanonicalisedSaysTheSame() {
    List<ResourceSlice> ours = SliceObjects.of(TestPools.dynamicNode("n1", 1), OWNER, Map.of(), T0);
    ResourceSlice canonical =
        new ResourceSliceBuilder(ours.get(1))
            .editSpec()
            .editFirstDevice()
            .addToCapacity("memory", new DeviceCapacity(null, new Quantity("5Gi")))
            .endDevice()
            .editPool()
            .withGeneration(7L)
            .withResourceSliceCount(2L)
            .endPool()
            .endSpec()
            .build();

    assertThat(SliceObjects.sameContent(canonical, ours.get(1))).isTrue();
    assertThat(SliceObjects.sameContent(ours.get(0), ours.get(1))).isFalse();
  }

  @Test
  void aTaintKeepsTheTimeItWasAdded() {
    Taint xid = new Taint("gpu.nvidia.com/xid", "79", Taint.Effect.NO_SCHEDULE);
    PoolContent tainted = TestPools.dynamicNode("n1", 1, Map.of(0, xid));
    Map<String, ResourceSlice> onServer = byName(SliceObjects.of(tainted, OWNER, Map.of(), T0));

    List<ResourceSlice> later = SliceObjects.of(tainted, OWNER, onServer, T0.plusSeconds(600));

    assertThat(later.get(1).getSpec().getDevices().getFirst().getTaints().getFirst().getTimeAdded())
        .isEqualTo("2026-11-26T01:00:00Z");
    assertThat(
            SlicePlan.between(
                    byName(
                        SlicePlan.between(Map.of(), SliceObjects.of(tainted, OWNER, Map.of(), T0))
                            .writes()),
                    later)
                .isEmpty())
        .isTrue();
  }

  @Test
  void labelsANodeWhoseNameIsTooLongForALabelValueByItsHash() {
    String longName = "gpu-node-" + "a".repeat(60) + ".example.com";

    String label = SliceObjects.labelValue(longName);

    assertThat(label).hasSize(62).startsWith("h-").matches("[a-z0-9-]+");
    assertThat(SliceObjects.labelValue("gpu-node-7")).isEqualTo("gpu-node-7");
  }
}
