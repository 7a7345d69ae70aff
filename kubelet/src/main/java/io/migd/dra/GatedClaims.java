package io.migd.dra;

import io.migd.ownership.ClaimKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Prepares only while {@code closedBecause} is empty; while it says why not, each claim of a
 * prepare is answered that sentence, which the kubelet retries. An unprepare always goes through:
 * it needs only what this node holds (in DRA mode migd serves the kubelet before the API server has
 * answered its probe, issue 18).
 */
public final class GatedClaims implements ClaimPreparation {
  private final ClaimPreparation delegate;
  private final Supplier<Optional<String>> closedBecause;

  public GatedClaims(ClaimPreparation delegate, Supplier<Optional<String>> closedBecause) {
    this.delegate = Objects.requireNonNull(delegate);
    this.closedBecause = Objects.requireNonNull(closedBecause);
  }

  @Override
  public List<PrepareResult> prepare(List<ClaimKey> claims) {
    Optional<String> closed = closedBecause.get();
    if (closed.isPresent()) {
      return claims.stream()
          .<PrepareResult>map(claim -> new PrepareResult.Failed(claim, closed.get()))
          .toList();
    }
    return delegate.prepare(claims);
  }

  @Override
  public List<UnprepareResult> unprepare(List<ClaimKey> claims) {
    return delegate.unprepare(claims);
  }
}
