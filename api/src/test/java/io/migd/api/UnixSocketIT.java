package io.migd.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.StreamObserver;
import io.migd.api.deviceplugin.v1beta1.Device;
import io.migd.api.deviceplugin.v1beta1.DevicePluginGrpc;
import io.migd.api.deviceplugin.v1beta1.DevicePluginOptions;
import io.migd.api.deviceplugin.v1beta1.Empty;
import io.migd.api.deviceplugin.v1beta1.ListAndWatchResponse;
import io.migd.api.deviceplugin.v1beta1.RegisterRequest;
import io.migd.api.deviceplugin.v1beta1.RegistrationGrpc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transport the device plugin will use: grpc-java over a unix domain socket with shaded Netty's
 * epoll, a server on a socket file and a client that dials "unix://" + that path, as the kubelet
 * and the plugin do in /var/lib/kubelet/device-plugins/.
 */
class UnixSocketIT {

  private final EventLoopGroup serverLoop =
      new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
  private final List<Server> servers = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();

  @TempDir Path dir;

  @AfterEach
  void stop() throws InterruptedException {
    for (var channel : channels) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    for (var server : servers) {
      server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    serverLoop.shutdownGracefully(0, 10, TimeUnit.SECONDS).awaitUninterruptibly();
  }

  @Test
  void theKubeletSeesEveryFieldOfAPluginsRegistration() throws IOException, InterruptedException {
    var received = new LinkedBlockingQueue<RegisterRequest>();
    var kubeletSocket =
        serve(
            "kubelet.sock",
            new RegistrationGrpc.RegistrationImplBase() {
              @Override
              public void register(RegisterRequest request, StreamObserver<Empty> response) {
                received.add(request);
                response.onNext(Empty.getDefaultInstance());
                response.onCompleted();
              }
            });
    var registration =
        RegisterRequest.newBuilder()
            .setVersion("v1beta1")
            .setEndpoint("migd-mig-1g.10gb.sock")
            .setResourceName("nvidia.com/mig-1g.10gb")
            .setOptions(DevicePluginOptions.newBuilder().setGetPreferredAllocationAvailable(true))
            .build();

    var reply =
        RegistrationGrpc.newBlockingStub(dial(kubeletSocket))
            .withDeadlineAfter(30, TimeUnit.SECONDS)
            .register(registration);

    assertThat(reply).isEqualTo(Empty.getDefaultInstance());
    var seen = received.poll(30, TimeUnit.SECONDS);
    assertThat(seen).isNotNull();
    assertThat(seen.getVersion()).isEqualTo("v1beta1");
    assertThat(seen.getEndpoint()).isEqualTo("migd-mig-1g.10gb.sock");
    assertThat(seen.getResourceName()).isEqualTo("nvidia.com/mig-1g.10gb");
    assertThat(seen.getOptions().getGetPreferredAllocationAvailable()).isTrue();
    assertThat(seen.getOptions().getPreStartRequired()).isFalse();
    assertThat(received).isEmpty();
  }

  @Test
  void theKubeletReceivesEveryCompleteDeviceListAPluginStreams()
      throws IOException, InterruptedException {
    var first =
        ListAndWatchResponse.newBuilder()
            .addDevices(device("MIG-4b8c8d0a-0f0e-5a54-9f43-5a1b2c3d4e5f", "Healthy"))
            .addDevices(device("MIG-9e2f1a3b-7c6d-5e4f-8a9b-0c1d2e3f4a5b", "Healthy"))
            .build();
    var second =
        ListAndWatchResponse.newBuilder()
            .addDevices(device("MIG-4b8c8d0a-0f0e-5a54-9f43-5a1b2c3d4e5f", "Healthy"))
            .addDevices(device("MIG-9e2f1a3b-7c6d-5e4f-8a9b-0c1d2e3f4a5b", "Unhealthy"))
            .build();
    var pluginSocket =
        serve(
            "migd-mig-1g.10gb.sock",
            new DevicePluginGrpc.DevicePluginImplBase() {
              @Override
              public void listAndWatch(
                  Empty request, StreamObserver<ListAndWatchResponse> response) {
                response.onNext(first);
                response.onNext(second);
                response.onCompleted();
              }
            });

    var lists = new ArrayList<ListAndWatchResponse>();
    DevicePluginGrpc.newBlockingStub(dial(pluginSocket))
        .withDeadlineAfter(30, TimeUnit.SECONDS)
        .listAndWatch(Empty.getDefaultInstance())
        .forEachRemaining(lists::add);

    assertThat(lists).containsExactly(first, second);
  }

  private Path serve(String fileName, io.grpc.BindableService service) throws IOException {
    var socket = dir.resolve(fileName);
    // sun_path holds 108 bytes; stay well under it so the bind cannot truncate the path
    assertThat(socket.toString().length()).isLessThan(100);
    var server =
        NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
            .channelType(EpollServerDomainSocketChannel.class)
            .bossEventLoopGroup(serverLoop)
            .workerEventLoopGroup(serverLoop)
            .addService(service)
            .build()
            .start();
    servers.add(server);
    assertThat(Files.readAttributes(socket, BasicFileAttributes.class).isOther())
        .as("%s is a socket file", socket)
        .isTrue();
    return socket;
  }

  private ManagedChannel dial(Path socket) {
    var channel =
        Grpc.newChannelBuilder("unix://" + socket, InsecureChannelCredentials.create()).build();
    channels.add(channel);
    return channel;
  }

  private static Device device(String id, String health) {
    return Device.newBuilder().setID(id).setHealth(health).build();
  }
}
