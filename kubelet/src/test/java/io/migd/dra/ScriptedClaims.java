package io.migd.dra;

import io.migd.ownership.ClaimKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link ClaimPreparation} whose answers the claim names choose: {@code omit-*} is left out,
 * {@code fail-*} fails, {@code throw-*} makes the whole call throw, {@code shared-*} gets a shared
 * device; any other claim gets one device {@code gpu-0-mig-1g10gb-19-0} of pool {@code node-a}.
 */
final class ScriptedClaims implements ClaimPreparation {
  static final String POOL = "node-a";
  static final String DEVICE = "gpu-0-mig-1g10gb-19-0";
  static final String SHARE = "share-7";

  final List<List<ClaimKey>> prepareCalls = new CopyOnWriteArrayList<>();
  final List<List<ClaimKey>> unprepareCalls = new CopyOnWriteArrayList<>();

  static List<String> cdiIds(String uid) {
    return List.of("k8s.migd.io/claim=" + uid + "-" + DEVICE);
  }

  @Override
  public List<PrepareResult> prepare(List<ClaimKey> claims) {
    prepareCalls.add(claims);
    throwIfAsked(claims);
    var results = new ArrayList<PrepareResult>();
    for (var claim : claims) {
      if (claim.name().startsWith("fail-")) {
        results.add(new PrepareResult.Failed(claim, "no free placement for " + claim.name()));
      } else if (!claim.name().startsWith("omit-")) {
        var share = claim.name().startsWith("shared-") ? SHARE : null;
        results.add(
            new PrepareResult.Prepared(
                claim,
                List.of(
                    new PreparedDevice(List.of("gpu"), POOL, DEVICE, cdiIds(claim.uid()), share))));
      }
    }
    return results;
  }

  @Override
  public List<UnprepareResult> unprepare(List<ClaimKey> claims) {
    unprepareCalls.add(claims);
    throwIfAsked(claims);
    var results = new ArrayList<UnprepareResult>();
    for (var claim : claims) {
      if (claim.name().startsWith("fail-")) {
        results.add(new UnprepareResult.Failed(claim, "process 4242 uses " + DEVICE));
      } else if (!claim.name().startsWith("omit-")) {
        results.add(new UnprepareResult.Unprepared(claim));
      }
    }
    return results;
  }

  private static void throwIfAsked(List<ClaimKey> claims) {
    if (claims.stream().anyMatch(c -> c.name().startsWith("throw-"))) {
      throw new IllegalStateException("NVML is gone");
    }
  }
}
