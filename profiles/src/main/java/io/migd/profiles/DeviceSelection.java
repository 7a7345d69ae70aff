package io.migd.profiles;

import java.util.HashSet;
import java.util.List;

/**
 * The {@code devices} of a config item: which GPUs of the node, by index, the item applies to
 * (before its {@code device-filter}, if any, narrows them further).
 */
public sealed interface DeviceSelection {

  /**
   * Whether the GPU with this index is selected.
   *
   * @param gpuIndex the NVML index of the GPU
   * @return true if selected
   */
  boolean includes(int gpuIndex);

  /** {@code devices: all}: every GPU of the node. */
  record All() implements DeviceSelection {
    @Override
    public boolean includes(int gpuIndex) {
      return true;
    }
  }

  /**
   * {@code devices: [0, 2]}: the GPUs with these NVML indexes.
   *
   * @param indexes the indexes, in file order, at least one, none negative or repeated
   */
  record Indexes(List<Integer> indexes) implements DeviceSelection {

    /**
     * Copies and validates the list.
     *
     * @throws IllegalArgumentException if the list is empty or has a negative or repeated index
     */
    public Indexes {
      indexes = List.copyOf(indexes);
      if (indexes.isEmpty()) {
        throw new IllegalArgumentException("the list of GPU indexes is empty");
      }
      var seen = new HashSet<Integer>();
      for (int index : indexes) {
        if (index < 0 || !seen.add(index)) {
          throw new IllegalArgumentException("GPU index " + index + " is negative or repeated");
        }
      }
    }

    @Override
    public boolean includes(int gpuIndex) {
      return indexes.contains(gpuIndex);
    }
  }
}
