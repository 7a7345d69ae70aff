package io.migd.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.migd.reconcile.NodeOperands;
import io.migd.reconcile.OperandPause;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.json.JsonMapper;

/**
 * The GPU Operator's operands on migd's Node, through the API server: the deploy labels read from
 * the Node and written with a JSON merge patch that names only them, and the pods bound to the node
 * whose node selector names one of them. Each request takes one from the node's {@link
 * RequestBudget} ({@code migd.node.qps}).
 */
public final class OperandLabels implements NodeOperands {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final KubernetesClient client;
  private final String nodeName;
  private final RequestBudget budget;

  /** The operands of node {@code nodeName}. */
  public OperandLabels(KubernetesClient client, String nodeName, RequestBudget budget) {
    this.client = Objects.requireNonNull(client);
    this.nodeName = Objects.requireNonNull(nodeName);
    this.budget = Objects.requireNonNull(budget);
  }

  @Override
  public Map<String, String> deployLabels() {
    take();
    Node node = client.nodes().withName(nodeName).get();
    if (node == null) {
      throw new IllegalStateException("node " + nodeName + " does not exist");
    }
    var labels = new LinkedHashMap<String, String>();
    Map<String, String> all = node.getMetadata().getLabels();
    if (all != null) {
      all.forEach(
          (key, value) -> {
            if (key.startsWith(OperandPause.DEPLOY_LABEL_PREFIX)) {
              labels.put(key.substring(OperandPause.DEPLOY_LABEL_PREFIX.length()), value);
            }
          });
    }
    return labels;
  }

  @Override
  public void setDeployLabels(Map<String, String> values) {
    var labels = new LinkedHashMap<String, String>();
    values.forEach(
        (operand, value) -> labels.put(OperandPause.DEPLOY_LABEL_PREFIX + operand, value));
    take();
    client
        .nodes()
        .withName(nodeName)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            JSON.writeValueAsString(Map.of("metadata", Map.of("labels", labels))));
  }

  @Override
  public List<String> podsSelecting(Collection<String> operands) {
    take();
    List<Pod> pods =
        client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).list().getItems();
    return pods.stream()
        .filter(pod -> pod.getSpec() != null && nodeName.equals(pod.getSpec().getNodeName()))
        .filter(pod -> selectsAny(pod, operands))
        .map(pod -> pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName())
        .sorted()
        .toList();
  }

  private static boolean selectsAny(Pod pod, Collection<String> operands) {
    Map<String, String> selector = pod.getSpec().getNodeSelector();
    return selector != null
        && operands.stream()
            .anyMatch(o -> selector.containsKey(OperandPause.DEPLOY_LABEL_PREFIX + o));
  }

  private void take() {
    try {
      budget.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for migd.node.qps", e);
    }
  }
}
