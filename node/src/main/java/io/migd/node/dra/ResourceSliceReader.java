package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.layout.DeviceNames;
import io.migd.layout.GpuIndex;
import io.migd.pool.Allocation;
import io.migd.pool.Attribute;
import io.migd.pool.CounterConsumption;
import io.migd.pool.CounterSet;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.RequestPolicy;
import io.migd.pool.Taint;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a pool's ResourceSlices back into {@code io.migd.pool} records, as a scheduler sees them:
 * the highest generation only, slices by name, devices in listed order. What a slice does not say
 * is rebuilt from the device's attributes and name (DESIGN section 12 "Names"): a device's origin
 * comes from {@code type}, {@code index}, {@code uuid}, {@code parentUUID}, {@code profile}, {@code
 * placementStart} and {@code placementSize}; a MIG device that consumes counters is a dynamic
 * placement, one that does not a static slice, whose GPU- and compute-instance ids a slice does not
 * carry (both -1).
 */
public final class ResourceSliceReader {
  private static final Pattern MIG_NAME = Pattern.compile("^gpu-\\d+-mig-.+-(\\d+)-(\\d+)$");

  private final KubernetesClient client;

  /** Reads through {@code client}. */
  public ResourceSliceReader(KubernetesClient client) {
    this.client = Objects.requireNonNull(client);
  }

  /** The pool {@code pool} of {@code driver} as the server holds it now; empty when it has none. */
  public Optional<PublishedPool> read(String driver, String pool) {
    return of(
        driver, pool, client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems());
  }

  /** The pool {@code pool} of {@code driver} among {@code slices}; empty when none is of it. */
  public static Optional<PublishedPool> of(String driver, String pool, List<ResourceSlice> slices) {
    List<ResourceSlice> ours =
        slices.stream()
            .filter(
                s ->
                    s.getSpec() != null
                        && driver.equals(s.getSpec().getDriver())
                        && s.getSpec().getPool() != null
                        && pool.equals(s.getSpec().getPool().getName()))
            .toList();
    long highest = ours.stream().mapToLong(s -> generation(s.getSpec())).max().orElse(-1L);
    if (highest < 0) {
      return Optional.empty();
    }
    List<ResourceSlice> current =
        ours.stream()
            .filter(s -> generation(s.getSpec()) == highest)
            .sorted(Comparator.comparing(s -> s.getMetadata().getName()))
            .toList();
    Long count = current.getFirst().getSpec().getPool().getResourceSliceCount();
    return Optional.of(
        new PublishedPool(
            highest,
            count == null ? 0L : count,
            new PoolContent(
                driver, pool, current.stream().map(ResourceSliceReader::slice).toList())));
  }

  private static long generation(ResourceSliceSpec spec) {
    Long generation = spec.getPool().getGeneration();
    return generation == null ? 0L : generation;
  }

  private static PoolSlice slice(ResourceSlice slice) {
    ResourceSliceSpec spec = slice.getSpec();
    String name = slice.getMetadata().getName();
    if (spec.getSharedCounters() != null && !spec.getSharedCounters().isEmpty()) {
      return new PoolSlice(
          name,
          new PoolSlice.Counters(
              spec.getSharedCounters().stream()
                  .map(set -> new CounterSet(set.getName(), counters(set.getCounters())))
                  .toList()));
    }
    List<Device> devices = spec.getDevices() == null ? List.of() : spec.getDevices();
    List<PoolDevice> read = devices.stream().map(ResourceSliceReader::device).toList();
    GpuIndex gpu = gpuOf(slice, read);
    return new PoolSlice(name, new PoolSlice.Devices(gpu, read));
  }

  private static GpuIndex gpuOf(ResourceSlice slice, List<PoolDevice> devices) {
    Map<String, String> labels = slice.getMetadata().getLabels();
    if (labels != null && labels.containsKey(SliceObjects.GPU_LABEL)) {
      return new GpuIndex(Integer.parseInt(labels.get(SliceObjects.GPU_LABEL)));
    }
    if (!devices.isEmpty()) {
      return devices.getFirst().origin().gpu();
    }
    throw new IllegalArgumentException(
        "slice "
            + slice.getMetadata().getName()
            + " has no devices and no "
            + SliceObjects.GPU_LABEL
            + " label: which GPU it is cannot be told");
  }

