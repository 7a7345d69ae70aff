package io.migd.dra;

import io.migd.claims.ClaimPreparer;
import io.migd.claims.PrepareAnswer;
import io.migd.claims.UnprepareAnswer;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimKey;
import java.util.List;
import java.util.Objects;

/**
 * The kubelet's DRA calls carried out by the core's {@link ClaimPreparer}: maps each claim's answer
 * out, and holds no logic of its own.
 */
public final class PreparingClaims implements ClaimPreparation {
  private final ClaimPreparer preparer;

  public PreparingClaims(ClaimPreparer preparer) {
    this.preparer = Objects.requireNonNull(preparer);
  }

  @Override
  public List<PrepareResult> prepare(List<ClaimKey> claims) {
    return preparer.prepare(claims).stream().map(PreparingClaims::result).toList();
  }

  @Override
  public List<UnprepareResult> unprepare(List<ClaimKey> claims) {
    return preparer.unprepare(claims).stream().map(PreparingClaims::result).toList();
  }

  private static PrepareResult result(PrepareAnswer answer) {
    return switch (answer) {
      case PrepareAnswer.Prepared(var claim, var pool, var devices) ->
          new PrepareResult.Prepared(claim, devices.stream().map(d -> device(pool, d)).toList());
      case PrepareAnswer.Failed(var claim, var error) -> new PrepareResult.Failed(claim, error);
    };
  }

  private static UnprepareResult result(UnprepareAnswer answer) {
    return switch (answer) {
      case UnprepareAnswer.Unprepared(var claim) -> new UnprepareResult.Unprepared(claim);
      case UnprepareAnswer.Failed(var claim, var error) -> new UnprepareResult.Failed(claim, error);
    };
  }

  private static PreparedDevice device(String pool, CheckpointClaim.Device d) {
    return new PreparedDevice(
        d.requestNames(),
        pool,
        d.name(),
        d.cdiDeviceIds(),
        d.share().map(CheckpointClaim.Share::shareId).orElse(null));
  }
}
