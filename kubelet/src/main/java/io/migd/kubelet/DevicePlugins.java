package io.migd.kubelet;

import io.grpc.Server;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.migd.devices.AllocationListener;
import io.migd.devices.Inventory;
import io.migd.devices.ResourceNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's device plugin: one gRPC server and one kubelet registration per resource, on {@code
 * <dir>/migd-<resource without domain>.sock}. Nothing is served before the first {@link #publish};
 * a resource once served stays served and registered (empty when it has no devices) until {@link
 * #close}, and every served resource registers again when the kubelet restarts.
 */
public final class DevicePlugins implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DevicePlugins.class);
  private static final long STOP_SECONDS = 10;

  private final DevicePluginSettings settings;
  private final AllocationListener listener;
  private final EventLoopGroup loop =
      new MultiThreadIoEventLoopGroup(
          1,
          Thread.ofPlatform().name("migd-device-plugin-io-", 0).daemon().factory(),
          EpollIoHandler.newFactory());
  private final KubeletRegistration registration;
  private final KubeletSocketWatch watch;
  private final TreeMap<String, Served> served = new TreeMap<>();
  private volatile Inventory current = Inventory.EMPTY;
  private boolean published;
  private boolean closed;

  /** A plugin that serves nothing until the first {@link #publish}. */
  public DevicePlugins(DevicePluginSettings settings, AllocationListener listener) {
    this.settings = Objects.requireNonNull(settings);
    this.listener = Objects.requireNonNull(listener);
    this.registration =
        new KubeletRegistration(settings.kubeletSocket(), settings.maxRegistrationBackoff());
    this.watch = new KubeletSocketWatch(settings.kubeletSocket(), this::kubeletStarted);
  }

  /**
   * Makes {@code inventory} what the kubelet sees: every open stream gets its resource's new list,
   * and a resource not served yet gets a server and then a registration (in the background). A
   * resource missing from {@code inventory} is advertised with no devices.
   */
  public synchronized void publish(Inventory inventory) {
    Objects.requireNonNull(inventory);
    if (closed) {
      throw new IllegalStateException("the device plugin is closed");
    }
    if (!inventory.notes().equals(current.notes()) || !published) {
      inventory.notes().forEach(note -> log.warn("{}", note));
    }
    current = inventory;
    if (!published) {
      published = true;
      watch.start();
    }
    for (String resource : inventory.resources().keySet()) {
      if (!served.containsKey(resource)) {
        var service =
            new DevicePluginService(
                resource, this::current, settings.cdiEnabled(), settings.mps(), listener);
        var socket = settings.directory().resolve(endpoint(resource));
        var entry = new Served(resource, socket, service);
        entry.start(loop);
        served.put(resource, entry);
        log.info("serving resource={} socket={}", resource, socket);
        registration.register(resource, endpoint(resource));
      }
    }
    served.values().forEach(s -> s.service.publish());
  }

  /** The latest published inventory ({@link Inventory#EMPTY} before the first). */
  public Inventory current() {
    return current;
  }

  /** Every resource served so far, in name order. */
  public synchronized SortedSet<String> servedResources() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(served.keySet()));
  }

  /** The socket file name of a resource, as sent to the kubelet at registration. */
  public static String endpoint(String resource) {
    return "migd-" + ResourceNames.localName(resource) + ".sock";
  }

  private synchronized void kubeletStarted() {
    if (closed) {
      return;
    }
    log.info(
        "kubelet socket={} created, serving and registering {} resources again",
        settings.kubeletSocket(),
        served.size());
    for (Served s : served.values()) {
      try {
        s.stop();
        s.start(loop);
        registration.register(s.resource, endpoint(s.resource));
      } catch (RuntimeException e) {
        // the others still get their restart; this one waits for the kubelet's next start
        log.error("cannot serve resource={} socket={} again", s.resource, s.socket, e);
      }
    }
  }

  /** Whether a registration with the kubelet is still being tried (retries in flight). */
  boolean registering() {
    return registration.inFlight();
  }

  /** Stops the servers, the watch and the registrations, and deletes the socket files. */
  @Override
  public void close() throws InterruptedException {
    List<Served> stopping;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      stopping = new ArrayList<>(served.values());
    }
    watch.close();
    registration.close();
    stopping.forEach(Served::stop);
    loop.shutdownGracefully(0, STOP_SECONDS, TimeUnit.SECONDS)
        .await(STOP_SECONDS, TimeUnit.SECONDS);
  }

  /** One resource's server on its socket. */
  private static final class Served {
    private final String resource;
    private final Path socket;
    private final DevicePluginService service;
    private Server server;

    Served(String resource, Path socket, DevicePluginService service) {
      this.resource = resource;
      this.socket = socket;
      this.service = service;
    }

    void start(EventLoopGroup loop) {
      server = UnixSockets.serve(socket, loop, service);
    }

    void stop() {
      var stopping = server;
      server = null;
      UnixSockets.stop(stopping, socket);
    }
  }
}
