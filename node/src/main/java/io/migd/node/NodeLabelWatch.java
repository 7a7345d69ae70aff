package io.migd.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one label ({@code nvidia.com/mig.config} unless told another) of the one Node migd runs
 * on (an informer on that name only, so a field selector: no other node is listed or watched) and
 * tells a listener its value whenever it changed. The informer re-lists after a dropped watch or an
 * outage; failures are logged once per outage and never reach the listener or the GPU side.
 *
 * <p>A watch can be blind without failing: after repeated API-server outages fabric8's informer
 * waits up to half a minute and more between reconnects (a chaos run saw 70 s), and a watch behind
 * a proxy can hang open and deliver nothing. So the label is also read again every {@code recheck}
 * (the reconcile's resync period), and a value the watch had not told is told then. The watch's
 * events and the re-reads run on one thread of their own, so the listener is called one at a time
 * and neither the informer's thread nor a caller waits for it; a node older than the newest seen
 * (its {@code resourceVersion}, where both are numbers as etcd's are) is not told, so a late watch
 * event never takes back what a re-read found.
 */
public final class NodeLabelWatch implements AutoCloseable {
  /** The label that names the config of the config file to apply. */
  public static final String CONFIG_LABEL = "nvidia.com/mig.config";

  private static final Logger log = LoggerFactory.getLogger(NodeLabelWatch.class);

  private final KubernetesClient client;
  private final String nodeName;
  private final String label;
  private final Duration recheck;
  private final ScheduledExecutorService events =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("migd-label-watch").daemon(true).factory());
  private final Object lock = new Object();
  private SharedIndexInformer<Node> informer;
  private boolean toldOnce;
  private Optional<String> told = Optional.empty();
  private long newestVersion = -1;
  private boolean down;
  private boolean closed;

  /**
   * A watch of {@link #CONFIG_LABEL} on the Node named {@code nodeName}, not started, reading the
   * label again every {@code recheck}.
   */
  public NodeLabelWatch(KubernetesClient client, String nodeName, Duration recheck) {
    this(client, nodeName, CONFIG_LABEL, recheck);
  }

  /**
   * A watch of {@code label} on the Node named {@code nodeName}, not started, reading the label
   * again every {@code recheck}.
   */
  public NodeLabelWatch(KubernetesClient client, String nodeName, String label, Duration recheck) {
    this.client = Objects.requireNonNull(client);
    this.nodeName = Objects.requireNonNull(nodeName);
    this.label = Objects.requireNonNull(label);
    if (recheck.isNegative() || recheck.isZero()) {
      throw new IllegalArgumentException("recheck must be positive: " + recheck);
    }
    this.recheck = recheck;
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
   * the node and on every change after it, on the watch's own thread, one call at a time.
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
              events.execute(() -> seen(node, listener, false));
            }

            @Override
            public void onUpdate(Node before, Node node) {
              events.execute(() -> seen(node, listener, false));
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
      events.scheduleWithFixedDelay(
          () -> readAgain(listener), recheck.toMillis(), recheck.toMillis(), TimeUnit.MILLISECONDS);
      log.info(
          "watching label {} of node {}, read again every {}",
          label,
          nodeName,
          recheck.toMillis() % 1000 == 0 ? recheck.toSeconds() + " s" : recheck.toMillis() + " ms");
    }
  }

  /** One re-read of the Node; on the watch's thread, never throwing (the schedule would end). */
  private void readAgain(Consumer<Optional<String>> listener) {
    Node node;
    try {
      node = client.nodes().withName(nodeName).get();
    } catch (RuntimeException e) {
      outage(e);
      return;
    }
    if (node != null) {
      seen(node, listener, true);
    }
  }

  private void seen(Node node, Consumer<Optional<String>> listener, boolean reread) {
    Optional<String> value = valueOf(node);
    long version = versionOf(node);
    synchronized (lock) {
      if (closed) {
        return;
      }
      if (down) {
        down = false;
        log.info("API server reachable again; node {} watched", nodeName);
      }
      if (version >= 0 && version < newestVersion) {
        return;
      }
      newestVersion = Math.max(newestVersion, version);
      if (toldOnce && value.equals(told)) {
        return;
      }
      toldOnce = true;
      told = value;
    }
    log.info(
        "node {} label {}={}{}",
        nodeName,
        label,
        value.map(v -> v).orElse("(not set)"),
        reread ? " (read again: the watch had not told it)" : "");
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

  /**
   * The node's resourceVersion as a number, or -1 where it is not one (it is opaque by the API).
   */
  private static long versionOf(Node node) {
    try {
      return Long.parseLong(node.getMetadata().getResourceVersion());
    } catch (NumberFormatException | NullPointerException e) {
      return -1;
    }
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
    events.shutdownNow();
  }
}
