package io.migd.cli;

import static io.migd.cli.DraServeNode.PATIENCE;
import static io.migd.cli.DraServeNode.prepare;
import static io.migd.cli.DraServeNode.unprepare;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.RootPathsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.utils.ResponseProvider;
import io.migd.api.dra.v1.Device;
import io.migd.sim.SimulatedProc;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DRA mode starts while the API server does not answer migd's probe (issue 18: the kubelet plugin
 * is served and registered at once): {@code /version} answers 500 from the start, yet the test
 * kubelet registers, an unprepare of an unknown claim succeeds, a prepare is answered the retryable
 * "the API server has not answered migd's DRA probe yet" and no ResourceSlice is written; once the
 * API server answers, the pool is published and a claim allocated from it is prepared. An API
 * server that answers too old a version once it answers ends migd with exit 2.
 */
@EnableKubernetesMockClient(crud = true)
class DraProbeOutageIT {
  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path nodeDir;

  /**
   * {@code /version}: 500 while the reference is empty, then Kubernetes 1.MINOR (in place of the
   * mock's own answer, an expectation that would always come first).
   */
  private AtomicReference<String> versionAfterOutage() {
    var minor = new AtomicReference<String>();
    server.clearExpectations();
    server
        .expect()
        .get()
        .withPath("/")
        .andReturn(200, new RootPathsBuilder().addToPaths(server.getRootPaths()).build())
        .always();
    server
        .expect()
        .get()
        .withPath("/version")
        .andReply(
            new ResponseProvider<Object>() {
              private Headers headers = Headers.builder().build();

              @Override
              public int getStatusCode(RecordedRequest request) {
                return minor.get() == null ? 500 : 200;
              }

              @Override
              public Object getBody(RecordedRequest request) {
                String answer = minor.get();
                return answer == null
                    ? "{\"kind\":\"Status\",\"code\":500,\"message\":\"etcd is down\"}"
                    : "{\"major\":\"1\",\"minor\":\""
                        + answer
                        + "\",\"gitVersion\":\"v1."
                        + answer
                        + ".0\"}";
              }

              @Override
              public Headers getHeaders() {
                return headers;
              }

              @Override
              public void setHeaders(Headers headers) {
                this.headers = headers;
              }
            })
        .always();
    return minor;
  }

  private boolean anySlicePublished() {
    return !client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().isEmpty();
  }

  @Test
  void servesTheKubeletWhileTheApiServerDoesNotAnswerAndPublishesOnceItDoes() throws Exception {
    try (var node =
        DraServeNode.create(server, client, nodeDir, List.of(new SimulatedProc.Gpu(0, 8, 7)))) {
      var minor = versionAfterOutage();
      try (var daemon = node.serve("H100-SXM5-80GB");
          var kubelet = node.register()) {
        var unknown = unprepare(kubelet, "never", "0f0f0f0f-0000-4000-8000-000000000001");
        assertThat(unknown.getError()).as(daemon.stdout()).isEmpty();

        String early = node.createClaim("early", "gpu-0");
        assertThat(prepare(kubelet, "early", early).getError())
            .startsWith("the API server has not answered migd's DRA probe yet (");
        await()
            .atMost(PATIENCE)
            .until(daemon::stdout, out -> out.contains("has not answered migd's DRA probe yet"));
        assertThat(anySlicePublished()).as("nothing is published before the probe").isFalse();
        assertThat(daemon.isAlive()).isTrue();

        minor.set("36");
        assertThat(node.published()).as("the pool, once the API server answers").isNotEmpty();
        assertThat(daemon.stdout()).contains("DRA on Kubernetes 1.36: dynamicDevices=true");
        String device = node.allocate("1g.10gb");
        String late = node.createClaim("late", device);
        var prepared =
            await()
                .atMost(PATIENCE)
                .until(() -> prepare(kubelet, "late", late), r -> r.getError().isEmpty());
        assertThat(prepared.getDevicesList())
            .extracting(Device::getDeviceName)
            .containsExactly(device);
        assertThat(unprepare(kubelet, "late", late).getError()).isEmpty();
      }
    }
  }

  @Test
  void endsWithStatus2WhenTheApiServerAnswersAVersionBefore134() throws Exception {
    try (var node =
        DraServeNode.create(server, client, nodeDir, List.of(new SimulatedProc.Gpu(0, 8, 7)))) {
      var minor = versionAfterOutage();
      try (var daemon = node.serve("H100-SXM5-80GB")) {
        try (var kubelet = node.register()) {
          assertThat(daemon.isAlive()).isTrue();
        }

        minor.set("33");
        var ended = daemon.await();
        assertThat(ended.exitStatus()).as(ended.toString()).isEqualTo(ExitStatus.USAGE);
        assertThat(ended.stdout() + ended.stderr())
            .contains(
                "migd.kubelet.mode=dra needs Kubernetes 1.34 or later (resource.k8s.io/v1); the"
                    + " API server is Kubernetes 1.33");
        assertThat(anySlicePublished()).isFalse();
      }
    }
  }
}
