package io.migd.claims;

import io.migd.layout.GpuIndex;
import io.migd.ownership.CheckpointClaim.Device;
import io.migd.ownership.ClaimDevice;
import io.migd.ownership.ClaimKey;
import io.migd.sharing.ClaimSharing;
import io.migd.sharing.ClientEdits;
import io.migd.sharing.ConfigRefused;
import io.migd.sharing.DeviceSharing;
import io.migd.sharing.SharedDevice;
import io.migd.sharing.SharingFailure;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A prepared claim's devices as its CDI spec gets them: each on its GPU's lane, its GPU's minor
 * read and its sharing applied (once every device exists, since MPS limits may name a device by its
 * index among the claim's UUIDs); and the sharing undone at unprepare.
 */
final class PreparedSharing {
  private final ClaimSharing sharing;
  private final ClaimInstances instances;
  private final GpuLanes lanes;

  PreparedSharing(ClaimSharing sharing, ClaimInstances instances, GpuLanes lanes) {
    this.sharing = sharing;
    this.instances = instances;
    this.lanes = lanes;
  }

  /**
   * The CDI devices of {@code done}, {@code shared} as {@code sharings} says (in the same order).
   *
   * @throws ClaimFailure when a device's sharing cannot be applied
   */
  List<CdiDevice> shared(ClaimKey key, List<Device> done, List<DeviceSharing> sharings) {
    List<String> uuids = done.stream().map(d -> uuid(d.device())).toList();
    var result = new ArrayList<CdiDevice>();
    for (int i = 0; i < done.size(); i++) {
      ClaimDevice device = done.get(i).device();
      var one =
          new SharedDevice(
              device.name(),
              device.gpu(),
              uuid(device),
              device instanceof ClaimDevice.Whole,
              sharings.get(i));
      result.add(
          lanes.run(
              device.gpu(),
              () -> {
                int minor = instances.minor(device.name(), device.gpu(), device.gpuUuid());
                return new CdiDevice(
                    device,
                    minor,
                    apply(key, one, uuids),
                    one.sharing() instanceof DeviceSharing.Share share
                        ? Optional.of(share.shareId())
                        : Optional.empty());
              }));
    }
    return result;
  }

  /**
   * Undoes the claim's sharing.
   *
   * @throws ClaimFailure when some of it could not be undone (the kubelet retries)
   */
  void release(ClaimKey key) {
    release(key, List.of());
  }

  /**
   * Undoes the claim's sharing on the lanes of {@code shareGpus}, the GPUs of its shares, taken in
   * index order: a share ending and another of the same device being prepared take turns, so the
   * device's daemon is never stopped under a share that joins it.
   *
   * @throws ClaimFailure when some of it could not be undone (the kubelet retries)
   */
  void release(ClaimKey key, Collection<GpuIndex> shareGpus) {
    Supplier<Void> work =
        () -> {
          try {
            sharing.release(key.uid());
          } catch (SharingFailure e) {
            throw new ClaimFailure(e.getMessage(), e);
          }
          return null;
        };
    List<GpuIndex> order =
        shareGpus.stream().distinct().sorted(Comparator.comparingInt(GpuIndex::value)).toList();
    for (GpuIndex gpu : order.reversed()) {
      Supplier<Void> inner = work;
      work = () -> lanes.run(gpu, inner);
    }
    work.get();
  }

  private ClientEdits apply(ClaimKey key, SharedDevice device, List<String> uuids) {
    try {
      return sharing.apply(key.uid(), device, uuids);
    } catch (ConfigRefused e) {
      throw new ClaimFailure("claim " + key.label() + ": " + e.getMessage());
    } catch (SharingFailure e) {
      throw new ClaimFailure("claim " + key.label() + ": " + e.getMessage(), e);
    }
  }

  private static String uuid(ClaimDevice device) {
    return switch (device) {
      case ClaimDevice.Whole w -> w.gpuUuid();
      case ClaimDevice.Made m -> m.instance().migUuid();
      case ClaimDevice.Planned p ->
          throw new IllegalStateException(p.name() + ": a placement not made has no UUID");
    };
  }
}
