package io.migd.dra;

import io.migd.claims.AnsweredDevice;
import io.migd.claims.ClaimKey;
import io.migd.claims.ClaimPreparer;
import io.migd.claims.PrepareAnswer;
import io.migd.claims.UnprepareAnswer;
import java.util.List;
import java.util.Objects;

/**
 * The kubelet's DRA calls carried out by the core's {@link ClaimPreparer}: maps the claims in and
 * each claim's answer out, and holds no logic of its own.
 */
public final class PreparingClaims implements ClaimPreparation {
  private final ClaimPreparer preparer;

  public PreparingClaims(ClaimPreparer preparer) {
    this.preparer = Objects.requireNonNull(preparer);
  }

  @Override
  public List<PrepareResult> prepare(List<ClaimRef> claims) {
    return preparer.prepare(keys(claims)).stream().map(PreparingClaims::result).toList();
  }

  @Override
  public List<UnprepareResult> unprepare(List<ClaimRef> claims) {
    return preparer.unprepare(keys(claims)).stream().map(PreparingClaims::result).toList();
  }

  private static List<ClaimKey> keys(List<ClaimRef> claims) {
    return claims.stream().map(c -> new ClaimKey(c.uid(), c.namespace(), c.name())).toList();
  }

  private static ClaimRef ref(ClaimKey key) {
    return new ClaimRef(key.namespace(), key.uid(), key.name());
  }

  private static PrepareResult result(PrepareAnswer answer) {
    return switch (answer) {
      case PrepareAnswer.Prepared(var claim, var devices) ->
          new PrepareResult.Prepared(
              ref(claim), devices.stream().map(PreparingClaims::device).toList());
      case PrepareAnswer.Failed(var claim, var error) ->
          new PrepareResult.Failed(ref(claim), error);
    };
  }

  private static UnprepareResult result(UnprepareAnswer answer) {
    return switch (answer) {
      case UnprepareAnswer.Unprepared(var claim) -> new UnprepareResult.Unprepared(ref(claim));
      case UnprepareAnswer.Failed(var claim, var error) ->
          new UnprepareResult.Failed(ref(claim), error);
    };
  }

  private static PreparedDevice device(AnsweredDevice d) {
    return new PreparedDevice(d.requestNames(), d.pool(), d.device(), d.cdiDeviceIds());
  }
}
