package io.migd.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A trace repeats a run: one seed gives one sequence, and every operation reads back as written.
 */
class OpTest {
  private static final NodeCatalog CATALOG =
      new NodeCatalog(
          List.of(
              new NodeCatalog.Gpu(
                  0, "A100-SXM4-40GB", true, 8, List.of("1g.5gb", "2g.10gb", "3g.20gb", "7g.40gb")),
              new NodeCatalog.Gpu(1, "A30", true, 4, List.of("1g.6gb", "2g.12gb", "4g.24gb")),
              new NodeCatalog.Gpu(2, "T4", false, 8, List.of())),
          Map.of(
              "all-disabled",
              Map.of(0, new GpuTarget(false, Map.of()), 1, new GpuTarget(false, Map.of())),
              "all-1g.5gb",
              Map.of(0, new GpuTarget(true, Map.of("1g.5gb", 7)))));

  @Test
  void sameSeedGivesTheSameOperations() {
    assertThat(operations(7, true))
        .isEqualTo(operations(7, true))
        .isNotEqualTo(operations(8, true));
  }

  @Test
  void everyOperationReadsBackAsWritten() {
    List<Op> ops = operations(7, true);
    assertThat(ops.stream().map(op -> Op.parse(op.line())).toList()).isEqualTo(ops);
    assertThat(ops.stream().map(op -> op.getClass().getSimpleName()).distinct())
        .as("every kind of operation is drawn")
        .hasSize(12);
  }

  @Test
  void withoutKillsNoMigdIsKilled() {
    assertThat(operations(7, false)).noneMatch(op -> op instanceof Op.Kill);
  }

  @Test
  void draModeDrawsClaimsInsteadOfPodsAndReadsBack() {
    List<Op> ops = operations(7, true, true);

    assertThat(operations(7, true, true)).isEqualTo(ops);
    assertThat(ops.stream().map(op -> Op.parse(op.line())).toList()).isEqualTo(ops);
    assertThat(ops.stream().map(op -> op.getClass().getSimpleName()).distinct())
        .containsExactlyInAnyOrder(
            "Prepare",
            "Unprepare",
            "Attach",
            "Detach",
            "Xid",
            "KubeletRestart",
            "ApiOutage",
            "Label",
            "PutLayout",
            "Kill",
            "Hostile",
            "Settle");
    assertThat(ops)
        .filteredOn(op -> op instanceof Op.Prepare)
        .extracting(op -> ((Op.Prepare) op).request())
        .contains("type=gpu", "profile=1g.5gb", "profile=4g.24gb")
        .anySatisfy(r -> assertThat(r).startsWith("share="))
        .filteredOn(r -> r.startsWith("share="))
        .allSatisfy(
            r -> {
              var asked = DraClaims.deviceRequest(r).capacity();
              assertThat(asked.get("memory")).isBetween(1L << 30, 40L << 30);
              assertThat(asked.get("memory") % (256 << 20)).isZero();
              assertThat(asked.get("compute")).isBetween(5L, 50L);
            });
  }

  @Test
  void draModeTurnsTheGpusBackToDynamicSoonAfterAStaticIntent() {
    List<Op> ops = operations(7, true, true);
    int staticAt = -1;
    for (int i = 0; i < ops.size(); i++) {
      String intent = intentOf(ops.get(i));
      if (intent == null) {
        continue;
      }
      if (!intent.equals(OpGenerator.ALL_DYNAMIC)) {
        staticAt = staticAt < 0 ? i : staticAt;
      } else {
        assertThat(staticAt < 0 || i - staticAt <= 17).as("back to dynamic at %d", i).isTrue();
        staticAt = -1;
      }
    }
  }

  private static String intentOf(Op op) {
    return switch (op) {
      case Op.Label(var config) -> config;
      case Op.PutLayout(var _, var _, var body) ->
          body.substring(body.indexOf(":\"") + 2, body.lastIndexOf('"'));
      default -> null;
    };
  }

  private static List<Op> operations(long seed, boolean kills) {
    return operations(seed, kills, false);
  }

  private static List<Op> operations(long seed, boolean kills, boolean dra) {
    var generator = new OpGenerator(seed, CATALOG, 50, kills, dra);
    var ops = new ArrayList<Op>();
    Stream.generate(generator::next).limit(2_000).forEach(ops::add);
    return ops;
  }
}
