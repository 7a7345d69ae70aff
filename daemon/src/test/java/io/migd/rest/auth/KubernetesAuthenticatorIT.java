package io.migd.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.migd.node.AccessReviews;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The review cache of {@code kubernetes} mode against the fabric8 mock API server, on a clock the
 * test moves: an answer is reused for the TTL and asked again after it; a failed review is not
 * kept, so the first call after the outage asks again.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesAuthenticatorIT {
  private static final Duration TTL = Duration.ofSeconds(10);

  KubernetesMockServer server;
  KubernetesClient client;

  private final AtomicInteger tokenReviews = new AtomicInteger();
  private final AtomicBoolean apiServerDown = new AtomicBoolean();
  private final MovableClock clock = new MovableClock();
  private KubernetesClient noRetries;
  private KubernetesAuthenticator authenticator;

  @BeforeEach
  void setUp() {
    server
        .expect()
        .post()
        .withPath("/apis/authentication.k8s.io/v1/tokenreviews")
        .andReply(
            new KubernetesAuthIT.Answer(
                request -> apiServerDown.get() ? 500 : 200, this::tokenReview))
        .always();
    server
        .expect()
        .post()
        .withPath("/apis/authorization.k8s.io/v1/subjectaccessreviews")
        .andReply(new KubernetesAuthIT.Answer(KubernetesAuthenticatorIT::allowedForAdmin))
        .always();
    noRetries =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(client.getConfiguration())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
    authenticator =
        new KubernetesAuthenticator(
            new AccessReviews(noRetries),
            new AccessReviews.Access("update", "", "nodes", "gpu-7"),
            TTL,
            clock);
  }

  @AfterEach
  void closeClient() {
    noRetries.close();
  }

  @Test
  void reusesAnAnswerForTheTtlAndAsksAgainAfterIt() {
    assertThat(authenticator.check("admin-1")).isEqualTo(new Verdict.Allowed());
    clock.advance(TTL.minusSeconds(1));
    assertThat(authenticator.check("admin-1")).isEqualTo(new Verdict.Allowed());
    assertThat(authenticator.check("reader-1")).isInstanceOf(Verdict.Forbidden.class);
    assertThat(authenticator.check("reader-1")).isInstanceOf(Verdict.Forbidden.class);
    assertThat(tokenReviews).hasValue(2);

    clock.advance(Duration.ofSeconds(1));
    assertThat(authenticator.check("admin-1")).isEqualTo(new Verdict.Allowed());
    assertThat(tokenReviews).hasValue(3);
  }

  @Test
  void keepsNoAnswerFromAnOutage() {
    apiServerDown.set(true);
    assertThat(authenticator.check("admin-2")).isInstanceOf(Verdict.Unavailable.class);
    assertThat(authenticator.check("admin-2")).isInstanceOf(Verdict.Unavailable.class);

    apiServerDown.set(false);
    assertThat(authenticator.check("admin-2")).isEqualTo(new Verdict.Allowed());
    assertThat(authenticator.check("nobody-2")).isInstanceOf(Verdict.Unauthenticated.class);
  }

  private Object tokenReview(RecordedRequest request) {
    tokenReviews.incrementAndGet();
    if (apiServerDown.get()) {
      return new StatusBuilder().withCode(500).withMessage("etcd is away").build();
    }
    TokenReview review = Serialization.unmarshal(body(request), TokenReview.class);
    String token = review.getSpec().getToken();
    String user = token.startsWith("nobody-") ? null : token.substring(0, token.indexOf('-'));
    return new TokenReviewBuilder(review)
        .withNewStatus()
        .withAuthenticated(user != null)
        .withNewUser()
        .withUsername(user)
        .endUser()
        .endStatus()
        .build();
  }

  private static Object allowedForAdmin(RecordedRequest request) {
    SubjectAccessReview review = Serialization.unmarshal(body(request), SubjectAccessReview.class);
    return new SubjectAccessReviewBuilder(review)
        .withNewStatus()
        .withAllowed("admin".equals(review.getSpec().getUser()))
        .endStatus()
        .build();
  }

  private static String body(RecordedRequest request) {
    return new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
  }

  private static final class MovableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
