package io.migd.pool;

import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The attributes and capacity of a GPU's devices, with NVIDIA's names (DESIGN section 12): what
 * every device of the GPU shares, and what a whole GPU or a MIG device adds.
 */
final class DeviceAttributes {
  static final String PCI_BUS_ID = "resource.kubernetes.io/pciBusID";
  static final String PCIE_ROOT = "resource.kubernetes.io/pcieRoot";
  static final String NUMA_NODE = "resource.kubernetes.io/numaNode";

  private final GpuFacts facts;
  private final SortedMap<String, Attribute> common;

  /**
   * The GPU's shared attributes. A value the API cannot hold (a version semver cannot express, a
   * string over 64 characters) is left out, and {@code reasons} says so.
   */
  DeviceAttributes(GpuFacts facts, List<String> reasons) {
    this.facts = facts;
    var shared = new TreeMap<String, Attribute>();
    text(shared, "productName", facts.productName(), reasons);
    text(shared, "brand", facts.brand(), reasons);
    text(shared, "architecture", facts.architecture(), reasons);
    version(shared, "cudaComputeCapability", facts.cudaComputeCapability(), reasons);
    version(shared, "driverVersion", facts.driverVersion(), reasons);
    version(shared, "cudaDriverVersion", facts.cudaDriverVersion(), reasons);
    text(shared, PCI_BUS_ID, facts.pciBusId(), reasons);
    if (!facts.pcieRoot().isEmpty()) {
      text(shared, PCIE_ROOT, facts.pcieRoot(), reasons);
    }
    facts.numaNode().ifPresent(node -> shared.put(NUMA_NODE, new Attribute.Int(node)));
    shared.put("index", new Attribute.Int(facts.gpu().value()));
    shared.put("minor", new Attribute.Int(facts.minor()));
    this.common = shared;
  }

  /** A whole GPU's attributes. */
  SortedMap<String, Attribute> wholeGpu() {
    var attributes = new TreeMap<>(common);
    attributes.put("type", text("gpu"));
    attributes.put("uuid", text(facts.uuid()));
    return attributes;
  }

  /**
   * A whole GPU's capacity: its {@code memory}, and the other capacities of its largest
   * GPU-instance profile (the most memory slices, then the most multiprocessors), as NVIDIA's
   * driver publishes them, so a selector on {@code multiprocessors} evaluates on a whole GPU too. A
   * GPU without MIG profiles has {@code memory} only.
   */
  SortedMap<String, Long> wholeGpuCapacity() {
    var capacity = new TreeMap<String, Long>();
    facts.profiles().stream()
        .max(
            Comparator.comparingInt(GpuFacts.MigProfile::sliceCount)
                .thenComparingInt(GpuFacts.MigProfile::multiprocessors)
                .thenComparingLong(GpuFacts.MigProfile::memoryMiB))
        .ifPresent(largest -> capacity.putAll(migCapacity(largest, true)));
    capacity.put(ProfileQuantity.MEMORY.capacityName(), facts.memoryBytes());
    return capacity;
  }

  /**
   * A MIG device's attributes: {@code index} and {@code minor} are its parent's; {@code uuid} only
   * when the device exists (empty {@code migUuid} otherwise).
   */
  SortedMap<String, Attribute> mig(String profile, int start, int size, String migUuid) {
    var attributes = new TreeMap<>(common);
    attributes.put("type", text("mig"));
    attributes.put("parentUUID", text(facts.uuid()));
    attributes.put("profile", text(profile));
    attributes.put("placementStart", new Attribute.Int(start));
    attributes.put("placementSize", new Attribute.Int(size));
    if (!migUuid.isEmpty()) {
      attributes.put("uuid", text(migUuid));
    }
    return attributes;
  }

  /**
   * A MIG device's capacity: its GPU-instance profile's. A compute instance that does not span its
   * GPU instance shares the instance's memory and engines; its own multiprocessors are not in the
   * facts, so it publishes none rather than the instance's.
   */
  static SortedMap<String, Long> migCapacity(GpuFacts.MigProfile profile, boolean spansInstance) {
    var capacity = new TreeMap<String, Long>();
    for (ProfileQuantity quantity : ProfileQuantity.values()) {
      if (spansInstance || quantity != ProfileQuantity.MULTIPROCESSORS) {
        capacity.put(quantity.capacityName(), quantity.of(profile));
      }
    }
    return capacity;
  }

  static long mebibytes(long mib) {
    return Math.multiplyExact(mib, 1L << 20);
  }

  private static Attribute.Text text(String value) {
    return new Attribute.Text(value);
  }

  private static void text(
      SortedMap<String, Attribute> attributes, String name, String value, List<String> reasons) {
    try {
      attributes.put(name, text(value));
    } catch (IllegalArgumentException e) {
      reasons.add("attribute " + name + " is left out: " + e.getMessage());
    }
  }

  private static void version(
      SortedMap<String, Attribute> attributes, String name, String nvml, List<String> reasons) {
    try {
      attributes.put(name, Semver.of(nvml));
    } catch (IllegalArgumentException e) {
      reasons.add("attribute " + name + " is left out: " + e.getMessage());
    }
  }
}
