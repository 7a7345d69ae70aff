package io.migd.kubelet;

import io.grpc.BindableService;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gRPC over unix domain sockets, the kubelet's transport, with shaded Netty's epoll; used by the
 * device plugin and the DRA plugin ({@code io.migd.dra}).
 */
public final class UnixSockets {
  // sun_path is 108 bytes with its terminating NUL; a longer path would be cut at bind
  public static final int MAX_PATH_BYTES = 107;
  private static final long STOP_SECONDS = 10;
  private static final Logger log = LoggerFactory.getLogger(UnixSockets.class);

  private UnixSockets() {}

  /** Starts a server of {@code services} on {@code socket}, replacing a stale file left there. */
  public static Server serve(Path socket, EventLoopGroup loop, BindableService... services) {
    checkTransport();
    checkLength(socket);
    try {
      Files.deleteIfExists(socket);
      var builder =
          NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
              .channelType(EpollServerDomainSocketChannel.class)
              .bossEventLoopGroup(loop)
              .workerEventLoopGroup(loop);
      for (var service : services) {
        builder.addService(service);
      }
      return builder.build().start();
    } catch (IOException e) {
      throw new UncheckedIOException("serving gRPC on " + socket, e);
    }
  }

  /**
   * Stops {@code server} (null: nothing to stop), waiting for it, then deletes {@code socket}. A
   * caller that serves the same path again must wait like this: Netty deletes the socket file when
   * the server's channel closes, and would otherwise delete the file of the server that replaces
   * it.
   */
  public static void stop(Server server, Path socket) {
    if (server == null) {
      return;
    }
    try {
      server.shutdownNow().awaitTermination(STOP_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      log.warn("cannot delete socket={}: {}", socket, e.toString());
    }
  }

  /** A channel to the server on {@code socket}; it connects at the first call. */
  public static ManagedChannel dial(Path socket) {
    checkTransport();
    return Grpc.newChannelBuilder("unix://" + socket, InsecureChannelCredentials.create()).build();
  }

  /** Fails with the remedy when {@code socket} is too long for a unix socket address. */
  public static void checkLength(Path socket) {
    if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
      throw new IllegalArgumentException(
          "socket path "
              + socket
              + " is longer than "
              + MAX_PATH_BYTES
              + " bytes, the limit of a unix socket address; use a shorter directory");
    }
  }

  private static void checkTransport() {
    if (!Epoll.isAvailable()) {
      throw new IllegalStateException(
          "unix sockets need Netty's epoll transport, which did not load here",
          Epoll.unavailabilityCause());
    }
  }
}
