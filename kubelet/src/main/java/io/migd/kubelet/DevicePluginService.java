package io.migd.kubelet;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.AllocateResponse;
import io.migd.api.deviceplugin.v1beta1.CDIDevice;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateResponse;
import io.migd.api.deviceplugin.v1beta1.ContainerPreferredAllocationResponse;
import io.migd.api.deviceplugin.v1beta1.DevicePluginGrpc;
import io.migd.api.deviceplugin.v1beta1.DevicePluginOptions;
import io.migd.api.deviceplugin.v1beta1.Empty;
import io.migd.api.deviceplugin.v1beta1.ListAndWatchResponse;
import io.migd.api.deviceplugin.v1beta1.Mount;
import io.migd.api.deviceplugin.v1beta1.NUMANode;
import io.migd.api.deviceplugin.v1beta1.PreStartContainerRequest;
import io.migd.api.deviceplugin.v1beta1.PreStartContainerResponse;
import io.migd.api.deviceplugin.v1beta1.PreferredAllocationRequest;
import io.migd.api.deviceplugin.v1beta1.PreferredAllocationResponse;
import io.migd.api.deviceplugin.v1beta1.TopologyInfo;
import io.migd.cdi.GpuCdiSpec;
import io.migd.devices.AllocationListener;
import io.migd.devices.Device;
import io.migd.devices.Inventory;
import io.migd.devices.PreferredAllocation;
import io.migd.mps.MpsPaths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device plugin API for one resource. It keeps no devices of its own: every call reads the
 * node's latest inventory, so a reshape reaches {@code Allocate} and the streams at once.
 */
final class DevicePluginService extends DevicePluginGrpc.DevicePluginImplBase {
  static final String VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";
  static final String CDI_KIND = GpuCdiSpec.KIND;
  static final String HEALTHY = "Healthy";
  static final String UNHEALTHY = "Unhealthy";
  static final String MPS_PIPE_DIRECTORY = "CUDA_MPS_PIPE_DIRECTORY";
  static final String DEV_SHM = "/dev/shm";

  private static final Logger log = LoggerFactory.getLogger(DevicePluginService.class);

  private final String resource;
  private final Supplier<Inventory> inventory;
  private final boolean cdiEnabled;
  private final MpsPaths mps;
  private final AllocationListener listener;
  private final Set<DeviceStream> streams = ConcurrentHashMap.newKeySet();

  DevicePluginService(
      String resource,
      Supplier<Inventory> inventory,
      boolean cdiEnabled,
      MpsPaths mps,
      AllocationListener listener) {
    this.resource = resource;
    this.inventory = inventory;
    this.cdiEnabled = cdiEnabled;
    this.mps = mps;
    this.listener = listener;
  }

  /** Sends the latest complete list on every open stream. */
  void publish() {
    streams.forEach(DeviceStream::sendLatest);
  }

  int openStreams() {
    return streams.size();
  }

