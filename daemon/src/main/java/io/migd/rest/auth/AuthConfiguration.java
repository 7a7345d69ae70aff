package io.migd.rest.auth;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.app.MigdProperties;
import io.migd.node.AccessReviews;
import jakarta.servlet.Filter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Puts the auth check of {@code migd.auth.*} in front of {@code /api/v1} and {@code /actuator} (but
 * the kubelet's probes); the OpenAPI document and the Swagger UI stay open. Settings that cannot
 * protect the API refuse the start ({@link AuthRefusedException}).
 */
@Configuration(proxyBeanMethods = false)
public class AuthConfiguration {
  private static final Logger log = LoggerFactory.getLogger(AuthConfiguration.class);

  /**
   * What actuator's callers (a scrape) need in {@code kubernetes} mode: {@code get} on the node's
   * {@code metrics} subresource, what the kubelet asks of whoever reads its own metrics.
   */
  private static final String METRICS_VERB = "get";

  private static final String METRICS_SUBRESOURCE = "metrics";

  @Bean
  FilterRegistrationBean<Filter> apiAuthFilter(
      MigdProperties properties, Environment environment, ObjectProvider<KubernetesClient> client) {
    ActuatorPlacement.require(environment);
    var auth = properties.auth();
    Filter filter =
        switch (auth.mode()) {
          case NONE -> {
            requireLoopback(environment.getProperty("server.address", ""));
            log.info("REST API auth mode=none: only this host can call it or actuator");
            yield (request, response, chain) -> chain.doFilter(request, response);
          }
          case TOKEN -> {
            var authenticator = TokenFileAuthenticator.read(auth.tokenFile());
            log.info(
                "REST API auth mode=token tokenFile={} anonymousRead={} reread every {} (actuator"
                    + " too, except the probes)",
                auth.tokenFile(),
                auth.anonymousRead(),
                auth.tokenFilePoll());
            var poll = new TokenFilePoll(authenticator, auth.tokenFilePoll());
            yield new ApiAuthFilter(authenticator, authenticator, auth.anonymousRead(), poll);
          }
          case KUBERNETES -> {
            String node = environment.getProperty("NODE_NAME", "").strip();
            if (node.isEmpty()) {
              throw new AuthRefusedException(
                  "migd.auth.mode=kubernetes needs NODE_NAME, the name of this node (the"
                      + " downward API's spec.nodeName); without it use migd.auth.mode=token");
            }
            var reviews = new AccessReviews(client.getObject());
            var access = new AccessReviews.Access(auth.verb(), auth.group(), auth.resource(), node);
            var metrics =
                new AccessReviews.Access(METRICS_VERB, "", "nodes", node, METRICS_SUBRESOURCE);
            log.info(
                "REST API auth mode=kubernetes access=\"{}\" actuator access=\"{}\""
                    + " anonymousRead={}",
                access,
                metrics,
                auth.anonymousRead());
            yield new ApiAuthFilter(
                new KubernetesAuthenticator(reviews, access, auth.cacheTtl(), Clock.systemUTC()),
                new KubernetesAuthenticator(reviews, metrics, auth.cacheTtl(), Clock.systemUTC()),
                auth.anonymousRead(),
                () -> {});
          }
        };
    var registration = new FilterRegistrationBean<>(filter);
    registration.setName("migdApiAuth");
    registration.addUrlPatterns("/api/v1/*", ApiAuthFilter.ACTUATOR + "/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 100);
    return registration;
  }

  /** {@code none} mode serves whoever reaches the port, so only this host may reach it. */
  private static void requireLoopback(String address) {
    String refusal =
        "migd.auth.mode=none serves the REST API without authentication, so server.address must"
            + " be a loopback address (127.0.0.1, ::1); it is "
            + (address.isBlank() ? "unset (every address)" : address)
            + ". Set migd.auth.mode=token or kubernetes to listen there";
    if (address.isBlank()) {
      throw new AuthRefusedException(refusal);
    }
    try {
      if (!InetAddress.getByName(address).isLoopbackAddress()) {
        throw new AuthRefusedException(refusal);
      }
    } catch (UnknownHostException e) {
      throw new AuthRefusedException(refusal);
    }
  }
}
