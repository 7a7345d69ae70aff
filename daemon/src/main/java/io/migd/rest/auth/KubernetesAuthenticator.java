package io.migd.rest.auth;

import io.migd.node.AccessReviews;
import io.migd.node.AccessReviews.Access;
import io.migd.node.AccessReviews.Review;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kubernetes} mode: TokenReview, then SubjectAccessReview for {@link Access}. An answer is
 * reused for {@code ttl}, keyed by the token's SHA-256 (the token itself is not kept), so a busy
 * client costs the API server two requests per {@code ttl}. An API server that does not answer
 * makes the call 503, logged once per outage.
 */
final class KubernetesAuthenticator implements Authenticator {
  private static final Logger log = LoggerFactory.getLogger(KubernetesAuthenticator.class);

  /** Past this many cached answers the cache starts over, so random tokens cannot grow it. */
  private static final int MAX_CACHED = 1024;

  private final AccessReviews reviews;
  private final Access access;
  private final Duration ttl;
  private final Clock clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();
  private final AtomicBoolean apiServerDown = new AtomicBoolean();

  private record Cached(Verdict verdict, Instant until) {}

  KubernetesAuthenticator(AccessReviews reviews, Access access, Duration ttl, Clock clock) {
    this.reviews = reviews;
    this.access = access;
    this.ttl = ttl;
    this.clock = clock;
  }

  @Override
  public Verdict check(String token) {
    String key = sha256(token);
    Instant now = clock.instant();
    Cached cached = cache.get(key);
    if (cached != null && now.isBefore(cached.until())) {
      return cached.verdict();
    }
    Verdict verdict;
    try {
      verdict =
          switch (reviews.review(token, access)) {
            case Review.Allowed _ -> new Verdict.Allowed();
            case Review.Denied(var user, var reason) -> {
              log.info("REST call refused user={} access=\"{}\"", user, access);
              yield new Verdict.Forbidden(reason);
            }
            case Review.Unauthenticated(var reason) ->
                new Verdict.Unauthenticated("the API server did not accept the token: " + reason);
          };
    } catch (AccessReviews.UnavailableException e) {
      if (apiServerDown.compareAndSet(false, true)) {
        log.warn(
            "cannot check REST callers: {}; REST calls answer 503 until the API server answers",
            e.getMessage());
      }
      return new Verdict.Unavailable(
          "the Kubernetes API server did not answer the access review; try again later");
    }
    if (apiServerDown.compareAndSet(true, false)) {
      log.info("the API server answers access reviews again");
    }
    if (cache.size() >= MAX_CACHED) {
      cache.clear();
    }
    cache.put(key, new Cached(verdict, now.plus(ttl)));
    return verdict;
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
