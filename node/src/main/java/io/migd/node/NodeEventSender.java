package io.migd.node;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a node's state-transition Events ({@link NodeEvents}), best-effort: an Event that cannot be
 * created is logged and dropped, never sent again; while Events wait for the budget only the newest
 * {@value #MAX_QUEUED} are kept. Events are queued from any thread and sent from one at a time.
 */
final class NodeEventSender {
  /** Events kept while they wait for the budget; older ones are dropped. */
  static final int MAX_QUEUED = 10;

  private static final Logger log = LoggerFactory.getLogger(NodeEventSender.class);

  private final KubernetesClient client;
  private final String nodeName;
  private final RequestBudget budget;
  private final Queue<NodeEvents.Event> events = new ConcurrentLinkedQueue<>();
  private final AtomicInteger dropped = new AtomicInteger();
  private boolean failing;
  private long stamp;

  NodeEventSender(KubernetesClient client, String nodeName, RequestBudget budget) {
    this.client = client;
    this.nodeName = nodeName;
    this.budget = budget;
  }

  /** Queues Events to send, keeping the newest {@link #MAX_QUEUED}. */
  void queue(List<NodeEvents.Event> more) {
    for (NodeEvents.Event event : more) {
      events.add(event);
      while (events.size() > MAX_QUEUED && events.poll() != null) {
        dropped.incrementAndGet();
      }
    }
  }

  /** The oldest Event queued, taken off the queue; empty when none waits. */
  Optional<NodeEvents.Event> next() {
    return Optional.ofNullable(events.poll());
  }

  /** Says how many Events were dropped since the last call, if any. */
  void logDropped() {
    int count = dropped.getAndSet(0);
    if (count > 0) {
      log.warn(
          "{} Events of node {} dropped while they waited for migd.node.qps; the newer ones are"
              + " sent",
          count,
          nodeName);
    }
  }

  /**
   * Sends one Event about the Node with the UID {@code nodeUid} (null while unknown), once, whether
   * it can be created or not.
   */
  void send(NodeEvents.Event event, String nodeUid) throws InterruptedException {
    budget.take();
    try {
      // unique, and in the order sent, like the kubelet's <name>.<hex time>
      stamp = Math.max(stamp + 1, System.currentTimeMillis() * 1000);
      String name = nodeName + "." + Long.toHexString(stamp);
      client
          .v1()
          .events()
          .inNamespace(NodeEvents.NAMESPACE)
          .resource(event.toKubernetes(name, nodeName, nodeUid, Instant.now()))
          .create();
      budget.succeeded();
      if (failing) {
        failing = false;
        log.info("node {} Events created again", nodeName);
      }
    } catch (RuntimeException e) {
      // a refused Event (no permission for events) must not hold back the state patches
      if (RequestBudget.isServerTrouble(e)) {
        budget.failed(e);
      }
      if (!failing) {
        failing = true;
        log.warn(
            "cannot create the Event {} on node {}: {}; Events are best-effort and not sent"
                + " again",
            event.reason(),
            nodeName,
            e.toString());
      }
    }
  }
}
