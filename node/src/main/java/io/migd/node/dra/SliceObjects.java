package io.migd.node.dra;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpecBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.migd.pool.Allocation;
import io.migd.pool.Attribute;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.RequestPolicy;
import io.migd.pool.Taint;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * The ResourceSlice objects of a {@link PoolContent} (DESIGN section 12 "Pool and slices"), without
 * their {@code pool.generation} and {@code resourceSliceCount}, which the publisher sets when it
 * writes them. Each is owned by the Node and labelled with the node and the driver, so the
 * publisher lists its own slices and the Node's deletion takes them with it.
 */
final class SliceObjects {
  /** The node whose pool a slice belongs to (also its {@code spec.nodeName}). */
  static final String NODE_LABEL = "migd.io/node";

  /** The DRA driver that publishes the slice. */
  static final String DRIVER_LABEL = "migd.io/driver";

  /** The GPU index of a device-only slice, so an empty one still says which GPU it is. */
  static final String GPU_LABEL = "migd.io/gpu";

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private SliceObjects() {}

  /**
   * {@code name} as a label value: itself when it fits a label value's 63 characters, else {@code
   * h-} and the first 60 hex digits of its SHA-256 (a node name may have up to 253).
   */
  static String labelValue(String name) {
    if (name.length() <= 63) {
      return name;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(UTF_8));
      return "h-" + HexFormat.of().formatHex(digest).substring(0, 60);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The node's identity as the owner of its slices. */
  record Owner(String nodeName, String nodeUid) {
    Owner {
      Objects.requireNonNull(nodeName);
      Objects.requireNonNull(nodeUid);
    }
  }

  /**
   * The slices of {@code content} in its order, generation and count 0. A taint a device already
   * had on the server (same key, value and effect) keeps its {@code timeAdded}; a new one gets
   * {@code now}.
   */
  static List<ResourceSlice> of(
      PoolContent content, Owner owner, Map<String, ResourceSlice> onServer, Instant now) {
    Map<String, String> taintTimes = taintTimes(onServer);
    String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
    return content.slices().stream()
        .map(slice -> slice(content, slice, owner, taintTimes, time))
        .toList();
  }

  private static ResourceSlice slice(
      PoolContent content,
      PoolSlice slice,
      Owner owner,
      Map<String, String> taintTimes,
      String now) {
    var labels = new TreeMap<String, String>();
    labels.put(NODE_LABEL, labelValue(owner.nodeName()));
    labels.put(DRIVER_LABEL, content.driver());
    var spec =
        new ResourceSliceSpecBuilder()
            .withDriver(content.driver())
            .withNodeName(owner.nodeName())
            .withNewPool()
            .withName(content.pool())
            .withGeneration(0L)
            .withResourceSliceCount(0L)
            .endPool();
    switch (slice.content()) {
      case PoolSlice.Counters(var sets) ->
          spec.withSharedCounters(
              sets.stream()
                  .map(
                      set ->
                          new CounterSetBuilder()
                              .withName(set.name())
                              .withCounters(counters(set.counters()))
                              .build())
                  .toList());
      case PoolSlice.Devices(var gpu, var devices) -> {
        labels.put(GPU_LABEL, Integer.toString(gpu.value()));
        spec.withDevices(devices.stream().map(d -> device(d, taintTimes, now)).toList());
      }
    }
    return new ResourceSliceBuilder()
        .withMetadata(
            new ObjectMetaBuilder()
                .withName(slice.name())
                .withLabels(labels)
                .withOwnerReferences(
                    new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("Node")
                        .withName(owner.nodeName())
                        .withUid(owner.nodeUid())
                        .withController(true)
                        .build())
                .build())
        .withSpec(spec.build())
        .build();
  }

  private static Map<String, Counter> counters(SequencedMap<String, Long> values) {
    var counters = new LinkedHashMap<String, Counter>();
    values.forEach((name, value) -> counters.put(name, new Counter(quantity(value))));
    return counters;
  }

  private static Device device(PoolDevice device, Map<String, String> taintTimes, String now) {
    var attributes = new LinkedHashMap<String, DeviceAttribute>();
    device.attributes().forEach((name, value) -> attributes.put(name, attribute(value)));
    var capacity = new LinkedHashMap<String, DeviceCapacity>();
    Map<String, RequestPolicy> policies =
        device.allocation() instanceof Allocation.Shared(var shared) ? shared : Map.of();
    device
        .capacity()
        .forEach(
            (name, value) ->
                capacity.put(
                    name,
                    new DeviceCapacity(
                        policies.containsKey(name) ? policy(policies.get(name)) : null,
                        quantity(value))));
    var builder = new DeviceBuilder().withName(device.name());
    if (device.shared()) {
      builder.withAllowMultipleAllocations(true);
    }
    if (!attributes.isEmpty()) {
      builder.withAttributes(attributes);
    }
    if (!capacity.isEmpty()) {
      builder.withCapacity(capacity);
    }
    if (!device.consumes().isEmpty()) {
      builder.withConsumesCounters(
          device.consumes().stream()
              .map(
                  c ->
                      new DeviceCounterConsumptionBuilder()
                          .withCounterSet(c.counterSet())
                          .withCounters(counters(c.counters()))
                          .build())
              .toList());
    }
    if (!device.taints().isEmpty()) {
      builder.withTaints(
          device.taints().stream()
              .map(
                  t ->
                      new DeviceTaintBuilder()
                          .withKey(t.key())
                          .withValue(t.value().isEmpty() ? null : t.value())
                          .withEffect(t.effect().wireName())
                          .withTimeAdded(taintTimes.getOrDefault(taintKey(device.name(), t), now))
                          .build())
              .toList());
    }
    return builder.build();
  }

  private static CapacityRequestPolicy policy(RequestPolicy policy) {
    return switch (policy) {
      case RequestPolicy.Range(var byDefault, var min, var max, var step) ->
          new CapacityRequestPolicy(
              quantity(byDefault),
              new CapacityRequestPolicyRange(
                  max.isPresent() ? quantity(max.getAsLong()) : null,
                  quantity(min),
                  step.isPresent() ? quantity(step.getAsLong()) : null),
              null);
      case RequestPolicy.Values(var byDefault, var values) ->
          new CapacityRequestPolicy(
              quantity(byDefault), null, values.stream().map(SliceObjects::quantity).toList());
    };
  }

  static DeviceAttribute attribute(Attribute value) {
    var builder = new DeviceAttributeBuilder();
    return switch (value) {
      case Attribute.Int(var v) -> builder.withInt(v).build();
      case Attribute.Bool(var v) -> builder.withBool(v).build();
      case Attribute.Text(var v) -> builder.withString(v).build();
      case Attribute.Version(var v) -> builder.withVersion(v).build();
    };
  }

  static Quantity quantity(long value) {
    return new Quantity(Long.toString(value));
  }

  /** When each taint on the server was added, by device and taint. */
  private static Map<String, String> taintTimes(Map<String, ResourceSlice> onServer) {
    var times = new LinkedHashMap<String, String>();
    for (ResourceSlice slice : onServer.values()) {
      if (slice.getSpec() == null || slice.getSpec().getDevices() == null) {
        continue;
      }
      for (Device device : slice.getSpec().getDevices()) {
        if (device.getTaints() == null) {
          continue;
        }
        for (DeviceTaint taint : device.getTaints()) {
          if (taint.getTimeAdded() != null) {
            times.put(taintKey(device.getName(), taint), taint.getTimeAdded());
          }
        }
      }
    }
    return times;
  }

  private static String taintKey(String device, Taint taint) {
    return device + "\n" + taint.key() + "\n" + taint.value() + "\n" + taint.effect().wireName();
  }

  private static String taintKey(String device, DeviceTaint taint) {
    return device
        + "\n"
        + taint.getKey()
        + "\n"
        + Objects.requireNonNullElse(taint.getValue(), "")
        + "\n"
        + taint.getEffect();
  }

  /**
   * Whether two slices say the same (spec, labels, owner), {@code pool.generation} and {@code
   * resourceSliceCount} aside. Both go through JSON first, so an empty list and an absent one, or
   * {@code 80Gi} and its bytes, compare equal.
   */
  static boolean sameContent(ResourceSlice a, ResourceSlice b) {
    ResourceSlice left = comparable(a);
    ResourceSlice right = comparable(b);
    return Objects.equals(left.getSpec(), right.getSpec())
        && Objects.equals(left.getMetadata().getLabels(), right.getMetadata().getLabels())
        && Objects.equals(
            left.getMetadata().getOwnerReferences(), right.getMetadata().getOwnerReferences());
  }

  private static ResourceSlice comparable(ResourceSlice slice) {
    var copy =
        new ResourceSliceBuilder(JSON.clone(slice))
            .editOrNewSpec()
            .editOrNewPool()
            .withGeneration(0L)
            .withResourceSliceCount(0L)
            .endPool()
            .endSpec()
            .build();
    return JSON.unmarshal(JSON.asJson(copy), ResourceSlice.class);
  }
}
