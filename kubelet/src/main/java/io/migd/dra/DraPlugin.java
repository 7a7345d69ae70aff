package io.migd.dra;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.migd.kubelet.UnixSockets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * migd as the node's DRA kubelet plugin: the DRA services (v1, v1beta1 and resource health) on
 * {@code <plugin directory>/dra.sock}, and registration on {@code <registry>/<driver>-reg.sock},
 * which the kubelet finds by itself. The kubelet deletes the registration socket when it drops the
 * plugin (and a restarted kubelet may clear the directory), so the sockets are checked every {@link
 * DraPluginSettings#socketCheck()} and served again when gone; the kubelet then registers the
 * plugin again. One thread checks and re-serves, so no lock is needed.
 */
public final class DraPlugin implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DraPlugin.class);
  private static final long STOP_SECONDS = 10;

  private final DraPluginSettings settings;
  private final BindableService[] draServices;
  private final EventLoopGroup loop =
      new MultiThreadIoEventLoopGroup(
          1,
          Thread.ofPlatform().name("migd-dra-io-", 0).daemon().factory(),
          EpollIoHandler.newFactory());
  private final ScheduledExecutorService checker =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("migd-dra-socket-check").daemon().factory());
  private volatile RegistrationService registration;
  private volatile Server draServer;
  private volatile Server registrationServer;

  private DraPlugin(
      DraPluginSettings settings, ClaimPreparation claims, HealthPublisher health, Clock clock) {
    this.settings = settings;
    var calls = new ClaimCalls(claims);
    this.draServices =
        new BindableService[] {
          new DraV1Service(calls), new DraV1beta1Service(calls), new HealthService(health, clock)
        };
  }

  /**
   * Serves the DRA socket, then the registration socket, and starts checking them. {@code health}
   * stays the caller's to publish to and to close.
   *
   * @throws UncheckedIOException when a directory or socket cannot be made
   */
  public static DraPlugin start(
      DraPluginSettings settings, ClaimPreparation claims, HealthPublisher health) {
    try {
      Files.createDirectories(settings.pluginDirectory());
      Files.createDirectories(settings.registryDirectory());
    } catch (IOException e) {
      throw new UncheckedIOException("creating the DRA plugin's directories", e);
    }
    var plugin =
        new DraPlugin(
            settings,
            Objects.requireNonNull(claims),
            Objects.requireNonNull(health),
            Clock.systemUTC());
    try {
      plugin.serveDra();
      plugin.serveRegistration();
    } catch (RuntimeException e) {
      plugin.close();
      throw e;
    }
    var every = settings.socketCheck().toNanos();
    plugin.checker.scheduleWithFixedDelay(plugin::checkSockets, every, every, TimeUnit.NANOSECONDS);
    return plugin;
  }

  /** Whether the kubelet's last word on the current registration socket was that it took us. */
  public boolean registered() {
    var service = registration;
    return service != null && service.registered();
  }

  /** The settings served. */
  public DraPluginSettings settings() {
    return settings;
  }

  private void serveDra() {
    UnixSockets.stop(draServer, settings.draSocket());
    draServer = UnixSockets.serve(settings.draSocket(), loop, draServices);
    log.info(
        "serving DRA socket={} versions={}", settings.draSocket(), RegistrationService.VERSIONS);
  }

  private void serveRegistration() {
    UnixSockets.stop(registrationServer, settings.registrationSocket());
    var service = new RegistrationService(settings.driverName(), settings.draSocket());
    registrationServer = UnixSockets.serve(settings.registrationSocket(), loop, service);
    registration = service;
    log.info(
        "serving DRA registration driver={} socket={}",
        settings.driverName(),
        settings.registrationSocket());
  }

  private void checkSockets() {
    // runs on the checker thread only; a failure is logged and the next check tries again
    try {
      if (!exists(settings.draSocket())) {
        log.warn("DRA socket={} is gone, serving it and registering again", settings.draSocket());
        serveDra();
        serveRegistration();
      } else if (!exists(settings.registrationSocket())) {
        log.info(
            "registration socket={} is gone (the kubelet dropped the plugin?), registering again",
            settings.registrationSocket());
        serveRegistration();
      }
    } catch (RuntimeException e) {
      log.error("cannot serve the DRA plugin's sockets again, retrying at the next check", e);
    }
  }

  private static boolean exists(Path socket) {
    return Files.exists(socket, LinkOption.NOFOLLOW_LINKS);
  }

  /** Stops checking and serving, and deletes both sockets (the kubelet then drops the plugin). */
  @Override
  public void close() {
    checker.shutdownNow();
    try {
      checker.awaitTermination(STOP_SECONDS, TimeUnit.SECONDS);
      // registration first: the kubelet must not dial a DRA socket that is going away
      UnixSockets.stop(registrationServer, settings.registrationSocket());
      UnixSockets.stop(draServer, settings.draSocket());
      loop.shutdownGracefully(0, STOP_SECONDS, TimeUnit.SECONDS)
          .await(STOP_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
