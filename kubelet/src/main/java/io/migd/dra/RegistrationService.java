package io.migd.dra;

import io.grpc.stub.StreamObserver;
import io.migd.api.dra.registration.InfoRequest;
import io.migd.api.dra.registration.PluginInfo;
import io.migd.api.dra.registration.RegistrationGrpc;
import io.migd.api.dra.registration.RegistrationStatus;
import io.migd.api.dra.registration.RegistrationStatusResponse;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code pluginregistration.Registration} on the registration socket: the kubelet's plugin watcher
 * finds the socket, asks who we are, dials the DRA socket and says whether it took us.
 */
final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {
  static final String PLUGIN_TYPE = "DRAPlugin";
  static final List<String> VERSIONS =
      List.of(DraV1Service.VERSION, DraV1beta1Service.VERSION, HealthService.VERSION);

  private static final Logger log = LoggerFactory.getLogger(RegistrationService.class);

  private final PluginInfo info;
  private volatile boolean registered;

  RegistrationService(String driverName, Path draSocket) {
    this.info =
        PluginInfo.newBuilder()
            .setType(PLUGIN_TYPE)
            .setName(driverName)
            .setEndpoint(draSocket.toAbsolutePath().toString())
            .addAllSupportedVersions(VERSIONS)
            .build();
  }

  /** Whether the kubelet's last word on this socket was that it registered us. */
  boolean registered() {
    return registered;
  }

  @Override
  public void getInfo(InfoRequest request, StreamObserver<PluginInfo> response) {
    log.debug("kubelet asked for the plugin info: driver={}", info.getName());
    response.onNext(info);
    response.onCompleted();
  }

  @Override
  public void notifyRegistrationStatus(
      RegistrationStatus status, StreamObserver<RegistrationStatusResponse> response) {
    registered = status.getPluginRegistered();
    if (registered) {
      log.info(
          "kubelet registered the DRA plugin: driver={} endpoint={}",
          info.getName(),
          info.getEndpoint());
    } else {
      log.error(
          "kubelet refused the DRA plugin: driver={} endpoint={} versions={} error={}",
          info.getName(),
          info.getEndpoint(),
          info.getSupportedVersionsList(),
          status.getError());
    }
    response.onNext(RegistrationStatusResponse.getDefaultInstance());
    response.onCompleted();
  }
}
