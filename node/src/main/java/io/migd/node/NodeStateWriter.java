package io.migd.node;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shows the node's state on its Node object after each reconcile: the label {@code
 * nvidia.com/mig.config.state} in the GPU Operator's values, the annotation {@code
 * migd.io/state-reason}, and {@code migd.io/intent} while a REST intent overrides the label. It
 * writes only when one of them changed since the last successful write, with a JSON merge patch
 * that names only these keys, so labels and annotations of others are never touched. A failed write
 * is logged once and made again at the next outcome (the loop's resync brings one).
 *
 * <p>Writes run on the given executor, so a slow or absent API server never holds the reconcile
 * loop; each write sends the latest state, so writes queued behind a slow one collapse into it.
 */
public final class NodeStateWriter implements OutcomeListener {
  /** The node state, in the GPU Operator's values. */
  public static final String STATE_LABEL = "nvidia.com/mig.config.state";

  /** One sentence saying why the node is in its state. */
  public static final String REASON_ANNOTATION = "migd.io/state-reason";

  /** {@code rest, generation N} while a REST intent overrides the label. */
  public static final String INTENT_ANNOTATION = "migd.io/intent";

  private static final Logger log = LoggerFactory.getLogger(NodeStateWriter.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What migd's keys should say; a null removes the key. */
  record Written(String state, String reason, String intent) {}

  private final KubernetesClient client;
  private final String nodeName;
  private final Executor executor;
  private final Object writing = new Object();
  private volatile Written latest;
  private Written last;
  private boolean failing;

  /**
   * Writes to the Node named {@code nodeName} on {@code executor} (one thread, or {@code
   * Runnable::run} to write on the caller's).
   */
  public NodeStateWriter(KubernetesClient client, String nodeName, Executor executor) {
    this.client = Objects.requireNonNull(client);
    this.nodeName = Objects.requireNonNull(nodeName);
    this.executor = Objects.requireNonNull(executor);
  }

  /**
   * The GPU Operator's value of a node state: {@code applying} and {@code blocked} show as {@code
   * pending}, {@code infeasible} as {@code failed}.
   */
  public static String labelValue(GpuResult.State state) {
    return switch (state) {
      case SUCCESS, UNMANAGED -> "success";
      case APPLYING, BLOCKED -> "pending";
      case REBOOTING -> "rebooting";
      case FAILED, INFEASIBLE -> "failed";
    };
  }

  /** What the Node should show after this outcome. */
  static Written toWrite(Desired desired, Outcome outcome) {
    String intent =
        desired.source() == Desired.Source.REST ? "rest, generation " + desired.generation() : null;
    if (desired.source() == Desired.Source.NONE || desired.source() == Desired.Source.FILE) {
      // the state answers for the label's config (or a REST one that overrides it): without
      // either, there is none to report
      return new Written(null, null, intent);
    }
    return new Written(labelValue(outcome.state()), outcome.reason(), intent);
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    latest = toWrite(desired, outcome);
    try {
      executor.execute(this::writeLatest);
    } catch (RejectedExecutionException e) {
      // shutting down: the next migd writes the state after its first reconcile
    }
  }

  private void writeLatest() {
    synchronized (writing) {
      write(latest);
    }
  }

  private void write(Written next) {
    if (!failing && next.equals(last)) {
      return;
    }
    try {
      client.nodes().withName(nodeName).patch(PatchContext.of(PatchType.JSON_MERGE), patch(next));
      last = next;
      if (failing) {
        failing = false;
        log.info("node {} state written again: {}", nodeName, next.state());
      }
    } catch (RuntimeException e) {
      if (!failing) {
        failing = true;
        log.warn(
            "cannot write the state of node {}: {}; written again after the next reconcile",
            nodeName,
            e.toString());
      }
    }
  }

  /** A JSON merge patch of migd's keys only; a null value deletes the key. */
  static String patch(Written written) {
    Map<String, Object> labels = new LinkedHashMap<>();
    labels.put(STATE_LABEL, written.state());
    Map<String, Object> annotations = new LinkedHashMap<>();
    annotations.put(REASON_ANNOTATION, written.reason());
    annotations.put(INTENT_ANNOTATION, written.intent());
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("labels", labels);
    metadata.put("annotations", annotations);
    return JSON.writeValueAsString(Map.of("metadata", metadata));
  }
}
