package io.migd.rest.auth;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class ActuatorPlacementTest {
  @Test
  void acceptsActuatorOnTheApisPortAndPath() {
    assertThatCode(() -> ActuatorPlacement.require(new MockEnvironment()))
        .doesNotThrowAnyException();
    assertThatCode(
            () ->
                ActuatorPlacement.require(
                    new MockEnvironment()
                        .withProperty("server.port", "9090")
                        .withProperty("management.server.port", "9090")
                        .withProperty("management.endpoints.web.base-path", "/actuator")))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesAManagementPortOfItsOwnNamingIt() {
    assertThatThrownBy(
            () ->
                ActuatorPlacement.require(
                    new MockEnvironment().withProperty("management.server.port", "9091")))
        .isInstanceOf(AuthRefusedException.class)
        .hasMessageStartingWith("management.server.port=9091 would serve actuator")
        .hasMessageNotContaining("\n");
  }

  @Test
  void refusesAnotherBasePathNamingIt() {
    assertThatThrownBy(
            () ->
                ActuatorPlacement.require(
                    new MockEnvironment()
                        .withProperty("management.endpoints.web.base-path", "/manage")))
        .isInstanceOf(AuthRefusedException.class)
        .hasMessageStartingWith("management.endpoints.web.base-path=/manage moves actuator off");
  }
}
