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

/** gRPC over unix domain sockets, the kubelet's transport, with shaded Netty's epoll. */
final class UnixSockets {
  // sun_path is 108 bytes with its terminating NUL; a longer path would be cut at bind
  static final int MAX_PATH_BYTES = 107;

  private UnixSockets() {}

  /** Starts a server on {@code socket}, replacing a stale file left there. */
  static Server serve(Path socket, EventLoopGroup loop, BindableService service) {
    checkTransport();
    checkLength(socket);
    try {
      Files.deleteIfExists(socket);
      return NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
          .channelType(EpollServerDomainSocketChannel.class)
          .bossEventLoopGroup(loop)
          .workerEventLoopGroup(loop)
          .addService(service)
          .build()
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("serving gRPC on " + socket, e);
    }
  }

  /** A channel to the server on {@code socket}; it connects at the first call. */
  static ManagedChannel dial(Path socket) {
    checkTransport();
    return Grpc.newChannelBuilder("unix://" + socket, InsecureChannelCredentials.create()).build();
  }

  private static void checkLength(Path socket) {
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
