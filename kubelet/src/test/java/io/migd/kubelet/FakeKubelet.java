package io.migd.kubelet;

import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.stub.StreamObserver;
import io.migd.api.deviceplugin.v1beta1.DevicePluginGrpc;
import io.migd.api.deviceplugin.v1beta1.DevicePluginOptions;
import io.migd.api.deviceplugin.v1beta1.Empty;
import io.migd.api.deviceplugin.v1beta1.ListAndWatchResponse;
import io.migd.api.deviceplugin.v1beta1.RegisterRequest;
import io.migd.api.deviceplugin.v1beta1.RegistrationGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Plays the kubelet's device manager over real unix sockets: a {@code Registration} server on
 * {@code <dir>/kubelet.sock} that records each {@code RegisterRequest}, dials the plugin's endpoint
 * back (failing the Register, as the kubelet does, when nothing serves there), calls {@code
 * GetDevicePluginOptions} and keeps a {@code ListAndWatch} stream open, remembering the latest list
 * per resource. {@link #restart} does what a kubelet start does to the directory.
 */
public final class FakeKubelet implements AutoCloseable {
  /** One Register call that the kubelet accepted, and when. */
  public record Registration(RegisterRequest request, DevicePluginOptions options, Instant at) {}

  private final Path directory;
  private final EventLoopGroup loop =
      new MultiThreadIoEventLoopGroup(
          1,
          Thread.ofPlatform().name("fake-kubelet-io-", 0).daemon().factory(),
          EpollIoHandler.newFactory());
  private final List<RegisterRequest> requests = new CopyOnWriteArrayList<>();
  private final List<Registration> accepted = new CopyOnWriteArrayList<>();
  private final Map<String, ListAndWatchResponse> latest = new ConcurrentHashMap<>();
  private final Map<String, ManagedChannel> plugins = new ConcurrentHashMap<>();
  private final Set<String> openStreams = ConcurrentHashMap.newKeySet();
  private final AtomicInteger refusals = new AtomicInteger();
  private volatile Runnable onRegister = () -> {};
  private volatile boolean closed;
  private final Server server;

  private FakeKubelet(Path directory) {
    this.directory = directory;
    this.server =
        UnixSockets.serve(directory.resolve("kubelet.sock"), loop, new RegistrationService());
  }

  /** A kubelet listening on {@code <directory>/kubelet.sock}. */
  public static FakeKubelet start(Path directory) {
    return new FakeKubelet(directory);
  }

  /**
   * Stops {@code old} and starts a new kubelet on the same directory the way a restarted kubelet
   * does: every file that is not a directory is deleted, then a fresh {@code kubelet.sock} appears.
   */
  public static FakeKubelet restart(FakeKubelet old) throws InterruptedException {
    old.close();
    deleteEveryFile(old.directory);
    return start(old.directory);
  }

  /** Deletes every file of {@code directory} that is not a directory (socket files included). */
  public static void deleteEveryFile(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      for (Path f : files.filter(f -> !Files.isDirectory(f)).toList()) {
        Files.deleteIfExists(f);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Refuses the next {@code calls} Register calls with {@code UNAVAILABLE}. */
  public void refuseNext(int calls) {
    refusals.set(calls);
  }

  /**
   * Runs {@code check} on every Register call, before the call is answered: what a test must see of
   * the plugin's process at the moment the kubelet first hears of it.
   */
  public void onRegister(Runnable check) {
    onRegister = check;
  }

  /** Every Register call received, accepted or not, in order. */
  public List<RegisterRequest> requests() {
    return List.copyOf(requests);
  }

  /** Every Register call accepted (the plugin answered on its endpoint), in order. */
  public List<Registration> registrations() {
    return List.copyOf(accepted);
  }

  /** The resources registered at least once. */
  public Set<String> registeredResources() {
    return Set.copyOf(accepted.stream().map(r -> r.request().getResourceName()).toList());
  }

  /** The last list a resource's ListAndWatch stream sent; empty before the first message. */
  public Optional<ListAndWatchResponse> latest(String resource) {
    return Optional.ofNullable(latest.get(resource));
  }

  /** The device IDs of the last list of a resource, in the order sent. */
  public List<String> ids(String resource) {
    return latest(resource).stream()
        .flatMap(l -> l.getDevicesList().stream())
        .map(d -> d.getID())
        .toList();
  }

  /** Whether the ListAndWatch stream of a resource is open now. */
  public boolean streaming(String resource) {
    return openStreams.contains(resource);
  }

  /**
   * A client of the plugin registered for {@code resource}, over the endpoint the kubelet dialed.
   */
  public DevicePluginGrpc.DevicePluginBlockingStub plugin(String resource) {
    var channel = plugins.get(resource);
    if (channel == null) {
      throw new IllegalStateException(resource + " is not registered");
    }
    return DevicePluginGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    for (var channel : plugins.values()) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    loop.shutdownGracefully(0, 10, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }

  private final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {
    @Override
    public void register(RegisterRequest request, StreamObserver<Empty> response) {
      requests.add(request);
      onRegister.run();
      if (refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        response.onError(
            Status.UNAVAILABLE.withDescription("refused by the test").asRuntimeException());
        return;
      }
      var resource = request.getResourceName();
      var channel = UnixSockets.dial(directory.resolve(request.getEndpoint()));
      DevicePluginOptions options;
      try {
        options =
            DevicePluginGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getDevicePluginOptions(Empty.getDefaultInstance());
      } catch (RuntimeException e) {
        channel.shutdownNow();
        response.onError(
            Status.UNAVAILABLE
                .withDescription("cannot dial " + request.getEndpoint() + ": " + e)
                .asRuntimeException());
        return;
      }
      var previous = plugins.put(resource, channel);
      if (previous != null) {
        previous.shutdownNow();
      }
      if (closed) {
        // a Register that was running while the kubelet closed: its channel is not left open
        channel.shutdownNow();
        response.onError(Status.UNAVAILABLE.withDescription("kubelet closed").asRuntimeException());
        return;
      }
      // the stream outlives this Register call: fork, or it is cancelled when Register returns
      Context.current().fork().run(() -> watch(resource, channel));
      accepted.add(new Registration(request, options, Instant.now()));
      response.onNext(Empty.getDefaultInstance());
      response.onCompleted();
    }

    private void watch(String resource, ManagedChannel channel) {
      DevicePluginGrpc.newStub(channel)
          .listAndWatch(
              Empty.getDefaultInstance(),
              new StreamObserver<>() {
                @Override
                public void onNext(ListAndWatchResponse list) {
                  latest.put(resource, list);
                  openStreams.add(resource);
                }

                @Override
                public void onError(Throwable t) {
                  openStreams.remove(resource);
                }

                @Override
                public void onCompleted() {
                  openStreams.remove(resource);
                }
              });
    }
  }
}
