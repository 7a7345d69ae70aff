package io.migd.reconcile;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The GPU Operator's operands on this node, as its Node and pods show them: the deploy labels
 * {@code nvidia.com/gpu.deploy.<operand>} that the operands' DaemonSets select nodes by, and the
 * pods those DaemonSets run here. {@link OperandPause} decides; this only reads and writes.
 */
public interface NodeOperands {
  /**
   * The node's deploy labels, by operand ({@code dcgm-exporter} for {@code
   * nvidia.com/gpu.deploy.dcgm-exporter}); an operand without the label is absent.
   */
  Map<String, String> deployLabels();

  /** Sets these operands' deploy labels, by operand, leaving every other label as it is. */
  void setDeployLabels(Map<String, String> values);

  /**
   * The pods on this node ({@code namespace/name}) whose node selector names the deploy label of
   * one of {@code operands}: the operands' own pods, and for {@code client} any GPU client a
   * DaemonSet gates on it.
   */
  List<String> podsSelecting(Collection<String> operands);
}
