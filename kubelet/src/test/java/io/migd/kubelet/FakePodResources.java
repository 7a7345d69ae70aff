package io.migd.kubelet;

import io.grpc.Server;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.stub.StreamObserver;
import io.migd.api.podresources.v1.ContainerDevices;
import io.migd.api.podresources.v1.ContainerResources;
import io.migd.api.podresources.v1.ListPodResourcesRequest;
import io.migd.api.podresources.v1.ListPodResourcesResponse;
import io.migd.api.podresources.v1.PodResources;
import io.migd.api.podresources.v1.PodResourcesListerGrpc;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Plays the kubelet's PodResources server on a unix socket; a test sets what {@code List} says. */
public final class FakePodResources implements AutoCloseable {
  private final EventLoopGroup loop =
      new MultiThreadIoEventLoopGroup(
          1,
          Thread.ofPlatform().name("fake-pod-resources-io-", 0).daemon().factory(),
          EpollIoHandler.newFactory());
  private final AtomicReference<ListPodResourcesResponse> answer =
      new AtomicReference<>(ListPodResourcesResponse.getDefaultInstance());
  private final Server server;

  private FakePodResources(Path socket) {
    server =
        UnixSockets.serve(
            socket,
            loop,
            new PodResourcesListerGrpc.PodResourcesListerImplBase() {
              @Override
              public void list(
                  ListPodResourcesRequest request,
                  StreamObserver<ListPodResourcesResponse> response) {
                response.onNext(answer.get());
                response.onCompleted();
              }
            });
  }

  /** A PodResources server on {@code socket} that lists no pods until {@link #answer} is set. */
  public static FakePodResources start(Path socket) {
    return new FakePodResources(socket);
  }

  /** A {@code List} answer of one pod whose one container holds {@code deviceIds}. */
  public static ListPodResourcesResponse onePod(
      String namespace, String pod, String container, String resource, String... deviceIds) {
    return ListPodResourcesResponse.newBuilder()
        .addPodResources(
            PodResources.newBuilder()
                .setNamespace(namespace)
                .setName(pod)
                .addContainers(
                    ContainerResources.newBuilder()
                        .setName(container)
                        .addDevices(
                            ContainerDevices.newBuilder()
                                .setResourceName(resource)
                                .addAllDeviceIds(List.of(deviceIds)))))
        .build();
  }

  /** What {@code List} answers from now on. */
  public void answer(ListPodResourcesResponse list) {
    answer.set(list);
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    loop.shutdownGracefully(0, 10, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }
}
