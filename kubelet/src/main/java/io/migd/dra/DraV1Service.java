package io.migd.dra;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.Device;
import io.migd.api.dra.v1.NodePrepareResourceResponse;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodePrepareResourcesResponse;
import io.migd.api.dra.v1.NodeUnprepareResourceResponse;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourcesResponse;
import io.migd.ownership.ClaimKey;
import java.util.List;
import java.util.function.Supplier;

/** {@code k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin}: maps the wire to {@link ClaimCalls}. */
final class DraV1Service extends DRAPluginGrpc.DRAPluginImplBase {
  static final String VERSION = "v1.DRAPlugin";

  private final ClaimCalls calls;

  DraV1Service(ClaimCalls calls) {
    this.calls = calls;
  }

  @Override
  public void nodePrepareResources(
      NodePrepareResourcesRequest request, StreamObserver<NodePrepareResourcesResponse> response) {
    answer(
        response,
        () -> {
          var answer = NodePrepareResourcesResponse.newBuilder();
          calls
              .prepare(claims(request.getClaimsList()))
              .forEach((uid, result) -> answer.putClaims(uid, prepared(result)));
          return answer.build();
        });
  }

  @Override
  public void nodeUnprepareResources(
      NodeUnprepareResourcesRequest request,
      StreamObserver<NodeUnprepareResourcesResponse> response) {
    answer(
        response,
        () -> {
          var answer = NodeUnprepareResourcesResponse.newBuilder();
          calls
              .unprepare(claims(request.getClaimsList()))
              .forEach((uid, result) -> answer.putClaims(uid, unprepared(result)));
          return answer.build();
        });
  }

  /**
   * Sends {@code answer}'s message, or {@code INVALID_ARGUMENT} when the request is malformed (a
   * claim without its UID, namespace or name): the only top-level error, since the kubelet drops a
   * whole answer that fails.
   */
  static <A> void answer(StreamObserver<A> response, Supplier<A> answer) {
    A message;
    try {
      message = answer.get();
    } catch (IllegalArgumentException e) {
      response.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asException());
      return;
    }
    response.onNext(message);
    response.onCompleted();
  }

  private static List<ClaimKey> claims(List<Claim> claims) {
    return claims.stream()
        .map(c -> new ClaimKey(c.getUid(), c.getNamespace(), c.getName()))
        .toList();
  }

  private static NodePrepareResourceResponse prepared(PrepareResult result) {
    return switch (result) {
      case PrepareResult.Prepared(_, var devices) ->
          NodePrepareResourceResponse.newBuilder()
              .addAllDevices(devices.stream().map(DraV1Service::device).toList())
              .build();
      case PrepareResult.Failed(_, var error) ->
          NodePrepareResourceResponse.newBuilder().setError(error).build();
    };
  }

  private static Device device(PreparedDevice device) {
    var wire =
        Device.newBuilder()
            .addAllRequestNames(device.requestNames())
            .setPoolName(device.poolName())
            .setDeviceName(device.deviceName())
            .addAllCdiDeviceIds(device.cdiDeviceIds());
    device.share().ifPresent(wire::setShareId);
    return wire.build();
  }

  private static NodeUnprepareResourceResponse unprepared(UnprepareResult result) {
    return switch (result) {
      case UnprepareResult.Unprepared _ -> NodeUnprepareResourceResponse.getDefaultInstance();
      case UnprepareResult.Failed(_, var error) ->
          NodeUnprepareResourceResponse.newBuilder().setError(error).build();
    };
  }
}
