package io.migd.node;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Asks the API server who holds a bearer token (TokenReview) and whether that user may do what a
 * call needs (SubjectAccessReview), the way the kubelet authorizes its own API. The token goes to
 * the API server only; nothing here logs it or puts it in a message.
 */
public final class AccessReviews {
  private final KubernetesClient client;

  public AccessReviews(KubernetesClient client) {
    this.client = Objects.requireNonNull(client);
  }

  /**
   * What a user must be allowed: {@code verb} on {@code resource} (of API group {@code group},
   * empty for the core group) named {@code name}, cluster-scoped, or on its {@code subresource}
   * when that is not empty (as the kubelet asks {@code get nodes/metrics} for its metrics).
   */
  public record Access(
      String verb, String group, String resource, String name, String subresource) {
    public Access {
      Objects.requireNonNull(verb);
      Objects.requireNonNull(group);
      Objects.requireNonNull(resource);
      Objects.requireNonNull(name);
      Objects.requireNonNull(subresource);
    }

    /** {@code verb} on the object itself. */
    public Access(String verb, String group, String resource, String name) {
      this(verb, group, resource, name, "");
    }

    @Override
    public String toString() {
      return verb
          + " "
          + (group.isEmpty() ? "" : group + "/")
          + resource
          + "/"
          + name
          + (subresource.isEmpty() ? "" : "/" + subresource);
    }
  }

  /** What the API server said about one token. */
  public sealed interface Review {
    /** The token is {@code user}'s, who may do the access. */
    record Allowed(String user) implements Review {}

    /** The token is {@code user}'s, who may not do the access. */
    record Denied(String user, String reason) implements Review {}

    /** The API server does not know the token (expired, revoked, never issued). */
    record Unauthenticated(String reason) implements Review {}
  }

  /** The API server did not answer a review (down, unreachable, or refused the review itself). */
  public static final class UnavailableException extends RuntimeException {
    UnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Reviews {@code token} for {@code access}.
   *
   * @throws UnavailableException when either review gets no answer
   */
  public Review review(String token, Access access) {
    TokenReview tokenReview;
    try {
      tokenReview =
          client
              .authentication()
              .v1()
              .tokenReviews()
              .create(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build());
    } catch (KubernetesClientException e) {
      throw new UnavailableException("TokenReview failed: " + describe(e), e);
    }
    var status = tokenReview.getStatus();
    if (status == null
        || !Boolean.TRUE.equals(status.getAuthenticated())
        || status.getUser() == null) {
      String error = status == null ? null : status.getError();
      return new Review.Unauthenticated(
          error == null || error.isBlank() ? "the token is not valid" : error);
    }
    UserInfo user = status.getUser();
    SubjectAccessReview answer;
    try {
      answer =
          client
              .authorization()
              .v1()
              .subjectAccessReview()
              .create(
                  new SubjectAccessReviewBuilder()
                      .withNewSpec()
                      .withUser(user.getUsername())
                      .withUid(user.getUid())
                      .withGroups(orEmpty(user.getGroups()))
                      .withExtra(orEmpty(user.getExtra()))
                      .withNewResourceAttributes()
                      .withVerb(access.verb())
                      .withGroup(access.group())
                      .withResource(access.resource())
                      .withName(access.name())
                      .withSubresource(access.subresource())
                      .endResourceAttributes()
                      .endSpec()
                      .build());
    } catch (KubernetesClientException e) {
      throw new UnavailableException("SubjectAccessReview failed: " + describe(e), e);
    }
    var decision = answer.getStatus();
    if (decision != null && Boolean.TRUE.equals(decision.getAllowed())) {
      return new Review.Allowed(user.getUsername());
    }
    String reason = decision == null ? null : decision.getReason();
    return new Review.Denied(
        user.getUsername(),
        "user "
            + user.getUsername()
            + " may not "
            + access
            + (reason == null || reason.isBlank() ? "" : ": " + reason));
  }

  private static String describe(KubernetesClientException e) {
    return e.getCode() > 0
        ? "HTTP " + e.getCode() + " " + Objects.requireNonNullElse(e.getMessage(), "")
        : Objects.requireNonNullElse(e.getMessage(), e.toString());
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }
}
