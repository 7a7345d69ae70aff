package io.migd.claims;

import io.migd.claims.ClaimSource.ClaimReadException;
import io.migd.layout.GpuIndex;
import io.migd.ownership.ClaimKey;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.sharing.DeviceSharing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Reads a claim from the API server and checks it before anything is touched: the UID, an
 * allocation, only migd's driver's results, none from another pool, every device in the published
 * pool, every GPU reconciled, and opaque config for migd that migd can apply (decoded strictly,
 * matched to each device).
 */
final class ClaimReading {
  /**
   * A device the claim is to get.
   *
   * @param requestNames the requests it serves (a device allocated to two requests serves both)
   * @param adminAccess whether only admin access was asked: nothing is created or owned
   * @param deviceClass the DeviceClass of the first request it serves, empty when not known
   * @param sharing how the configuration of the first request it serves shares it
   */
  record Wanted(
      PoolDevice device,
      List<String> requestNames,
      boolean adminAccess,
      String deviceClass,
      DeviceSharing sharing) {
    Wanted {
      Objects.requireNonNull(device);
      Objects.requireNonNull(sharing);
      Objects.requireNonNull(deviceClass);
      requestNames = List.copyOf(requestNames);
    }

    DeviceOrigin origin() {
      return device.origin();
    }
  }

  private final ClaimSource source;
  private final Supplier<PoolContent> pool;
  private final Predicate<GpuIndex> reconciled;
  private final ClaimSettings settings;

  ClaimReading(
      ClaimSource source,
      Supplier<PoolContent> pool,
      Predicate<GpuIndex> reconciled,
      ClaimSettings settings) {
    this.source = source;
    this.pool = pool;
    this.reconciled = reconciled;
    this.settings = settings;
  }

  /** A claim as read, with the devices of migd's driver it is to get. */
  record Read(AllocatedClaim claim, List<Wanted> wanted) {
    Read {
      Objects.requireNonNull(claim);
      wanted = List.copyOf(wanted);
    }
  }

  /**
   * The claim, and its devices of migd's driver in allocation order; a sentence when it cannot be.
   */
  Read devicesOf(ClaimKey key) {
    AllocatedClaim claim = read(key);
    if (!claim.allocated()) {
      throw new ClaimFailure("claim " + key.label() + " is not allocated");
    }
    ClaimConfigs configs = ClaimConfigs.of(claim, key.label(), settings.driver());
    PoolContent published = pool.get();
    var wanted = new LinkedHashMap<String, Wanted>();
    var shares = new ShareResults(key.label());
    for (AllocatedClaim.Result result : claim.results()) {
      if (!result.driver().equals(settings.driver())) {
        continue;
      }
      if (!result.pool().equals(settings.pool())) {
        throw new ClaimFailure(
            "device "
                + result.device()
                + " of request "
                + result.request()
                + " is in pool "
                + result.pool()
                + ", not this node's pool "
                + settings.pool());
      }
      PoolDevice device =
          published.device(result.device()).orElseThrow(() -> notPublished(published, result));
      GpuIndex gpu = device.origin().gpu();
      if (!reconciled.test(gpu)) {
        throw new ClaimFailure("GPU " + gpu + " not reconciled yet");
      }
      wanted.merge(
          device.name(),
          new Wanted(
              device,
              List.of(result.requestName()),
              result.adminAccess(),
              result.deviceClass(),
              shares.of(
                  result,
                  device,
                  configs.sharingOf(result.request(), device.name(), device.origin()),
                  wanted.containsKey(device.name()))),
          (a, b) -> {
            var names = new ArrayList<>(a.requestNames());
            if (!names.contains(result.requestName())) {
              names.add(result.requestName());
            }
            return new Wanted(
                a.device(),
                names,
                a.adminAccess() && b.adminAccess(),
                a.deviceClass(),
                a.sharing());
          });
    }
    return new Read(claim, List.copyOf(wanted.values()));
  }

  /** What the claim check found of a checkpointed claim. */
  sealed interface Checked {
    /** The API server could not be asked: nothing changes. */
    record Unknown() implements Checked {}

    /** Gone, re-created or no longer allocated from this pool: unprepare it. */
    record Stale(String why) implements Checked {}

    /** Still allocated from this pool, as it is now. */
    record Current(AllocatedClaim claim) implements Checked {}
  }

  /**
   * The answer for a device the pool lacks. Before the first reconcile ends the pool is empty (a
   * node's GPUs always give it devices), while the API server still has the previous run's slices
   * the claim was allocated from: that is a GPU not reconciled yet, which the kubelet retries.
   */
  private ClaimFailure notPublished(PoolContent published, AllocatedClaim.Result result) {
    if (published.devices().isEmpty()) {
      return new ClaimFailure(
          "GPU of device "
              + result.device()
              + " not reconciled yet (the first reconcile since migd started has not ended)");
    }
    return new ClaimFailure(
        "device "
            + result.device()
            + " is not in pool "
            + settings.pool()
            + " (not published now)");
  }

  /**
   * The claim as the API server has it now, or why it is stale: gone from the API server or no
   * longer allocated from this pool (the periodic claim check unprepares it).
   */
  Checked check(ClaimKey key) {
    Optional<AllocatedClaim> now;
    try {
      now = source.get(key.namespace(), key.name());
    } catch (ClaimReadException e) {
      return new Checked.Unknown();
    }
    if (now.isEmpty()) {
      return new Checked.Stale("claim " + key.label() + " is gone");
    }
    AllocatedClaim claim = now.get();
    if (!claim.uid().equals(key.uid())) {
      return new Checked.Stale("claim " + key.label() + " was re-created as uid " + claim.uid());
    }
    boolean ours =
        claim.allocated()
            && claim.results().stream()
                .anyMatch(
                    r -> r.driver().equals(settings.driver()) && r.pool().equals(settings.pool()));
    return ours
        ? new Checked.Current(claim)
        : new Checked.Stale("claim " + key.label() + " is no longer allocated from this pool");
  }

  private AllocatedClaim read(ClaimKey key) {
    Optional<AllocatedClaim> found;
    try {
      found = source.get(key.namespace(), key.name());
    } catch (ClaimReadException e) {
      throw new ClaimFailure("reading claim " + key.label() + ": " + e.getMessage(), e);
    }
    AllocatedClaim claim =
        found.orElseThrow(() -> new ClaimFailure("claim " + key.label() + " does not exist"));
    if (!claim.uid().equals(key.uid())) {
      throw new ClaimFailure(
          "claim "
              + key.namespace()
              + "/"
              + key.name()
              + " has uid "
              + claim.uid()
              + ", not "
              + key.uid()
              + " (it was deleted and created again)");
    }
    return claim;
  }
}
