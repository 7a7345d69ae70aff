package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.ownership.ClaimKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ClaimCallsTest {
  static final ClaimKey A = new ClaimKey("a", "ns", "train");
  static final ClaimKey B = new ClaimKey("b", "ns", "serve");
  static final ClaimKey STRANGER = new ClaimKey("z", "ns", "other");

  @Test
  void asksOnceForEachClaimAndKeepsTheRequestOrder() {
    var asked = new ArrayList<List<ClaimKey>>();
    var calls =
        calls(
            claims -> {
              asked.add(claims);
              return claims.reversed().stream().<PrepareResult>map(c -> prepared(c)).toList();
            });

    var answers = calls.prepare(List.of(B, A, B));

    assertThat(asked).containsExactly(List.of(B, A));
    assertThat(answers.sequencedKeySet()).containsExactly("b", "a");
    assertThat(answers.values()).allMatch(r -> r instanceof PrepareResult.Prepared);
  }

  @Test
  void ignoresAnswersForClaimsNotAskedAndKeepsTheFirstOfTwo() {
    var calls =
        calls(_ -> List.of(prepared(STRANGER), new PrepareResult.Failed(A, "first"), prepared(A)));

    var answers = calls.prepare(List.of(A));

    assertThat(answers).containsOnlyKeys("a");
    assertThat(answers.get("a")).isEqualTo(new PrepareResult.Failed(A, "first"));
  }

  @Test
  void answersEveryClaimWhenTheDriverReturnsNothing() {
    var answers = calls(_ -> null).prepare(List.of(A, B));

    assertThat(answers.values())
        .extracting(r -> ((PrepareResult.Failed) r).error())
        .containsExactly(
            "preparing claim ns/train (uid a) gave no answer; the kubelet will retry it",
            "preparing claim ns/serve (uid b) gave no answer; the kubelet will retry it");
  }

  @Test
  void neverSendsAnEmptyErrorWhichWouldMeanSuccess() {
    var answers = calls(_ -> List.of(new PrepareResult.Failed(A, " "))).prepare(List.of(A));

    assertThat(((PrepareResult.Failed) answers.get("a")).error())
        .isEqualTo("preparing claim ns/train (uid a) failed without a reason");
  }

  @Test
  void keepsWhatTheDriverAnsweredBeforeItThrew() {
    var calls =
        new ClaimCalls(
            new ClaimPreparation() {
              @Override
              public List<PrepareResult> prepare(List<ClaimKey> claims) {
                return List.of();
              }

              @Override
              public List<UnprepareResult> unprepare(List<ClaimKey> claims) {
                return Arrays.asList(new UnprepareResult.Unprepared(A), null);
              }
            });

    var answers = calls.unprepare(List.of(A, B));

    assertThat(answers.get("a")).isEqualTo(new UnprepareResult.Unprepared(A));
    assertThat(((UnprepareResult.Failed) answers.get("b")).error())
        .startsWith("unpreparing claim ns/serve (uid b) failed: ");
  }

  private static PrepareResult prepared(ClaimKey claim) {
    return new PrepareResult.Prepared(
        claim, List.of(new PreparedDevice(List.of(), "node-a", "gpu-0", List.of())));
  }

  private static ClaimCalls calls(Function<List<ClaimKey>, List<PrepareResult>> prepare) {
    return new ClaimCalls(
        new ClaimPreparation() {
          @Override
          public List<PrepareResult> prepare(List<ClaimKey> claims) {
            return prepare.apply(claims);
          }

          @Override
          public List<UnprepareResult> unprepare(List<ClaimKey> claims) {
            throw new UnsupportedOperationException();
          }
        });
  }
}
