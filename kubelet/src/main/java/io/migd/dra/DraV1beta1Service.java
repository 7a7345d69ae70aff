package io.migd.dra;

import io.grpc.stub.StreamObserver;
import io.migd.api.dra.v1beta1.Claim;
import io.migd.api.dra.v1beta1.DRAPluginGrpc;
import io.migd.api.dra.v1beta1.Device;
import io.migd.api.dra.v1beta1.NodePrepareResourceResponse;
import io.migd.api.dra.v1beta1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1beta1.NodePrepareResourcesResponse;
import io.migd.api.dra.v1beta1.NodeUnprepareResourceResponse;
import io.migd.api.dra.v1beta1.NodeUnprepareResourcesRequest;
import io.migd.api.dra.v1beta1.NodeUnprepareResourcesResponse;
import io.migd.ownership.ClaimKey;
import java.util.List;

/**
 * {@code k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin}, for kubelets older than 1.34: the same
 * {@link ClaimCalls} as {@link DraV1Service}; its Device has no share ID, so a share is dropped.
 */
final class DraV1beta1Service extends DRAPluginGrpc.DRAPluginImplBase {
  static final String VERSION = "v1beta1.DRAPlugin";

  private final ClaimCalls calls;

  DraV1beta1Service(ClaimCalls calls) {
    this.calls = calls;
  }

  @Override
  public void nodePrepareResources(
      NodePrepareResourcesRequest request, StreamObserver<NodePrepareResourcesResponse> response) {
    DraV1Service.answer(
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
    DraV1Service.answer(
        response,
        () -> {
          var answer = NodeUnprepareResourcesResponse.newBuilder();
          calls
              .unprepare(claims(request.getClaimsList()))
              .forEach((uid, result) -> answer.putClaims(uid, unprepared(result)));
          return answer.build();
        });
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
              .addAllDevices(devices.stream().map(DraV1beta1Service::device).toList())
              .build();
      case PrepareResult.Failed(_, var error) ->
          NodePrepareResourceResponse.newBuilder().setError(error).build();
    };
  }

  private static Device device(PreparedDevice device) {
    return Device.newBuilder()
        .addAllRequestNames(device.requestNames())
        .setPoolName(device.poolName())
        .setDeviceName(device.deviceName())
        .addAllCdiDeviceIds(device.cdiDeviceIds())
        .build();
  }

  private static NodeUnprepareResourceResponse unprepared(UnprepareResult result) {
    return switch (result) {
      case UnprepareResult.Unprepared _ -> NodeUnprepareResourceResponse.getDefaultInstance();
      case UnprepareResult.Failed(_, var error) ->
          NodeUnprepareResourceResponse.newBuilder().setError(error).build();
    };
  }
}
