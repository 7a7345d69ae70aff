package io.migd.kubelet;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.migd.api.podresources.v1.ListPodResourcesRequest;
import io.migd.api.podresources.v1.PodResourcesListerGrpc;
import io.migd.devices.PodAllocations;
import io.migd.devices.PodDevice;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/** Asks the kubelet's PodResources API ({@code List}) which devices running pods hold. */
public final class PodResourcesClient implements PodAllocations, AutoCloseable {
  /** Where the kubelet serves PodResources by default. */
  public static final Path DEFAULT_SOCKET = Path.of("/var/lib/kubelet/pod-resources/kubelet.sock");

  private static final Duration DEADLINE = Duration.ofSeconds(2);

  private final Path socket;
  private final ManagedChannel channel;

  /** A client of the PodResources server on {@code socket}; it connects at the first call. */
  public PodResourcesClient(Path socket) {
    this.socket = Objects.requireNonNull(socket);
    this.channel = UnixSockets.dial(socket);
  }

  @Override
  public List<PodDevice> list() {
    try {
      var answer =
          PodResourcesListerGrpc.newBlockingStub(channel)
              .withDeadlineAfter(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
              .list(ListPodResourcesRequest.getDefaultInstance());
      var devices = new ArrayList<PodDevice>();
      for (var pod : answer.getPodResourcesList()) {
        for (var container : pod.getContainersList()) {
          for (var held : container.getDevicesList()) {
            for (String id : held.getDeviceIdsList()) {
              devices.add(
                  new PodDevice(
                      held.getResourceName(),
                      id,
                      pod.getNamespace(),
                      pod.getName(),
                      container.getName()));
            }
          }
        }
      }
      return List.copyOf(devices);
    } catch (StatusRuntimeException e) {
      Status status = e.getStatus();
      throw new Unavailable(
          "PodResources List at "
              + socket
              + " failed: "
              + status.getCode()
              + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")"),
          e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
