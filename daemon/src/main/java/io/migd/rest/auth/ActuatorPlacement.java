package io.migd.rest.auth;

import java.util.Objects;
import org.springframework.core.env.PropertyResolver;

/**
 * Actuator must answer where the REST API does, at {@code /actuator}: then it is bound to the API's
 * address and its filter authenticates it as {@code migd.auth.mode} says. A management server of
 * its own ({@code management.server.port}) would get neither, and another base path would escape
 * the filter, so both refuse the start.
 */
final class ActuatorPlacement {
  private ActuatorPlacement() {}

  /**
   * @throws AuthRefusedException when actuator would answer on another port or path than the one
   *     the auth filter covers
   */
  static void require(PropertyResolver environment) {
    String port = environment.getProperty("management.server.port", "").strip();
    String serverPort = environment.getProperty("server.port", "8080").strip();
    if (!port.isEmpty() && !Objects.equals(port, serverPort)) {
      throw new AuthRefusedException(
          "management.server.port="
              + port
              + " would serve actuator (the metrics) apart from the REST API, neither bound nor"
              + " authenticated as migd.auth.mode binds and authenticates the API; unset it");
    }
    String basePath = environment.getProperty("management.endpoints.web.base-path", "").strip();
    if (!basePath.isEmpty() && !basePath.equals(ApiAuthFilter.ACTUATOR)) {
      throw new AuthRefusedException(
          "management.endpoints.web.base-path="
              + basePath
              + " moves actuator off "
              + ApiAuthFilter.ACTUATOR
              + ", where migd authenticates it; unset it");
    }
  }
}
