package io.migd.rest.auth;

import static io.migd.rest.auth.ApiCalls.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.utils.ResponseProvider;
import io.migd.cli.MigdProcess;
import io.migd.sim.Kubeconfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migd serve} with {@code migd.auth.mode=kubernetes} on node {@code gpu-7}, as a real
 * process against the fabric8 mock API server, which answers TokenReviews (tokens starting with
 * {@code admin-} are user admin, {@code reader-} user reader, {@code scraper-} user scraper, {@code
 * flaky-} a server error) and SubjectAccessReviews (only admin may update nodes/gpu-7, only scraper
 * may get nodes/gpu-7/metrics).
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesAuthIT {
  private static final String NODE = "gpu-7";
  private static final String GPUS = "/api/v1/gpus";

  static KubernetesMockServer server;
  static KubernetesClient client;
  @TempDir static Path nodeDir;

  private static final AtomicInteger tokenReviews = new AtomicInteger();
  private static MigdProcess.Running daemon;
  private static ApiCalls api;

  @BeforeAll
  static void start() throws Exception {
    server
        .expect()
        .post()
        .withPath("/apis/authentication.k8s.io/v1/tokenreviews")
        .andReply(
            new Answer(
                request -> token(request).startsWith("flaky-") ? 500 : 200,
                KubernetesAuthIT::tokenReview))
        .always();
    server
        .expect()
        .post()
        .withPath("/apis/authorization.k8s.io/v1/subjectaccessreviews")
        .andReply(new Answer(KubernetesAuthIT::subjectAccessReview))
        .always();
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
        .createOr(NonDeletingOperation::update);
    Path kubeconfig =
        Kubeconfig.write(nodeDir.resolve("kubeconfig"), client.getConfiguration().getMasterUrl());
    daemon =
        MigdProcess.on(nodeDir.resolve("node"))
            .withEnvironment("SERVER_PORT", "0")
            .withEnvironment("MIGD_KUBELET_ENABLED", "false")
            .withEnvironment("MIGD_AUTH_MODE", "kubernetes")
            .withEnvironment("MIGD_AUTH_CACHETTL", "5m")
            .withEnvironment("NODE_NAME", NODE)
            .withEnvironment("KUBECONFIG", kubeconfig.toString())
            .withEnvironment("LOGGING_LEVEL_IO_MIGD", "DEBUG")
            .start("serve", "--simulate=A100-SXM4-40GB");
    api = ApiCalls.ready(daemon);
  }

  @AfterAll
  static void stop() {
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void noTokenIs401WithABearerChallenge() {
    var response = api.get(GPUS, null);
    assertProblem(response, 401, GPUS);
    assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
  }

  @Test
  void aTokenTheApiServerDoesNotKnowIs401() {
    var response = api.get(GPUS, "stranger-4f1e9c");
    assertThat(assertProblem(response, 401, GPUS)).doesNotContain("stranger-4f1e9c");
    assertThat(response.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Bearer"));
  }

  @Test
  void aUserWhoMayNotUpdateTheNodeIs403() {
    String detail =
        assertProblem(
            api.put("/api/v1/layout?dryRun=true", "reader-77a0b3", "{}"), 403, "/api/v1/layout");
    assertThat(detail).contains("reader").contains("update nodes/" + NODE);
    assertProblem(api.get(GPUS, "reader-77a0b3"), 403, GPUS);
  }

  @Test
  void aUserWhoMayUpdateTheNodeIsLetThroughAndTheAnswerIsReused() {
    int before = tokenReviews.get();
    assertThat(api.get(GPUS, "admin-c0ffee01").statusCode()).isEqualTo(200);
    assertThat(api.get("/api/v1/layout", "admin-c0ffee01").statusCode()).isEqualTo(200);
    // past authentication, the body itself is what is refused
    assertThat(api.put("/api/v1/layout?dryRun=true", "admin-c0ffee01", "{}").statusCode())
        .isIn(400, 422);
    assertThat(tokenReviews.get() - before)
        .as("one TokenReview for three calls with one token")
        .isEqualTo(1);
  }

  @Test
  void theMetricsNeedGetOnTheNodesMetricsWhileTheProbesNeedNoToken() {
    String metrics = "/actuator/prometheus";
    assertProblem(api.get(metrics, null), 401, metrics);
    assertThat(assertProblem(api.get(metrics, "admin-c0ffee01"), 403, metrics))
        .contains("admin")
        .contains("get nodes/" + NODE + "/metrics");
    assertThat(api.get(metrics, "scraper-5c4a9e").body()).contains("migd_gpu_info");
    assertProblem(api.get("/actuator/health", null), 401, "/actuator/health");
    assertProblem(api.get(GPUS, "scraper-5c4a9e"), 403, GPUS);
    assertThat(api.get("/actuator/health/liveness", null).statusCode()).isEqualTo(200);
    assertThat(api.get("/actuator/health/readiness", null).statusCode()).isEqualTo(200);
  }

  @Test
  void anApiServerThatFailsIs503LoggedOncePerOutage() {
    for (String token : List.of("flaky-1a2b3c", "flaky-1a2b3c", "flaky-4d5e6f")) {
      var response = api.get(GPUS, token);
      assertProblem(response, 503, GPUS);
      assertThat(response.headers().firstValue("Retry-After")).isPresent();
    }
    assertThat(api.get(GPUS, "admin-5eed0002").statusCode()).isNotIn(401, 403, 503);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(daemon.stdout())
                    .contains("the API server answers access reviews again"));
    assertThat(Pattern.compile("cannot check REST callers").matcher(daemon.stdout()).results())
        .hasSize(1);
    assertThat(daemon.stdout() + daemon.stderr())
        .doesNotContain("flaky-1a2b3c")
        .doesNotContain("admin-5eed0002")
        .doesNotContain("admin-c0ffee01")
        .doesNotContain("reader-77a0b3");
  }

  /** The mock API server's TokenReview: the user is the token's prefix. */
  private static Object tokenReview(RecordedRequest request) {
    TokenReview review = Serialization.unmarshal(body(request), TokenReview.class);
    String token = review.getSpec().getToken();
    if (token.startsWith("flaky-")) {
      return new StatusBuilder().withCode(500).withMessage("etcd is away").build();
    }
    if (token.startsWith("admin-")) {
      tokenReviews.incrementAndGet();
    }
    String user =
        List.of("admin", "reader", "scraper").stream()
            .filter(name -> token.startsWith(name + "-"))
            .findFirst()
            .orElse(null);
    return new TokenReviewBuilder(review)
        .withNewStatus()
        .withAuthenticated(user != null)
        .withNewUser()
        .withUsername(user)
        .withGroups("system:authenticated")
        .endUser()
        .endStatus()
        .build();
  }

  /** The request's body; read without consuming it, as the status and the body both need it. */
  private static String body(RecordedRequest request) {
    return new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
  }

  private static String token(RecordedRequest request) {
    return Serialization.unmarshal(body(request), TokenReview.class).getSpec().getToken();
  }

  /**
   * Only admin may update nodes/gpu-7 of the core group, only scraper may get its metrics
   * subresource.
   */
  private static Object subjectAccessReview(RecordedRequest request) {
    SubjectAccessReview review = Serialization.unmarshal(body(request), SubjectAccessReview.class);
    var spec = review.getSpec();
    var attributes = spec.getResourceAttributes();
    String subresource = Objects.requireNonNullElse(attributes.getSubresource(), "");
    boolean onTheNode =
        spec.getGroups().contains("system:authenticated")
            && "".equals(attributes.getGroup())
            && "nodes".equals(attributes.getResource())
            && NODE.equals(attributes.getName());
    boolean allowed =
        onTheNode
            && ("admin".equals(spec.getUser())
                    && "update".equals(attributes.getVerb())
                    && subresource.isEmpty()
                || "scraper".equals(spec.getUser())
                    && "get".equals(attributes.getVerb())
                    && subresource.equals("metrics"));
    return new SubjectAccessReviewBuilder(review)
        .withNewStatus()
        .withAllowed(allowed)
        .withReason(allowed ? "RBAC: allowed" : "RBAC: no rule allows it")
        .endStatus()
        .build();
  }

  /** A mock answer: status and body computed from the request. */
  record Answer(ToIntFunction<RecordedRequest> status, Function<RecordedRequest, Object> body)
      implements ResponseProvider<Object> {
    Answer(Function<RecordedRequest, Object> body) {
      this(request -> 200, body);
    }

    @Override
    public Object getBody(RecordedRequest request) {
      return body.apply(request);
    }

    @Override
    public int getStatusCode(RecordedRequest request) {
      return status.applyAsInt(request);
    }

    @Override
    public Headers getHeaders() {
      return Headers.builder().build();
    }

    @Override
    public void setHeaders(Headers headers) {}
  }
}