  @Override
  public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> response) {
    response.onNext(
        DevicePluginOptions.newBuilder()
            .setPreStartRequired(false)
            .setGetPreferredAllocationAvailable(true)
            .build());
    response.onCompleted();
  }

  @Override
  public void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> response) {
    var stream = new DeviceStream((ServerCallStreamObserver<ListAndWatchResponse>) response);
    stream.observer.setOnCancelHandler(() -> streams.remove(stream));
    streams.add(stream);
    // added before the first send: a publish racing with this call is never missed, since
    // every send reads the latest inventory
    stream.sendLatest();
  }

  @Override
  public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> response) {
    AllocateResponse answer;
    try {
      answer = answer(request);
    } catch (StatusRuntimeException refused) {
      response.onError(refused);
      return;
    }
    response.onNext(answer);
    response.onCompleted();
  }

  /**
   * The answer to an Allocate: each container's environment, mounts and CDI devices, once the
   * allocation is recorded and its devices are still advertised; a refusal throws the status.
   */
  private AllocateResponse answer(AllocateRequest request) {
    var current = inventory.get();
    var answer = AllocateResponse.newBuilder();
    for (ContainerAllocateRequest container : request.getContainerRequestsList()) {
      answer.addContainerResponses(containerAnswer(container, current));
    }
    record(request);
    checkStillAdvertised(request);
    return answer.build();
  }

  /** One container's answer over {@code current}; a device it may not get throws the status. */
  private ContainerAllocateResponse.Builder containerAnswer(
      ContainerAllocateRequest container, Inventory current) {
    var parents = new LinkedHashSet<String>();
    var mpsReplicas = new ArrayList<Device>();
    boolean oneReplicaOnly = false;
    for (String id : container.getDevicesIdsList()) {
      Optional<Device> device = current.find(resource, id);
      if (device.isEmpty()) {
        throw Status.INVALID_ARGUMENT
            .withDescription("device \"" + id + "\" is not advertised under " + resource)
            .asRuntimeException();
      }
      parents.add(device.get().parentUuid());
      oneReplicaOnly |= device.get().oneReplicaPerRequest();
      if (device.get().isMps()) {
        mpsReplicas.add(device.get());
      }
    }
    checkReplicaCount(container, parents, !mpsReplicas.isEmpty(), oneReplicaOnly);
    var containerAnswer =
        ContainerAllocateResponse.newBuilder().putEnvs(VISIBLE_DEVICES, String.join(",", parents));
    if (!mpsReplicas.isEmpty()) {
      // the pipe at MPS's default path, so a client that unsets the variable stays in MPS; the
      // daemon's own tmpfs at /dev/shm, the memory its server shares with its clients
      String parent = mpsReplicas.getFirst().parentUuid();
      String clientPipe = MpsPaths.CLIENT_PIPE_DIRECTORY.toString();
      containerAnswer
          .putEnvs(MPS_PIPE_DIRECTORY, clientPipe)
          .addMounts(
              Mount.newBuilder()
                  .setHostPath(mps.pipeDirectory(parent).toString())
                  .setContainerPath(clientPipe))
          .addMounts(
              Mount.newBuilder()
                  .setHostPath(mps.sharedMemory(parent).toString())
                  .setContainerPath(DEV_SHM));
    }
    if (cdiEnabled) {
      parents.forEach(
          p -> containerAnswer.addCdiDevices(CDIDevice.newBuilder().setName(CDI_KIND + "=" + p)));
    }
    return containerAnswer;
  }

  /** Refuses several replicas in one container where a container may get one only. */
  private void checkReplicaCount(
      ContainerAllocateRequest container,
      LinkedHashSet<String> parents,
      boolean mps,
      boolean oneReplicaOnly) {
    // one container talks to one MPS control daemon (one pipe directory), and each replica
    // stands for one client's share of threads and memory
    if (mps && container.getDevicesIdsCount() > 1) {
      throw Status.INVALID_ARGUMENT
          .withDescription(
              "a container may get one MPS replica only; asked for "
                  + String.join(", ", container.getDevicesIdsList())
                  + " under "
                  + resource
                  + (parents.size() > 1
                      ? " (replicas of " + parents.size() + " MPS parents)"
                      : " (several replicas of " + parents.getFirst() + ")"))
          .asRuntimeException();
    }
    // NVIDIA's failRequestsGreaterThanOne: a replica is a share, and several shares in one
    // container would not add up to more of the GPU
    if (oneReplicaOnly && container.getDevicesIdsCount() > 1) {
      throw Status.INVALID_ARGUMENT
          .withDescription(
              "a container may get one replica of "
                  + resource
                  + " only (failRequestsGreaterThanOne in the device-plugin config); asked"
                  + " for "
                  + container.getDevicesIdsCount()
                  + ": "
                  + String.join(", ", container.getDevicesIdsList()))
          .asRuntimeException();
    }
  }

  /** Tells the listener every container's devices; a failure refuses the Allocate. */
  private void record(AllocateRequest request) {
    try {
      for (ContainerAllocateRequest container : request.getContainerRequestsList()) {
        listener.allocated(resource, List.copyOf(container.getDevicesIdsList()));
      }
    } catch (RuntimeException e) {
      // a device handed out without being counted as in use could be destroyed by a reshape
      log.error("resource={} recording an allocation failed", resource, e);
      throw Status.INTERNAL
          .withDescription("recording the allocation under " + resource + " failed: " + e)
          .asRuntimeException();
    }
  }

  /**
   * A plan withdraws the slices it destroys, then reads usage again (GpuReconcile). A withdrawal
   * that came between the read of the inventory and the record could miss this allocation, so the
   * devices must still be advertised now that it is recorded; else the slice is on its way out
   * (issue 20: the chaos runner saw a pod's slice destroyed after its Allocate succeeded).
   */
  private void checkStillAdvertised(AllocateRequest request) {
    Inventory after = inventory.get();
    for (ContainerAllocateRequest container : request.getContainerRequestsList()) {
      for (String id : container.getDevicesIdsList()) {
        if (after.find(resource, id).isEmpty()) {
          throw Status.UNAVAILABLE
              .withDescription(
                  "device \""
                      + id
                      + "\" under "
                      + resource
                      + " is being reshaped and was withdrawn; the kubelet sees the new list")
              .asRuntimeException();
        }
      }
    }
  }

  @Override
  public void getPreferredAllocation(
      PreferredAllocationRequest request, StreamObserver<PreferredAllocationResponse> response) {
    var current = inventory.get();
    var answer = PreferredAllocationResponse.newBuilder();
    for (var container : request.getContainerRequestsList()) {
      var available = new ArrayList<Device>();
      // the must-include IDs count too: their NUMA node is the one the request should stay on
      for (String id : container.getMustIncludeDeviceIDsList()) {
        current.find(resource, id).ifPresent(available::add);
      }
      for (String id : container.getAvailableDeviceIDsList()) {
        current.find(resource, id).ifPresent(available::add);
      }
      answer.addContainerResponses(
          ContainerPreferredAllocationResponse.newBuilder()
              .addAllDeviceIDs(
                  PreferredAllocation.choose(
                      available,
                      container.getMustIncludeDeviceIDsList(),
                      container.getAllocationSize())));
    }
    response.onNext(answer.build());
    response.onCompleted();
  }

  @Override
  public void preStartContainer(
      PreStartContainerRequest request, StreamObserver<PreStartContainerResponse> response) {
    response.onNext(PreStartContainerResponse.getDefaultInstance());
    response.onCompleted();
  }

  private ListAndWatchResponse list() {
    var devices = ListAndWatchResponse.newBuilder();
    for (Device d : inventory.get().devices(resource)) {
      var device =
          devices.addDevicesBuilder().setID(d.id()).setHealth(d.healthy() ? HEALTHY : UNHEALTHY);
      d.numa()
          .ifPresent(
              node ->
                  device.setTopology(
                      TopologyInfo.newBuilder().addNodes(NUMANode.newBuilder().setID(node))));
    }
    return devices.build();
  }

  /** One kubelet's ListAndWatch call; a StreamObserver is not thread-safe, so sends are serial. */
  private final class DeviceStream {
    private final ServerCallStreamObserver<ListAndWatchResponse> observer;

    DeviceStream(ServerCallStreamObserver<ListAndWatchResponse> observer) {
      this.observer = observer;
    }

    synchronized void sendLatest() {
      if (observer.isCancelled()) {
        streams.remove(this);
        return;
      }
      try {
        observer.onNext(list());
      } catch (RuntimeException e) {
        streams.remove(this);
        log.warn("resource={} ListAndWatch stream dropped: {}", resource, e.toString());
      }
    }
  }
}
