package io.migd.claims;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.ModelSource;
import io.migd.pool.Attribute;
import io.migd.pool.BuiltPool;
import io.migd.pool.DeviceTaints;
import io.migd.pool.GpuFactsReader;
import io.migd.pool.PoolBuilder;
import io.migd.pool.PoolGpu;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pool the daemon publishes after a prepare is built when the prepare tells the surfaces its
 * GPUs changed ({@link ClaimEvents#touched}): it must be built from the claim's completed record,
 * so the GPU publishes its free placements and the instance just made belongs to the claim (issue
 * 29: it was built from the started record, whose placement looked like a whole GPU, and nothing
 * rebuilt it after the completed one).
 */
class PoolAfterPrepareIT {
  private static final GpuIndex GPU0 = new GpuIndex(0);

  @TempDir Path dir;

  @Test
  void afterOnePrepareOnADynamicH100ThePoolHasItsFreePlacementsAndTheClaimOwnsTheNewInstance() {
    try (var rig = ClaimsRig.start(dir, "H100-SXM5-80GB")) {
      var facts =
          new GpuFactsReader(
              rig.nvml, new ModelSource(rig.nvml, ClaimsRig.CATALOG), dir.resolve("sys"));
      var published = new AtomicReference<BuiltPool>();
      rig.events =
          new ClaimEvents() {
            @Override
            public void touched(Set<GpuIndex> gpus) {
              var h100 = rig.observer.observe(GPU0);
              published.set(
                  PoolBuilder.build(
                      new PoolBuilder.Input(
                          ClaimsRig.DRIVER,
                          ClaimsRig.POOL,
                          List.of(new PoolGpu(facts.read(h100), h100, true)),
                          rig.preparer.claimed(),
                          DeviceTaints.NONE,
                          false)));
            }
          };
      rig.preparer.close();
      rig.preparer = rig.newPreparer();
      String device = rig.deviceAt(0, "1g.10gb", 6);

      assertThat(rig.prepare(rig.allocate("c1", device)))
          .isInstanceOf(PrepareAnswer.Prepared.class);

      BuiltPool pool = published.get();
      assertThat(pool).isNotNull();
      String migUuid = rig.instances(0).getFirst().computeInstances().getFirst().uuid();
      assertThat(pool.content().device(device).orElseThrow().attributes())
          .containsEntry("uuid", new Attribute.Text(migUuid));
      assertThat(pool.reasons(GPU0)).noneMatch(r -> r.contains("belongs to no claim"));
      assertThat(pool.freePlacements(GPU0))
          .containsEntry("1g.10gb", 6)
          .containsEntry("3g.40gb", 1)
          .containsEntry("7g.80gb", 0);
    }
  }
}
