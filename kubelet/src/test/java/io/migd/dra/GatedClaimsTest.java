package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.ownership.ClaimKey;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class GatedClaimsTest {
  static final ClaimKey A = new ClaimKey("a", "ns", "train");
  static final ClaimKey B = new ClaimKey("b", "ns", "serve");
  static final String WHY = "the API server has not answered migd's DRA probe yet (HTTP 500)";

  @Test
  void answersEveryClaimOfAPrepareWhyWhileClosedAndPreparesNothing() {
    var driver = new ScriptedClaims();
    var gated = new GatedClaims(driver, () -> Optional.of(WHY));

    assertThat(gated.prepare(List.of(A, B)))
        .containsExactly(new PrepareResult.Failed(A, WHY), new PrepareResult.Failed(B, WHY));
    assertThat(driver.prepareCalls).isEmpty();
  }

  @Test
  void unpreparesWhileClosed() {
    var driver = new ScriptedClaims();
    var gated = new GatedClaims(driver, () -> Optional.of(WHY));

    assertThat(gated.unprepare(List.of(A))).containsExactly(new UnprepareResult.Unprepared(A));
  }

  @Test
  void preparesOnceOpen() {
    var driver = new ScriptedClaims();
    var why = new AtomicReference<Optional<String>>(Optional.of(WHY));
    var gated = new GatedClaims(driver, why::get);
    gated.prepare(List.of(A));

    why.set(Optional.empty());

    assertThat(gated.prepare(List.of(A)))
        .singleElement()
        .isInstanceOf(PrepareResult.Prepared.class);
    assertThat(driver.prepareCalls).containsExactly(List.of(A));
  }
}
