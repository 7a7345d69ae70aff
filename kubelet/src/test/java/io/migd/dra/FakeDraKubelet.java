package io.migd.dra;

import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.migd.api.dra.health.v1alpha1.DRAResourceHealthGrpc;
import io.migd.api.dra.health.v1alpha1.NodeWatchResourcesRequest;
import io.migd.api.dra.health.v1alpha1.NodeWatchResourcesResponse;
import io.migd.api.dra.registration.InfoRequest;
import io.migd.api.dra.registration.PluginInfo;
import io.migd.api.dra.registration.RegistrationGrpc;
import io.migd.api.dra.registration.RegistrationStatus;
import io.migd.kubelet.UnixSockets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Plays the kubelet's plugin watcher and DRA manager over real unix sockets: dials a registration
 * socket, asks {@code GetInfo}, checks the plugin type and picks the newest DRA version it knows,
 * dials the reported endpoint, and answers {@code NotifyRegistrationStatus}; then calls the DRA
 * services on that endpoint as the kubelet does.
 */
public final class FakeDraKubelet {
  /** The DRA versions this kubelet knows, newest first (a 1.34 to 1.36 kubelet). */
  public static final List<String> KNOWN = List.of("v1.DRAPlugin", "v1beta1.DRAPlugin");

  /** The kubelet's deadline of a prepare or unprepare call. */
  public static final Duration DEADLINE = Duration.ofSeconds(45);

  private FakeDraKubelet() {}

  /** Registers the plugin behind {@code registrationSocket}, or fails as the kubelet would. */
  public static Plugin register(Path registrationSocket) throws InterruptedException {
    return register(registrationSocket, UnaryOperator.identity());
  }

  /**
   * Registers the plugin behind {@code registrationSocket}, dialling the endpoint it names where
   * {@code onTheHost} says that path is (a test whose host root is a directory of its own).
   */
  public static Plugin register(Path registrationSocket, UnaryOperator<Path> onTheHost)
      throws InterruptedException {
    var info = info(registrationSocket);
    var version = KNOWN.stream().filter(info.getSupportedVersionsList()::contains).findFirst();
    if (!info.getType().equals("DRAPlugin") || version.isEmpty()) {
      notify(
          registrationSocket,
          false,
          "no supported DRA version in " + info.getSupportedVersionsList());
      throw new IllegalStateException("kubelet refused " + info);
    }
    var channel = UnixSockets.dial(onTheHost.apply(Path.of(info.getEndpoint())));
    notify(registrationSocket, true, "");
    return new Plugin(info, version.get(), channel);
  }

  /** {@code GetInfo} on {@code registrationSocket}. */
  public static PluginInfo info(Path registrationSocket) throws InterruptedException {
    var channel = UnixSockets.dial(registrationSocket);
    try {
      return RegistrationGrpc.newBlockingStub(channel)
          .withDeadlineAfter(5, TimeUnit.SECONDS)
          .getInfo(InfoRequest.getDefaultInstance());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** {@code NotifyRegistrationStatus} on {@code registrationSocket}. */
  public static void notify(Path registrationSocket, boolean registered, String error)
      throws InterruptedException {
    var channel = UnixSockets.dial(registrationSocket);
    try {
      RegistrationGrpc.newBlockingStub(channel)
          .withDeadlineAfter(5, TimeUnit.SECONDS)
          .notifyRegistrationStatus(
              RegistrationStatus.newBuilder()
                  .setPluginRegistered(registered)
                  .setError(error)
                  .build());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /**
   * A registered plugin: what it said of itself, the version chosen, and a channel to its DRA
   * endpoint (the kubelet calls with a 45 s deadline: {@link #DEADLINE}).
   */
  public record Plugin(PluginInfo info, String version, ManagedChannel channel)
      implements AutoCloseable {
    /** Opens {@code NodeWatchResources}; every message received goes to the returned list. */
    public List<NodeWatchResourcesResponse> watchHealth() {
      var received = new CopyOnWriteArrayList<NodeWatchResourcesResponse>();
      DRAResourceHealthGrpc.newStub(channel)
          .nodeWatchResources(
              NodeWatchResourcesRequest.getDefaultInstance(),
              new StreamObserver<>() {
                @Override
                public void onNext(NodeWatchResourcesResponse message) {
                  received.add(message);
                }

                @Override
                public void onError(Throwable t) {}

                @Override
                public void onCompleted() {}
              });
      return received;
    }

    @Override
    public void close() throws InterruptedException {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
