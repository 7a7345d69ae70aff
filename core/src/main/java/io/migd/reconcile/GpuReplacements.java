package io.migd.reconcile;

import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * Which GPUs of the node are not the ones an intent was resolved against (DESIGN section 1,
 * replaced GPUs): a board swap, a new machine with the same state directory, {@code --simulate} run
 * again. Each such index gets one sentence: {@code GPU 0 was replaced: <old UUID> -> <new UUID>},
 * or {@code GPU 3 is now index 2} when the GPU now at index 2 is the one recorded at 3.
 */
final class GpuReplacements {
  private GpuReplacements() {}

  /**
   * The sentence of every index whose recorded UUID differs from the one observed there, in index
   * order; empty when none does. Indexes recorded but not observed (a GPU NVML could not read, or
   * one that is gone) and indexes not recorded (a GPU added) are not replacements.
   *
   * @param recorded the UUIDs the intent was resolved against, by index
   * @param observed the UUIDs NVML shows now, by index
   */
  static SequencedMap<Integer, String> between(
      Map<Integer, String> recorded, Map<Integer, String> observed) {
    var sentences = new TreeMap<Integer, String>();
    observed.forEach(
        (index, uuid) -> {
          String before = recorded.get(index);
          if (before == null || before.equals(uuid)) {
            return;
          }
          sentences.put(
              index,
              recorded.entrySet().stream()
                  .filter(e -> e.getValue().equals(uuid))
                  .findFirst()
                  .map(moved -> "GPU " + moved.getKey() + " is now index " + index)
                  .orElse("GPU " + index + " was replaced: " + before + " -> " + uuid));
        });
    return sentences;
  }

  /**
   * The UUIDs a new generation is resolved against: those observed, and the recorded ones of GPUs
   * still on the node that NVML could not read now (they are recorded again once observed).
   */
  static Map<Integer, String> present(
      Map<Integer, String> recorded, Map<Integer, String> observed, int gpuCount) {
    var uuids = new TreeMap<>(observed);
    recorded.forEach(
        (index, uuid) -> {
          if (index < gpuCount) {
            uuids.putIfAbsent(index, uuid);
          }
        });
    return uuids;
  }
}
