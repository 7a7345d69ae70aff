package io.migd.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.plan.Plan;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.LayoutProgress;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shows the node's state on its Node object after each reconcile: the label {@code
 * nvidia.com/mig.config.state} in the GPU Operator's values, the annotation {@code
 * migd.io/state-reason}, {@code migd.io/intent} while a REST intent overrides the label, and the
 * {@link CapacityLabels} when a source gives them. It writes only when one of them changed since
 * the last successful write, with a JSON merge patch that names only these keys, so labels and
 * annotations of others are never touched. A failed write is logged once and made again, with the
 * newest state, after the budget's backoff (longer when the API server says so in a {@code 429}).
 *
 * <p>It also sends a Node Event per state transition ({@link NodeEvents}), best-effort: an Event
 * that cannot be created is logged and dropped, never sent again; while Events wait for the budget
 * only the newest {@value NodeEventSender#MAX_QUEUED} are kept.
 *
 * <p>Every request (the patch, an Event, the one read of the count labels) takes one from a {@link
 * RequestBudget} ({@code migd.node.qps}, DESIGN section 13). Writes run on the given executor, so a
 * slow or absent API server never holds the reconcile loop; each write sends the latest state when
 * the budget lets it go, so states that came while it waited collapse into the newest.
 */
public final class NodeStateWriter implements OutcomeListener, ProgressListener {
  /** The node state, in the GPU Operator's values. */
  public static final String STATE_LABEL = "nvidia.com/mig.config.state";

  /** One sentence saying why the node is in its state. */
  public static final String REASON_ANNOTATION = "migd.io/state-reason";

  /** {@code rest, generation N} while a REST intent overrides the label. */
  public static final String INTENT_ANNOTATION = "migd.io/intent";

  private static final Logger log = LoggerFactory.getLogger(NodeStateWriter.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * What migd's keys should say; a null removes the key. {@code capacity} is null while no capacity
   * labels are known (switched off, or no reconcile observed every GPU yet).
   */
  record Written(String state, String reason, String intent, CapacityLabels capacity) {
    Written(String state, String reason, String intent) {
      this(state, reason, intent, null);
    }
  }

  private final KubernetesClient client;
  private final String nodeName;
  private final Executor executor;
  private final CapacityLabels.Source capacitySource;
  private final Supplier<Optional<Desired>> reconciling;
  private final RequestBudget budget;
  private final Object writing = new Object();
  private final NodeEvents transitions = new NodeEvents();
  private final NodeEventSender events;
  private final NodeCountLabels counts = new NodeCountLabels();
  private volatile Written latest;
  private CapacityLabels capacity;
  private Written last;
  private boolean failing;
  private String nodeUid;

  /**
   * Writes to the Node named {@code nodeName} on {@code executor} (one thread, or {@code
   * Runnable::run} to write on the caller's); no capacity labels.
   */
  public NodeStateWriter(KubernetesClient client, String nodeName, Executor executor) {
    this(client, nodeName, executor, CapacityLabels.Source.OFF);
  }

  /**
   * Writes to the Node named {@code nodeName} on {@code executor}, with the capacity labels {@code
   * capacity} gives ({@link CapacityLabels.Source#OFF} for none).
   */
  public NodeStateWriter(
      KubernetesClient client, String nodeName, Executor executor, CapacityLabels.Source capacity) {
    this(client, nodeName, executor, capacity, null);
  }

  /**
   * As above; {@code reconciling} (the intent the running reconcile works towards, {@link
   * LayoutProgress#reconciling}) lets a plan that starts say so at once: {@code Reconfiguring} and
   * the state {@code pending}, before the reconcile ends. It is not the intent now, which a REST
   * call or a label may have changed since the reconcile started.
   */
  public NodeStateWriter(
      KubernetesClient client,
      String nodeName,
      Executor executor,
      CapacityLabels.Source capacity,
      Supplier<Optional<Desired>> reconciling) {
    this(client, nodeName, executor, capacity, reconciling, RequestBudget.nodeDefaults());
  }

  /** As above, with every request taken from {@code budget}. */
  public NodeStateWriter(
      KubernetesClient client,
      String nodeName,
      Executor executor,
      CapacityLabels.Source capacity,
      Supplier<Optional<Desired>> reconciling,
      RequestBudget budget) {
    this.budget = Objects.requireNonNull(budget);
    this.client = Objects.requireNonNull(client);
    this.nodeName = Objects.requireNonNull(nodeName);
    this.executor = Objects.requireNonNull(executor);
    this.capacitySource = Objects.requireNonNull(capacity);
    this.reconciling = reconciling;
    this.events = new NodeEventSender(client, nodeName, budget);
  }

  /** Called on the reconcile loop's thread before a plan touches a GPU. */
  @Override
  public void planMade(GpuIndex gpu, Plan plan) {
    if (reconciling == null || plan.steps().isEmpty()) {
      return;
    }
    Optional<Desired> inFlight = reconciling.get();
    if (inFlight.isEmpty()) {
      return;
    }
    Desired desired = inFlight.get();
    Optional<NodeEvents.Event> started = transitions.planStarted(desired);
    if (started.isEmpty()) {
      return;
    }
    if (desired.source() == Desired.Source.LABEL || desired.source() == Desired.Source.REST) {
      String rest =
          desired.source() == Desired.Source.REST
              ? "rest, generation " + desired.generation()
              : null;
      latest = new Written("pending", started.get().message(), rest, capacity);
    }
    // after the state it goes with, so that the writer sends that state first
    events.queue(List.of(started.get()));
    schedule(executor);
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

  /** What the Node should show after this outcome, without capacity labels. */
  static Written toWrite(Desired desired, Outcome outcome) {
    return toWrite(desired, outcome, null);
  }

  /** What the Node should show after this outcome, with these capacity labels (null: none). */
  static Written toWrite(Desired desired, Outcome outcome, CapacityLabels capacity) {
    String intent =
        desired.source() == Desired.Source.REST ? "rest, generation " + desired.generation() : null;
    if (desired.source() == Desired.Source.NONE || desired.source() == Desired.Source.FILE) {
      // the state answers for the label's config (or a REST one that overrides it): without
      // either, there is none to report
      return new Written(null, null, intent, capacity);
    }
    return new Written(labelValue(outcome.state()), outcome.reason(), intent, capacity);
  }

  /** Called on the reconcile loop's thread, one outcome at a time. */
  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    List<NodeEvents.Event> transition = transitions.after(desired, outcome);
    try {
      capacitySource.after(desired, outcome).ifPresent(labels -> capacity = labels);
    } catch (RuntimeException e) {
      log.warn("capacity labels not computed; the last ones stay: {}", e.toString());
    }
    latest = toWrite(desired, outcome, capacity);
    // after the state they go with, so that the writer sends that state first
    events.queue(transition);
    schedule(executor);
  }

  private void schedule(Executor on) {
    try {
      on.execute(this::writeLatest);
    } catch (RejectedExecutionException e) {
      // shutting down: the next migd writes the state after its first reconcile
    }
  }

  private void writeLatest() {
    synchronized (writing) {
      try {
        events.logDropped();
        while (true) {
          // the newest state before each Event, so an Event never shows before the state of its
          // reconcile; a plan from the file config, before the first outcome, has no state yet
          if (latest != null && !latest.equals(last) && !write()) {
            return;
          }
          Optional<NodeEvents.Event> event = events.next();
          if (event.isEmpty()) {
            return;
          }
          events.send(event.get(), nodeUid);
        }
      } catch (InterruptedException e) {
        // shutting down
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Writes the newest state once the budget lets it go; whether it was written. */
  private boolean write() throws InterruptedException {
    Written next = latest;
    try {
      if (next.capacity() != null && !counts.known()) {
        budget.take();
        readCountLabels();
      }
      budget.take();
      // the newest state after the wait: states that came meanwhile collapse into it
      next = latest;
      if (next.equals(last)) {
        return true;
      }
      Node patched =
          client
              .nodes()
              .resource(
                  new NodeBuilder().withNewMetadata().withName(nodeName).endMetadata().build())
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  patch(next, counts.stale(next.capacity())));
      if (patched != null && patched.getMetadata() != null) {
        nodeUid = patched.getMetadata().getUid();
      }
      if (next.capacity() != null) {
        counts.written(next.capacity());
      }
      last = next;
      budget.succeeded();
      if (failing) {
        failing = false;
        log.info("node {} state written again: {}", nodeName, next.state());
      }
      return true;
    } catch (RuntimeException e) {
      // the write may have reached the server: the next one is made whatever it holds
      last = null;
      Duration wait = budget.failed(e);
      if (!failing) {
        failing = true;
        log.warn(
            "cannot write the state of node {}: {}; the newest state is written again in {}",
            nodeName,
            e.toString(),
            wait);
      }
      schedule(CompletableFuture.delayedExecutor(wait.toNanos(), TimeUnit.NANOSECONDS, executor));
      return false;
    }
  }

  /**
   * Reads the count labels the Node has now, once before the first capacity labels are written, so
   * those of profiles gone while migd was down are removed too.
   */
  private void readCountLabels() {
    Node node = client.nodes().withName(nodeName).get();
    if (node == null) {
      throw new IllegalStateException("node " + nodeName + " does not exist");
    }
    nodeUid = node.getMetadata().getUid();
    counts.read(node);
  }

  /** A JSON merge patch of migd's keys only; a null value deletes the key. */
  static String patch(Written written) {
    return patch(written, Set.of());
  }

  /**
   * A JSON merge patch of migd's keys only, removing the count labels {@code staleCounts}; a null
   * value deletes the key.
   */
  static String patch(Written written, Set<String> staleCounts) {
    Map<String, Object> labels = new LinkedHashMap<>();
    labels.put(STATE_LABEL, written.state());
    if (written.capacity() != null) {
      labels.putAll(written.capacity().labels());
      staleCounts.forEach(key -> labels.put(key, null));
    }
    Map<String, Object> annotations = new LinkedHashMap<>();
    annotations.put(REASON_ANNOTATION, written.reason());
    annotations.put(INTENT_ANNOTATION, written.intent());
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("labels", labels);
    metadata.put("annotations", annotations);
    return JSON.writeValueAsString(Map.of("metadata", metadata));
  }
}
