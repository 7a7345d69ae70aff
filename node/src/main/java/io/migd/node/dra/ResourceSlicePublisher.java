package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.migd.node.RequestBudget;
import io.migd.pool.PoolContent;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the node's pool as ResourceSlices (DESIGN section 12 "Pool and slices"), on a thread of
 * its own: {@link #publish} only hands the content over, so prepare and unprepare never wait for
 * the API server. Each content carries the number of its build; one older than the newest handed
 * over is dropped, so an older pool never follows a newer one, whatever order the threads that
 * built them hand them in (issue 29). Contents handed over while a publish runs collapse into the
 * newest, which is published next; one that fails is logged, naming what failed, and tried again
 * after a backoff (with whatever is newest by then). Every request is taken from a {@link
 * RequestBudget} ({@code migd.dra.qps}, {@code migd.dra.burst}).
 *
 * <p>It starts from the slices the server has of this node and driver (a previous run's), so the
 * pool's generation continues; it lists them and reads the Node again after any failure (a write
 * may have been made, or another writer changed them: a conflict), and every {@link
 * PublishSettings#reread}, writing what differs: slices someone else deleted come back, and a
 * re-created Node (a new UID) becomes their owner.
 */
public final class ResourceSlicePublisher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ResourceSlicePublisher.class);

  private final KubernetesClient client;
  private final String nodeName;
  private final PublishSettings settings;
  private final RequestBudget budget;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition handedOver = lock.newCondition();
  private final Thread worker;

  // guarded by lock
  private PoolContent pending;
  private long pendingNumber;
  private long newestNumber;
  private long publishedNumber;
  // written under lock; read without it too, to leave a request the close interrupted unreported
  private volatile boolean closed;

  private volatile PoolContent published;
  private volatile String failure;

  // the worker's own
  private Map<String, ResourceSlice> onServer;
  private String nodeUid;
  private String step = "";

  private ResourceSlicePublisher(
      KubernetesClient client, String nodeName, PublishSettings settings, Clock clock) {
    this.client = Objects.requireNonNull(client);
    this.nodeName = Objects.requireNonNull(nodeName);
    this.settings = Objects.requireNonNull(settings);
    this.clock = Objects.requireNonNull(clock);
    this.budget = new RequestBudget(settings.qps(), settings.burst(), settings.backoff());
    this.worker =
        Thread.ofPlatform().name("migd-resourceslices").daemon().unstarted(this::publishLoop);
  }

  /** A publisher of {@code nodeName}'s pool, its thread started; nothing is written until asked. */
  public static ResourceSlicePublisher start(
      KubernetesClient client, String nodeName, PublishSettings settings) {
    var publisher = new ResourceSlicePublisher(client, nodeName, settings, Clock.systemUTC());
    publisher.worker.start();
    return publisher;
  }

  /**
   * Hands {@code content}, the pool built as number {@code number}, over to be published; returns
   * at once. One older than the newest handed over is dropped: the newest content wins.
   */
  public void publish(long number, PoolContent content) {
    Objects.requireNonNull(content);
    lock.lock();
    try {
      if (number <= newestNumber) {
        return;
      }
      newestNumber = number;
      pending = content;
      pendingNumber = number;
      handedOver.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Hands {@code content} over as newer than everything handed over before. */
  public void publish(PoolContent content) {
    lock.lock();
    try {
      publish(newestNumber + 1, content);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until the pool built as {@code number}, or a newer one, is what the server holds; whether
   * it is within {@code wait}.
   */
  public boolean awaitPublished(long number, Duration wait) throws InterruptedException {
    long left = wait.toNanos();
    lock.lock();
    try {
      while (publishedNumber < number && !closed) {
        if (left <= 0) {
          return false;
        }
        left = handedOver.awaitNanos(left);
      }
      return publishedNumber >= number;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The content of the last publish that completed, if any yet: what the server holds unless a
   * later publish failed half-way (then {@link #failure} says so).
   */
  public Optional<PoolContent> published() {
    return Optional.ofNullable(published);
  }

  /**
   * While publishing fails, the last failure (what failed, on what, why), for liveness and status;
   * empty once a publish succeeds again.
   */
  public Optional<String> failure() {
    return Optional.ofNullable(failure);
  }

  /**
   * Whether a slice of this node's pool of {@code driver} on the server lists one of {@code
   * deviceNames} now (read now, one request): what a previous run published, before this run has
   * published anything.
   */
  public boolean serverLists(String driver, Collection<String> deviceNames)
      throws InterruptedException {
    permit();
    return slices()
        .withLabel(SliceObjects.NODE_LABEL, SliceObjects.labelValue(nodeName))
        .withLabel(SliceObjects.DRIVER_LABEL, driver)
        .list()
        .getItems()
        .stream()
        .filter(s -> s.getSpec() != null && s.getSpec().getDevices() != null)
        .flatMap(s -> s.getSpec().getDevices().stream())
        .anyMatch(d -> deviceNames.contains(d.getName()));
  }

  /** Stops the thread; a publish in flight is abandoned (the next run starts from the server). */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      handedOver.signalAll();
    } finally {
      lock.unlock();
    }
    worker.interrupt();
    try {
      worker.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void publishLoop() {
    PoolContent retry = null;
    long retryNumber = 0;
    PoolContent last = null;
    long lastNumber = 0;
    long rereadAt = System.nanoTime() + settings.reread().toNanos();
    int failures = 0;
    while (true) {
      PoolContent next;
      long number;
      lock.lock();
      try {
        while (!closed && pending == null && retry == null) {
          if (last == null) {
            handedOver.awaitUninterruptibly();
            continue;
          }
          long left = rereadAt - System.nanoTime();
          if (left <= 0) {
            break;
          }
          handedOver.awaitNanos(left);
        }
        if (closed) {
          return;
        }
        if (pending != null) {
          next = pending;
          number = pendingNumber;
        } else if (retry != null) {
          next = retry;
          number = retryNumber;
        } else {
          // read again what the server holds: someone may have deleted or changed the slices
          onServer = null;
          nodeUid = null;
          next = last;
          number = lastNumber;
        }
        pending = null;
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
      try {
        write(next);
        published = next;
        failure = null;
        retry = null;
        last = next;
        lastNumber = number;
        rereadAt = System.nanoTime() + settings.reread().toNanos();
        published(number);
        if (failures > 0) {
          log.info("pool {} published again: {} slices", next.pool(), next.slices().size());
        }
        failures = 0;
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        if (closed) {
          return;
        }
        onServer = null;
        nodeUid = null;
        retry = next;
        retryNumber = number;
        failures++;
        Duration delay = settings.backoff().delay(failures);
        failure = step + " failed: " + e.getMessage();
        log.warn(
            "cannot publish the ResourceSlices of pool {} (driver {}): {} failed: {}; the newest"
                + " pool is published again in {}",
            next.pool(),
            next.driver(),
            step,
            e.toString(),
            delay);
        if (!waitOut(delay)) {
          return;
        }
      } catch (Error e) {
        log.error("the ResourceSlice publisher stops: {}", e.toString(), e);
        throw e;
      }
    }
  }

  private void published(long number) {
    lock.lock();
    try {
      publishedNumber = Math.max(publishedNumber, number);
      handedOver.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits {@code delay} unless closed first; whether still open. */
  private boolean waitOut(Duration delay) {
    long deadline = System.nanoTime() + delay.toNanos();
    lock.lock();
    try {
      long left;
      while (!closed && (left = deadline - System.nanoTime()) > 0) {
        handedOver.awaitNanos(left);
      }
      return !closed;
    } catch (InterruptedException e) {
      return false;
    } finally {
      lock.unlock();
    }
  }

  private void write(PoolContent content) throws InterruptedException {
    if (onServer == null) {
      step = "listing the slices of node " + nodeName;
      onServer = list(content.driver());
    }
    if (nodeUid == null) {
      step = "reading node " + nodeName;
      nodeUid = readNodeUid();
    }
    step = "building the slices";
    List<ResourceSlice> wanted =
        SliceObjects.of(
            content, new SliceObjects.Owner(nodeName, nodeUid), onServer, clock.instant());
    SlicePlan plan = SlicePlan.between(onServer, wanted);
    if (plan.isEmpty()) {
      return;
    }
    for (ResourceSlice slice : plan.writes()) {
      String name = slice.getMetadata().getName();
      boolean exists = onServer.containsKey(name);
      step =
          (exists ? "updating" : "creating")
              + " slice "
              + name
              + " under generation "
              + plan.generation();
      permit();
      Resource<ResourceSlice> resource = slices().resource(slice);
      ResourceSlice written = exists ? resource.update() : resource.create();
      onServer.put(name, written);
    }
    for (String name : plan.deletes()) {
      step = "deleting slice " + name;
      permit();
      slices().withName(name).delete();
      onServer.remove(name);
    }
    if (plan.writes().size() != 1 || !plan.deletes().isEmpty()) {
      log.info(
          "pool {} published: generation {}, {} slices",
          content.pool(),
          plan.generation(),
          wanted.size());
    }
  }

  /** The slices of this node and driver on the server, by name. */
  private Map<String, ResourceSlice> list(String driver) throws InterruptedException {
    permit();
    var found = new LinkedHashMap<String, ResourceSlice>();
    slices()
        .withLabel(SliceObjects.NODE_LABEL, SliceObjects.labelValue(nodeName))
        .withLabel(SliceObjects.DRIVER_LABEL, driver)
        .list()
        .getItems()
        .stream()
        .filter(s -> s.getSpec() != null && driver.equals(s.getSpec().getDriver()))
        .forEach(s -> found.put(s.getMetadata().getName(), s));
    return found;
  }

  private String readNodeUid() throws InterruptedException {
    permit();
    Node node = client.nodes().withName(nodeName).get();
    if (node == null) {
      throw new IllegalStateException("node " + nodeName + " does not exist");
    }
    return node.getMetadata().getUid();
  }

  private void permit() throws InterruptedException {
    budget.take();
  }

  private NonNamespaceOperation<ResourceSlice, ResourceSliceList, Resource<ResourceSlice>>
      slices() {
    return client.dynamicResourceAllocation().v1().resourcesSlices();
  }
}
