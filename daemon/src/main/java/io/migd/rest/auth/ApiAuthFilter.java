package io.migd.rest.auth;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Authenticates every call under {@code /api/v1} and {@code /actuator} but the kubelet's probes
 * ({@link #PROBES}): the bearer token of the {@code Authorization} header goes to the API's or
 * actuator's {@link Authenticator}; a refusal is an RFC 9457 problem detail (401 with {@code
 * WWW-Authenticate: Bearer}, 403, or 503), never naming the token. With anonymous reads, a GET or
 * HEAD without a token goes through.
 */
final class ApiAuthFilter extends OncePerRequestFilter {
  private static final Logger log = LoggerFactory.getLogger(ApiAuthFilter.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String BEARER = "bearer ";

  /** Where actuator answers; the paths the filter is registered on are this and the API's. */
  static final String ACTUATOR = "/actuator";

  /**
   * The health groups the kubelet probes without a token; they answer only UP or DOWN. Compared
   * with the raw request URI, so no other spelling of a path skips the check.
   */
  static final Set<String> PROBES =
      Set.of(ACTUATOR + "/health/liveness", ACTUATOR + "/health/readiness");

  private final Authenticator api;
  private final Authenticator actuator;
  private final boolean anonymousRead;
  private final AutoCloseable onDestroy;

  /**
   * A filter that checks API calls with {@code api} and actuator's with {@code actuator}, and
   * closes {@code onDestroy} (what keeps the authenticators current) with it.
   */
  ApiAuthFilter(
      Authenticator api, Authenticator actuator, boolean anonymousRead, AutoCloseable onDestroy) {
    this.api = api;
    this.actuator = actuator;
    this.anonymousRead = anonymousRead;
    this.onDestroy = onDestroy;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return PROBES.contains(request.getRequestURI());
  }

  @Override
  public void destroy() {
    try {
      onDestroy.close();
    } catch (Exception e) {
      log.warn("stopping what keeps the REST API's authenticator current failed", e);
    }
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String token = bearerToken(request.getHeader(HttpHeaders.AUTHORIZATION));
    Verdict verdict;
    if (token == null) {
      verdict =
          anonymousRead && isRead(request.getMethod())
              ? new Verdict.Allowed()
              : new Verdict.Unauthenticated(
                  "this call needs a bearer token: Authorization: Bearer TOKEN");
    } else {
      verdict = (isActuator(request.getRequestURI()) ? actuator : api).check(token);
    }
    switch (verdict) {
      case Verdict.Allowed _ -> chain.doFilter(request, response);
      case Verdict.Unauthenticated(var detail) -> {
        response.setHeader(
            HttpHeaders.WWW_AUTHENTICATE,
            token == null ? "Bearer" : "Bearer error=\"invalid_token\"");
        problem(request, response, HttpStatus.UNAUTHORIZED, detail);
      }
      case Verdict.Forbidden(var detail) ->
          problem(request, response, HttpStatus.FORBIDDEN, detail);
      case Verdict.Unavailable(var detail) -> {
        response.setHeader(HttpHeaders.RETRY_AFTER, "5");
        problem(request, response, HttpStatus.SERVICE_UNAVAILABLE, detail);
      }
    }
  }

  /** The token of {@code Authorization: Bearer TOKEN}; null when there is none. */
  private static String bearerToken(String authorization) {
    if (authorization == null || !authorization.toLowerCase(Locale.ROOT).startsWith(BEARER)) {
      return null;
    }
    String token = authorization.substring(BEARER.length()).strip();
    return token.isEmpty() ? null : token;
  }

  private static boolean isActuator(String uri) {
    return uri.equals(ACTUATOR) || uri.startsWith(ACTUATOR + "/");
  }

  private static boolean isRead(String method) {
    return method.equals("GET") || method.equals("HEAD");
  }

  private static void problem(
      HttpServletRequest request, HttpServletResponse response, HttpStatus status, String detail)
      throws IOException {
    var body = new LinkedHashMap<String, Object>();
    body.put("type", "about:blank");
    body.put("title", status.getReasonPhrase());
    body.put("status", status.value());
    body.put("detail", detail);
    body.put("instance", request.getRequestURI());
    log.debug(
        "REST call refused status={} method={} path={} detail=\"{}\"",
        status.value(),
        request.getMethod(),
        request.getRequestURI(),
        detail);
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setCharacterEncoding("UTF-8");
    JSON.writeValue(response.getOutputStream(), body);
  }
}
