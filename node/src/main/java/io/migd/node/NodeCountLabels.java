package io.migd.node;

import io.fabric8.kubernetes.api.model.Node;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The capacity count labels a Node carries, as migd knows them: read once before the first capacity
 * labels are written, then as written, so that the count labels of profiles gone (also while migd
 * was down) are removed.
 */
final class NodeCountLabels {
  /** The count labels on the Node; null until read. */
  private Set<String> onNode;

  /** Whether the Node's count labels were read. */
  boolean known() {
    return onNode != null;
  }

  /** Takes the count labels {@code node} carries now. */
  void read(Node node) {
    Map<String, String> labels = node.getMetadata().getLabels();
    var counts = new HashSet<String>();
    if (labels != null) {
      labels.forEach(
          (key, value) -> {
            if (value != null && CapacityLabels.isCountLabel(key)) {
              counts.add(key);
            }
          });
    }
    onNode = counts;
  }

  /** The Node now carries the count labels of {@code written}. */
  void written(CapacityLabels written) {
    onNode = new HashSet<>(written.countLabels());
  }

  /** The count labels on the Node that {@code next} (null: no capacity labels) no longer has. */
  Set<String> stale(CapacityLabels next) {
    if (next == null || onNode == null) {
      return Set.of();
    }
    var stale = new TreeSet<>(onNode);
    stale.removeAll(next.countLabels());
    return stale;
  }
}