  private static PoolDevice device(Device device) {
    var attributes = new TreeMap<String, Attribute>();
    if (device.getAttributes() != null) {
      device.getAttributes().forEach((name, value) -> attributes.put(name, attribute(name, value)));
    }
    var capacity = new TreeMap<String, Long>();
    var policies = new TreeMap<String, RequestPolicy>();
    if (device.getCapacity() != null) {
      device
          .getCapacity()
          .forEach(
              (name, value) -> {
                capacity.put(name, amount(value.getValue()));
                if (value.getRequestPolicy() != null) {
                  policies.put(name, policy(value.getRequestPolicy()));
                }
              });
    }
    List<CounterConsumption> consumes =
        device.getConsumesCounters() == null
            ? List.of()
            : device.getConsumesCounters().stream()
                .map(c -> new CounterConsumption(c.getCounterSet(), counters(c.getCounters())))
                .toList();
    List<Taint> taints =
        device.getTaints() == null
            ? List.of()
            : device.getTaints().stream()
                .map(
                    t ->
                        new Taint(
                            t.getKey(),
                            Objects.requireNonNullElse(t.getValue(), ""),
                            effect(t.getEffect())))
                .toList();
    return new PoolDevice(
        device.getName(),
        attributes,
        capacity,
        consumes,
        taints,
        origin(
            DeviceNames.sharedDevice(device.getName()).orElse(device.getName()),
            attributes,
            !consumes.isEmpty()),
        Boolean.TRUE.equals(device.getAllowMultipleAllocations())
            ? new Allocation.Shared(policies)
            : Allocation.EXCLUSIVE);
  }

  private static RequestPolicy policy(CapacityRequestPolicy policy) {
    long byDefault = amount(policy.getDefault());
    if (policy.getValidRange() != null) {
      var range = policy.getValidRange();
      return new RequestPolicy.Range(
          byDefault,
          amount(range.getMin()),
          range.getMax() == null ? OptionalLong.empty() : OptionalLong.of(amount(range.getMax())),
          range.getStep() == null
              ? OptionalLong.empty()
              : OptionalLong.of(amount(range.getStep())));
    }
    return new RequestPolicy.Values(
        byDefault,
        policy.getValidValues() == null
            ? List.of()
            : policy.getValidValues().stream().map(ResourceSliceReader::amount).toList());
  }

  private static DeviceOrigin origin(
      String name, Map<String, Attribute> attributes, boolean consumesCounters) {
    var gpu = new GpuIndex((int) integer(name, attributes, "index"));
    String type = text(name, attributes, "type");
    if (type.equals("gpu") || type.equals("gpu-share")) {
      return new DeviceOrigin.WholeGpu(gpu, text(name, attributes, "uuid"), consumesCounters);
    }
    String parent = text(name, attributes, "parentUUID");
    if (!consumesCounters && attributes.containsKey("uuid")) {
      return new DeviceOrigin.StaticSlice(gpu, parent, -1, -1, text(name, attributes, "uuid"));
    }
    Matcher matcher = MIG_NAME.matcher(name);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "device " + name + " is not named gpu-<minor>-mig-<profile>-<profile id>-<start>");
    }
    return new DeviceOrigin.DynamicPlacement(
        gpu,
        parent,
        text(name, attributes, "profile"),
        Integer.parseInt(matcher.group(1)),
        (int) integer(name, attributes, "placementStart"),
        (int) integer(name, attributes, "placementSize"));
  }

  private static String text(String device, Map<String, Attribute> attributes, String name) {
    if (attributes.get(name) instanceof Attribute.Text(var value)) {
      return value;
    }
    throw new IllegalArgumentException("device " + device + " has no string attribute " + name);
  }

  private static long integer(String device, Map<String, Attribute> attributes, String name) {
    if (attributes.get(name) instanceof Attribute.Int(var value)) {
      return value;
    }
    throw new IllegalArgumentException("device " + device + " has no int attribute " + name);
  }

  private static Attribute attribute(String name, DeviceAttribute value) {
    if (value.getInt() != null) {
      return new Attribute.Int(value.getInt());
    }
    if (value.getBool() != null) {
      return new Attribute.Bool(value.getBool());
    }
    if (value.getString() != null) {
      return new Attribute.Text(value.getString());
    }
    if (value.getVersion() != null) {
      return new Attribute.Version(value.getVersion());
    }
    throw new IllegalArgumentException(
        "attribute " + name + " has no int, bool, string or version");
  }

  private static SequencedMap<String, Long> counters(Map<String, Counter> counters) {
    var values = new LinkedHashMap<String, Long>();
    if (counters != null) {
      counters.forEach((name, counter) -> values.put(name, amount(counter.getValue())));
    }
    return values;
  }

  private static long amount(Quantity quantity) {
    return quantity.getNumericalAmount().longValueExact();
  }

  private static Taint.Effect effect(String wireName) {
    return Arrays.stream(Taint.Effect.values())
        .filter(e -> e.wireName().equals(wireName))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown taint effect " + wireName));
  }
}
