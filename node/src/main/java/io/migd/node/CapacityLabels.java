package io.migd.node;

import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.devices.InventoryBuilder;
import io.migd.devices.MigStrategy;
import io.migd.devices.ResourceNames;
import io.migd.layout.ObservedGpu;
import io.migd.layout.ObservedNode;
import io.migd.reconcile.Desired;
import io.migd.reconcile.Outcome;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The capacity labels in NVIDIA's style (the names GPU Feature Discovery uses), describing what the
 * kubelet is offered: whether a GPU can do MIG, the MIG strategy, how many slices of each profile,
 * and how whole GPUs are shared. Computed from the node as a reconcile left it, the same way the
 * device plugin builds its inventory, so the labels and the advertised devices agree.
 */
public record CapacityLabels(SortedMap<String, String> labels) {
  /** {@code true} when any GPU of the node can do MIG. */
  public static final String MIG_CAPABLE = "nvidia.com/mig.capable";

  /** {@code migd.mig-strategy}: {@code mixed}, {@code single} or {@code none}. */
  public static final String MIG_STRATEGY = "nvidia.com/mig.strategy";

  /**
   * How whole GPUs ({@code nvidia.com/gpu}) are shared: {@code none}, {@code time-slicing}, {@code
   * mps}, or {@code mixed} when shared GPUs differ.
   */
  public static final String SHARING_STRATEGY = "nvidia.com/gpu.sharing-strategy";

  /** The largest replica count of a whole GPU; 1 without sharing. */
  public static final String REPLICAS = "nvidia.com/gpu.replicas";

  private static final String COUNT_PREFIX = "nvidia.com/mig-";
  private static final String COUNT_SUFFIX = ".count";
  private static final String REPLICAS_SUFFIX = ".replicas";
  private static final String SHARING_SUFFIX = ".sharing-strategy";
  private static final List<String> PROFILE_SUFFIXES =
      List.of(COUNT_SUFFIX, REPLICAS_SUFFIX, SHARING_SUFFIX);

  /** Copies the map. */
  public CapacityLabels {
    labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
  }

  /**
   * Whether {@code key} is a per-profile label: a count ({@code nvidia.com/mig-1g.5gb.count}) or
   * the sharing of a shared profile ({@code .replicas}, {@code .sharing-strategy}). migd removes
   * those of profiles that are gone.
   */
  public static boolean isCountLabel(String key) {
    return key.startsWith(COUNT_PREFIX)
        && PROFILE_SUFFIXES.stream()
            .anyMatch(
                suffix ->
                    key.endsWith(suffix) && key.length() > COUNT_PREFIX.length() + suffix.length());
  }

  /**
   * The labels for what {@code inventory} advertises on {@code observed}: a count label for every
   * {@code nvidia.com/mig-<profile>} resource (so only under the {@code mixed} strategy; under
   * {@code single} and {@code none} slices are {@code nvidia.com/gpu}).
   */
  public static CapacityLabels of(
      ObservedNode observed, Inventory inventory, MigStrategy strategy) {
    var labels = new TreeMap<String, String>();
    labels.put(
        MIG_CAPABLE, Boolean.toString(observed.gpus().stream().anyMatch(ObservedGpu::migCapable)));
    labels.put(MIG_STRATEGY, strategy.wireName());
    inventory
        .resources()
        .forEach(
            (resource, devices) -> {
              if (resource.startsWith(COUNT_PREFIX) && !devices.isEmpty()) {
                var parents = parents(devices);
                labels.put(resource + COUNT_SUFFIX, Integer.toString(parents.size()));
                var shared = parents.values().stream().filter(Device::isShared).toList();
                if (!shared.isEmpty()) {
                  labels.put(resource + SHARING_SUFFIX, strategy(shared));
                  labels.put(resource + REPLICAS_SUFFIX, Integer.toString(largest(shared)));
                }
              }
            });
    var gpus =
        parents(inventory.devices(ResourceNames.GPU)).values().stream()
            .filter(Device::isShared)
            .toList();
    labels.put(SHARING_STRATEGY, gpus.isEmpty() ? "none" : strategy(gpus));
    labels.put(REPLICAS, Integer.toString(gpus.isEmpty() ? 1 : largest(gpus)));
    return new CapacityLabels(labels);
  }

  /** One device per parent UUID: how each GPU or slice is shared. */
  private static Map<String, Device> parents(List<Device> devices) {
    var parents = new TreeMap<String, Device>();
    devices.forEach(d -> parents.putIfAbsent(d.parentUuid(), d));
    return parents;
  }

  private static String strategy(List<Device> shared) {
    var strategies = shared.stream().map(d -> d.sharing().strategy()).distinct().toList();
    return strategies.size() == 1 ? strategies.getFirst() : "mixed";
  }

  private static int largest(List<Device> shared) {
    return shared.stream().mapToInt(d -> d.sharing().replicas()).max().orElse(1);
  }

  /** The per-profile labels among these (counts and sharing). */
  public List<String> countLabels() {
    return labels.keySet().stream().filter(CapacityLabels::isCountLabel).toList();
  }

  /** Where the capacity labels come from after each reconcile. */
  @FunctionalInterface
  public interface Source {
    /** No capacity labels: GPU Feature Discovery writes them ({@code capacity-labels=false}). */
    Source OFF = (desired, outcome) -> Optional.empty();

    /**
     * The labels after this outcome; empty to leave them as they are (switched off, or the
     * reconcile could not observe every GPU, so its counts would be short).
     */
    Optional<CapacityLabels> after(Desired desired, Outcome outcome);

    /**
     * The labels of the inventory the device plugin builds: the node as the reconcile left it, each
     * GPU's sharing as the reconcile resolved it, and the MIG strategy.
     */
    static Source inventory(MigStrategy strategy) {
      return (desired, outcome) ->
          outcome.observedEveryGpu()
              ? Optional.of(
                  of(outcome.observed(), InventoryBuilder.build(outcome, strategy), strategy))
              : Optional.empty();
    }
  }
}
