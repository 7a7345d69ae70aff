package io.migd.dra;

import io.migd.ownership.ClaimKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one implementation behind the v1 and v1beta1 DRA services: calls {@link ClaimPreparation}
 * once per kubelet call with the distinct claims, and answers every claim of the call. A claim the
 * delegate left out gets an error naming it; an exception from the delegate becomes the error of
 * every claim it did not answer, never a failed call, since the kubelet ignores a whole answer that
 * fails.
 */
public final class ClaimCalls {
  private static final Logger log = LoggerFactory.getLogger(ClaimCalls.class);

  private final ClaimPreparation delegate;

  public ClaimCalls(ClaimPreparation delegate) {
    this.delegate = Objects.requireNonNull(delegate);
  }

  /** One result per distinct claim UID, in request order. */
  public SequencedMap<String, PrepareResult> prepare(List<ClaimKey> claims) {
    return answerEach(
        "preparing", claims, delegate::prepare, PrepareResult::claim, PrepareResult.Failed::new);
  }

  /** One result per distinct claim UID, in request order. */
  public SequencedMap<String, UnprepareResult> unprepare(List<ClaimKey> claims) {
    return answerEach(
        "unpreparing",
        claims,
        delegate::unprepare,
        UnprepareResult::claim,
        UnprepareResult.Failed::new);
  }

  private static <R> SequencedMap<String, R> answerEach(
      String doing,
      List<ClaimKey> requested,
      Function<List<ClaimKey>, List<R>> call,
      Function<R, ClaimKey> claimOf,
      BiFunction<ClaimKey, String, R> failure) {
    var claims = new LinkedHashMap<String, ClaimKey>();
    requested.forEach(claim -> claims.putIfAbsent(claim.uid(), claim));
    if (claims.isEmpty()) {
      return new LinkedHashMap<>();
    }
    var answered = new LinkedHashMap<String, R>();
    RuntimeException thrown = null;
    try {
      for (R result :
          Objects.requireNonNullElse(call.apply(List.copyOf(claims.values())), List.<R>of())) {
        keep(doing, claims, answered, Objects.requireNonNull(result, "a null result"), claimOf);
      }
    } catch (RuntimeException e) {
      thrown = e;
      log.error("{} claims failed: claims={}", doing, claims.keySet(), e);
    }
    var answers = new LinkedHashMap<String, R>();
    for (var claim : claims.values()) {
      var result = answered.get(claim.uid());
      if (result == null) {
        result = failure.apply(claim, unanswered(doing, claim, thrown));
      }
      answers.put(claim.uid(), result);
    }
    return answers;
  }

  private static <R> void keep(
      String doing,
      Map<String, ClaimKey> claims,
      Map<String, R> answered,
      R result,
      Function<R, ClaimKey> claimOf) {
    var uid = claimOf.apply(result).uid();
    if (!claims.containsKey(uid)) {
      log.warn("{} answered a claim the kubelet did not ask about: uid={}", doing, uid);
    } else if (answered.putIfAbsent(uid, result) != null) {
      log.warn("{} answered a claim twice, keeping the first answer: uid={}", doing, uid);
    }
  }

  private static String unanswered(String doing, ClaimKey claim, RuntimeException thrown) {
    if (thrown == null) {
      log.warn("{} gave no answer for a claim: claim={}", doing, claim.label());
      return doing + " claim " + claim.label() + " gave no answer; the kubelet will retry it";
    }
    var reason = thrown.getMessage() == null ? thrown.toString() : thrown.getMessage();
    return doing + " claim " + claim.label() + " failed: " + reason;
  }
}
