package io.migd.pool;

import io.migd.layout.DeviceNames;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * The shareable twins of a GPU's devices (DESIGN section 14, Fractions): after the GPU's exclusive
 * devices, a twin {@code <device>-shared} of each whole GPU and dynamic placement that claims share
 * through consumable capacity, each share limited by MPS to what it consumed.
 *
 * <ul>
 *   <li>{@code allowMultipleAllocations}, type {@code gpu-share} or {@code mig-share} (never {@code
 *       gpu}/{@code mig}, so no class written for exclusive devices selects a twin), the device's
 *       other attributes and the same counters: the scheduler takes them once, with the first
 *       share, so an exclusive device and a shared one never overlap.
 *   <li>{@code memory}: the device's bytes, {@code {default: 1Gi, validRange: {min: 1Gi, step:
 *       256Mi}}}, no {@code max} (the API checks it against the step; the sum of the shares is
 *       bounded by the value anyway).
 *   <li>{@code compute}: 100 (percent of the device's multiprocessors), {@code {default: m,
 *       validRange: {min: m, max: 100, step: 1}}}, {@code m = ceil(100 / maxClients)} and {@code
 *       maxClients = floor(48 x the device's compute slices / the GPU's)}: MPS serves at most 48
 *       clients on a whole GPU, proportionally fewer on a MIG slice.
 *   <li>Every other capacity ({@code multiprocessors}, engines) {@code {default: 0, validValues:
 *       [0]}}: selectors read it, and a request asking for one makes the twin ineligible.
 * </ul>
 *
 * Twins with prepared shares come first, the most used first; then the rest in the exclusive order.
 */
final class ShareTwins {
  /** The capacity a share's memory is asked in, bytes. */
  static final String MEMORY = ProfileQuantity.MEMORY.capacityName();

  /** The capacity a share's compute is asked in, percent of the device's multiprocessors. */
  static final String COMPUTE = "compute";

  /** MPS clients of one server on a whole GPU. */
  static final int MPS_CLIENTS = 48;

  private static final long GIB = 1L << 30;
  private static final long MEMORY_STEP = 256L << 20;
  private static final Pattern COMPUTE_SLICES = Pattern.compile("^(\\d+)g\\.");

  private ShareTwins() {}

  /**
   * The twins of {@code devices} (one GPU's, in preference order).
   *
   * @param prepared how many shares are prepared on the twin of the device named so
   * @param reasons where a device that gets no twin is said
   */
  static List<PoolDevice> of(
      GpuFacts facts,
      List<PoolDevice> devices,
      ToIntFunction<String> prepared,
      List<String> reasons) {
    int gpuSlices =
        facts.profiles().stream().mapToInt(p -> computeSlices(p.name())).max().orElse(0);
    var twins = new ArrayList<PoolDevice>();
    for (PoolDevice device : devices) {
      switch (device.origin()) {
        case DeviceOrigin.WholeGpu _ -> twin(device, "gpu-share", MPS_CLIENTS, reasons, twins);
        case DeviceOrigin.DynamicPlacement placement -> {
          int slices = computeSlices(placement.profile());
          if (gpuSlices == 0 || slices == 0) {
            reasons.add(
                device.name()
                    + ": profile "
                    + placement.profile()
                    + " does not say its compute slices: no shareable twin");
          } else {
            twin(device, "mig-share", MPS_CLIENTS * slices / gpuSlices, reasons, twins);
          }
        }
        case DeviceOrigin.StaticSlice _ -> {
          // a compute instance a claim prepared while the GPU was static: not shared
        }
      }
    }
    // a stable sort: twins with as many shares keep the exclusive order
    twins.sort(
        Comparator.comparingInt(
            (PoolDevice twin) ->
                -prepared.applyAsInt(DeviceNames.sharedDevice(twin.name()).orElseThrow())));
    return List.copyOf(twins);
  }

  private static void twin(
      PoolDevice device,
      String type,
      int maxClients,
      List<String> reasons,
      List<PoolDevice> twins) {
    Long memory = device.capacity().get(MEMORY);
    if (memory == null || memory < GIB + MEMORY_STEP) {
      reasons.add(device.name() + ": too little memory to share: no shareable twin");
      return;
    }
    if (maxClients < 2) {
      reasons.add(
          device.name() + ": MPS serves " + maxClients + " client on it: no shareable twin");
      return;
    }
    long leastCompute = (100 + maxClients - 1) / maxClients;
    var capacity = new TreeMap<String, Long>(device.capacity());
    capacity.put(COMPUTE, 100L);
    var policies = new TreeMap<String, RequestPolicy>();
    for (Map.Entry<String, Long> each : capacity.entrySet()) {
      policies.put(each.getKey(), new RequestPolicy.Values(0, List.of(0L)));
    }
    policies.put(
        MEMORY,
        new RequestPolicy.Range(GIB, GIB, OptionalLong.empty(), OptionalLong.of(MEMORY_STEP)));
    policies.put(
        COMPUTE,
        new RequestPolicy.Range(
            leastCompute, leastCompute, OptionalLong.of(100), OptionalLong.of(1)));
    var attributes = new TreeMap<>(device.attributes());
    attributes.put("type", new Attribute.Text(type));
    twins.add(
        new PoolDevice(
            DeviceNames.shared(device.name()),
            attributes,
            capacity,
            device.consumes(),
            device.taints(),
            device.origin(),
            new Allocation.Shared(policies)));
  }

  /** The compute slices a profile's name gives ({@code 3g.40gb}: 3); 0 when it gives none. */
  static int computeSlices(String profile) {
    var matcher = COMPUTE_SLICES.matcher(profile);
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
  }
}
