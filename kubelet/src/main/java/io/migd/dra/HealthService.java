package io.migd.dra;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.migd.api.dra.health.v1alpha1.DRAResourceHealthGrpc;
import io.migd.api.dra.health.v1alpha1.DeviceIdentifier;
import io.migd.api.dra.health.v1alpha1.HealthStatus;
import io.migd.api.dra.health.v1alpha1.NodeWatchResourcesRequest;
import io.migd.api.dra.health.v1alpha1.NodeWatchResourcesResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * {@code v1alpha1.DRAResourceHealth}: each {@code NodeWatchResources} stream is attached to the
 * {@link HealthPublisher} until the kubelet cancels it. Every device is stamped with the time of
 * the message, since the list is the publisher's view as of now.
 */
final class HealthService extends DRAResourceHealthGrpc.DRAResourceHealthImplBase {
  static final String VERSION = "v1alpha1.DRAResourceHealth";
  static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);
  // the kubelet keeps no more of a message
  static final int MAX_MESSAGE = 1024;

  private final HealthPublisher publisher;
  private final Clock clock;

  HealthService(HealthPublisher publisher, Clock clock) {
    this.publisher = publisher;
    this.clock = clock;
  }

  @Override
  public void nodeWatchResources(
      NodeWatchResourcesRequest request, StreamObserver<NodeWatchResourcesResponse> response) {
    var stream = (ServerCallStreamObserver<NodeWatchResourcesResponse>) response;
    var detach =
        publisher.attach(
            devices -> {
              if (stream.isCancelled()) {
                throw new IllegalStateException("the kubelet cancelled the stream");
              }
              stream.onNext(message(devices));
            });
    stream.setOnCancelHandler(detach);
  }

  private NodeWatchResourcesResponse message(List<DeviceHealth> devices) {
    long now = clock.instant().getEpochSecond();
    var message = NodeWatchResourcesResponse.newBuilder();
    for (var device : devices) {
      message
          .addDevicesBuilder()
          .setDevice(
              DeviceIdentifier.newBuilder()
                  .setPoolName(device.poolName())
                  .setDeviceName(device.deviceName()))
          .setHealth(status(device.health()))
          .setLastUpdatedTime(now)
          .setHealthCheckTimeoutSeconds(CHECK_TIMEOUT.toSeconds())
          .setMessage(
              device.message().length() > MAX_MESSAGE
                  ? device.message().substring(0, MAX_MESSAGE)
                  : device.message());
    }
    return message.build();
  }

  private static HealthStatus status(DeviceHealth.Health health) {
    return switch (health) {
      case UNKNOWN -> HealthStatus.UNKNOWN;
      case HEALTHY -> HealthStatus.HEALTHY;
      case UNHEALTHY -> HealthStatus.UNHEALTHY;
    };
  }
}
