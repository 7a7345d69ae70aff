package io.migd.devices;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What the kubelet should see now: the devices of every resource, in ID order, and sentences that
 * say why something is not advertised (for instance {@code single} with several slice profiles).
 */
public record Inventory(SortedMap<String, List<Device>> resources, List<String> notes) {
  /** Nothing advertised. */
  public static final Inventory EMPTY = new Inventory(new TreeMap<>(), List.of());

  /** Copies the map and lists. */
  public Inventory {
    var copy = new TreeMap<String, List<Device>>();
    resources.forEach(
        (name, devices) ->
            copy.put(
                name,
                devices.stream().sorted(java.util.Comparator.comparing(Device::id)).toList()));
    resources = Collections.unmodifiableSortedMap(copy);
    notes = List.copyOf(notes);
  }

  /** The devices of a resource; empty for a resource not advertised now. */
  public List<Device> devices(String resource) {
    return resources.getOrDefault(resource, List.of());
  }

  /** A device of a resource by ID. */
  public Optional<Device> find(String resource, String id) {
    return devices(resource).stream().filter(d -> d.id().equals(id)).findFirst();
  }

  /** The inventory without the devices {@code withdrawn} picks (their resources stay, empty). */
  public Inventory without(Predicate<Device> withdrawn) {
    return map(d -> withdrawn.test(d) ? null : d);
  }

  /** The inventory with {@code change} applied to each device; a null answer drops the device. */
  public Inventory map(UnaryOperator<Device> change) {
    var result = new TreeMap<String, List<Device>>();
    resources.forEach(
        (name, devices) ->
            result.put(
                name, devices.stream().map(change).filter(java.util.Objects::nonNull).toList()));
    return new Inventory(result, notes);
  }
}
