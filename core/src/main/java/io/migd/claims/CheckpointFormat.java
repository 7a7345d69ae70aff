package io.migd.claims;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.migd.layout.GpuIndex;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.CheckpointClaim.Device;
import io.migd.ownership.CheckpointClaim.Kind;
import io.migd.ownership.CheckpointClaim.Share;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimDevice.MigInstance;
import io.migd.ownership.ClaimKey;
import io.migd.ownership.ReservedPod;
import io.migd.profiles.Placement;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The DRA checkpoint's file format (format version 1): its JSON records, and how a claim is stored
 * and read back.
 */
final class CheckpointFormat {
  private CheckpointFormat() {}

  /**
   * A device as the file holds it. A planned placement has {@code giProfileId} and the placement, a
   * made instance its ids and MIG UUID, a whole GPU neither; what a device lacks is left out (files
   * written before wrote -1 and an empty UUID, read the same way).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record StoredDevice(
      String name,
      String kind,
      int gpu,
      String gpuUuid,
      Integer giProfileId,
      Integer gpuInstanceId,
      Integer computeInstanceId,
      Integer placementStart,
      Integer placementSize,
      String migUuid,
      List<String> requestNames,
      List<String> cdiDeviceIds,
      // added after format 1 shipped: absent in older files, and left out when null so their
      // checksum (over the re-serialised content) still matches
      String deviceClass,
      StoredShare share) {}

  /** A share's shareID and what it consumed; absent for a device the claim holds alone. */
  record StoredShare(String shareId, long memoryBytes, int computePercent) {}

  record StoredPod(String namespace, String name, String uid, List<String> containers) {}

  record StoredClaim(
      String uid,
      String namespace,
      String name,
      String state,
      List<StoredDevice> devices,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<StoredPod> pods) {}

  record Body(String bootId, List<StoredClaim> claims) {}

  record Stored(Integer formatVersion, String checksum, String bootId, List<StoredClaim> claims) {}

  static StoredClaim toStored(CheckpointClaim c) {
    return new StoredClaim(
        c.claim().uid(),
        c.claim().namespace(),
        c.claim().name(),
        c.completed() ? "prepareCompleted" : "prepareStarted",
        c.devices().stream().map(CheckpointFormat::storedDevice).toList(),
        c.pods().stream()
            .map(p -> new StoredPod(p.namespace(), p.name(), p.uid(), p.containers()))
            .toList());
  }

  static CheckpointClaim fromStored(StoredClaim c) {
    boolean completed =
        switch (c.state()) {
          case "prepareCompleted" -> true;
          case "prepareStarted" -> false;
          case null, default ->
              throw new IllegalArgumentException(
                  "claim " + c.uid() + ": unknown state " + c.state());
        };
    return new CheckpointClaim(
        new ClaimKey(c.uid(), c.namespace(), c.name()),
        completed,
        c.devices().stream().map(CheckpointFormat::deviceOf).toList(),
        c.pods() == null
            ? List.of()
            : c.pods().stream()
                .map(p -> new ReservedPod(p.namespace(), p.name(), p.uid(), p.containers()))
                .toList());
  }

  private static StoredDevice storedDevice(Device d) {
    Integer giProfile = null;
    Integer gi = null;
    Integer ci = null;
    Integer start = null;
    Integer size = null;
    String migUuid = null;
    switch (d.device()) {
      case ClaimDevice.Whole _ -> {}
      case ClaimDevice.Planned p -> {
        giProfile = p.giProfileId();
        start = p.placement().start();
        size = p.placement().size();
      }
      case ClaimDevice.Made m -> {
        gi = m.instance().gpuInstanceId();
        ci = m.instance().computeInstanceId();
        migUuid = m.instance().migUuid();
      }
    }
    return new StoredDevice(
        d.name(),
        d.kind().name(),
        d.gpu().value(),
        d.device().gpuUuid(),
        giProfile,
        gi,
        ci,
        start,
        size,
        migUuid,
        d.requestNames(),
        d.cdiDeviceIds(),
        d.deviceClass(),
        d.share()
            .map(x -> new StoredShare(x.shareId(), x.memoryBytes(), x.computePercent()))
            .orElse(null));
  }

  private static Device deviceOf(StoredDevice d) {
    var gpu = new GpuIndex(d.gpu());
    ClaimDevice device;
    if (present(d.gpuInstanceId())) {
      device =
          new ClaimDevice.Made(
              d.name(),
              gpu,
              d.gpuUuid(),
              new MigInstance(
                  d.gpuInstanceId(),
                  Objects.requireNonNull(d.computeInstanceId(), "computeInstanceId"),
                  Objects.requireNonNullElse(d.migUuid(), "")));
    } else if (present(d.placementStart())) {
      device =
          new ClaimDevice.Planned(
              d.name(),
              gpu,
              d.gpuUuid(),
              Objects.requireNonNull(d.giProfileId(), "giProfileId"),
              new Placement(d.placementStart(), d.placementSize()));
    } else {
      device = new ClaimDevice.Whole(d.name(), gpu, d.gpuUuid());
    }
    return new Device(
        device,
        Kind.valueOf(d.kind()),
        d.requestNames(),
        d.cdiDeviceIds(),
        Objects.requireNonNullElse(d.deviceClass(), ""),
        Optional.ofNullable(d.share())
            .map(x -> new Share(x.shareId(), x.memoryBytes(), x.computePercent())));
  }

  /** Whether a stored id is there: files written before this form wrote -1 for none. */
  private static boolean present(Integer id) {
    return id != null && id >= 0;
  }
}
