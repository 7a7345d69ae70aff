package io.migd.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one label ({@code nvidia.com/mig.config} unless told another) of the one Node migd runs
 * on (an informer on that name only, so a field selector: no other node is listed or watched) and
 * tells a listener its value whenever it changed. The informer re-lists after a dropped watch or an
 * outage; failures are logged once per outage and never reach the listener or the GPU side.
 */
public final class NodeLabelWatch implements AutoCloseable {
  /** The label that names the config of the config file to apply. */
  public static final String CONFIG_LABEL = "nvidia.com/mig.config";

  private static final Logger log = LoggerFactory.getLogger(NodeLabelWatch.class);

  private final KubernetesClient client;
  private final String nodeName;
  private final String label;
  private final Object lock = new Object();
  private SharedIndexInformer<Node> informer;
  private boolean toldOnce;
  private Optional<String> told = Optional.empty();
  private boolean down;
  private boolean closed;

  /** A watch of {@link #CONFIG_LABEL} on the Node named {@code nodeName}, not started. */
  public NodeLabelWatch(KubernetesClient client, String nodeName) {
    this(client, nodeName, CONFIG_LABEL);
  }

  /** A watch of {@code label} on the Node named {@code nodeName}, not started. */
  public NodeLabelWatch(KubernetesClient client, String nodeName, String label) {
    this.client = Objects.requireNonNull(client);
    this.nodeName = Objects.requireNonNull(nodeName);
    this.label = Objects.requireNonNull(label);
  }

  /** The node's name. */
  public String nodeName() {
    return nodeName;
  }

  /**
   * Reads the label once, for the intent at start; throws when the API server cannot be reached or
   * the Node does not exist.
   */
  public Optional<String> readLabel() {
    Node node = client.nodes().withName(nodeName).get();
    if (node == null) {
      throw new IllegalStateException("node " + nodeName + " does not exist");
    }
    return valueOf(node);
  }

  /**
   * Starts watching; {@code listener} gets the label value (empty: no label) at the first sight of
   * the node and on every change after it, on the informer's thread, one call at a time.
   */
  public void start(Consumer<Optional<String>> listener) {
    synchronized (lock) {
      if (closed || informer != null) {
        throw new IllegalStateException("already started or closed");
      }
      informer = client.nodes().withName(nodeName).runnableInformer(0);
      informer.exceptionHandler(
          (started, error) -> {
            outage(error);
            return true;
          });
      informer.addEventHandler(
          new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
              seen(node, listener);
            }

            @Override
            public void onUpdate(Node before, Node node) {
              seen(node, listener);
            }

            @Override
            public void onDelete(Node node, boolean finalStateUnknown) {
              // a deleted Node is being drained away or re-registered: keep the intent as it is
              log.warn("node {} was deleted; the intent stays until it is back", nodeName);
            }
          });
      informer
          .start()
          .whenComplete(
              (ignored, error) -> {
                if (error != null) {
                  outage(error);
                }
              });
      log.info("watching label {} of node {}", label, nodeName);
    }
  }

  private void seen(Node node, Consumer<Optional<String>> listener) {
    Optional<String> value = valueOf(node);
    synchronized (lock) {
      if (down) {
        down = false;
        log.info("API server reachable again; node {} watched", nodeName);
      }
      if (toldOnce && value.equals(told)) {
        return;
      }
      toldOnce = true;
      told = value;
    }
    log.info("node {} label {}={}", nodeName, label, value.map(v -> v).orElse("(not set)"));
    try {
      listener.accept(value);
    } catch (RuntimeException e) {
      log.error("node label listener failed error=\"{}\"", e.toString(), e);
    }
  }

  private void outage(Throwable error) {
    synchronized (lock) {
      if (down || closed) {
        return;
      }
      down = true;
    }
    log.warn(
        "cannot watch node {}: {}; the GPUs keep their intent, watching resumes when the API server"
            + " answers",
        nodeName,
        error.toString());
  }

  private Optional<String> valueOf(Node node) {
    Map<String, String> labels = node.getMetadata().getLabels();
    return Optional.ofNullable(labels == null ? null : labels.get(label)).filter(v -> !v.isEmpty());
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      if (informer != null) {
        informer.close();
      }
    }
  }
}
