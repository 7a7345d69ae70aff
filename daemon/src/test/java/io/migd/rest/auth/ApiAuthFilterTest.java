package io.migd.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Which authenticator checks which path, and which paths the kubelet's probes reach untouched. */
class ApiAuthFilterTest {
  record Case(String uri, String checkedBy) {
    @Override
    public String toString() {
      return uri + " -> " + checkedBy;
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case("/actuator/health/liveness", "nobody"),
        new Case("/actuator/health/readiness", "nobody"),
        new Case("/actuator/health", "actuator"),
        new Case("/actuator/health/liveness/", "actuator"),
        new Case("/actuator/health/liveness;x=1", "actuator"),
        new Case("/actuator/health/reconcile", "actuator"),
        new Case("/actuator/prometheus", "actuator"),
        new Case("/actuator", "actuator"),
        new Case("/api/v1/gpus", "api"),
        new Case("/api/v1/actuator/health/liveness", "api"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void checksEachPathWithItsSurfacesAuthenticator(Case c) throws Exception {
    var checked = new ArrayList<String>();
    var filter =
        new ApiAuthFilter(
            token -> {
              checked.add("api");
              return new Verdict.Forbidden("no");
            },
            token -> {
              checked.add("actuator");
              return new Verdict.Forbidden("no");
            },
            false,
            () -> {});
    var request = new MockHttpServletRequest("GET", c.uri());
    request.addHeader("Authorization", "Bearer some-token");
    var response = new MockHttpServletResponse();
    var chain = new MockFilterChain();

    filter.doFilter(request, response, chain);

    if (c.checkedBy().equals("nobody")) {
      assertThat(checked).isEmpty();
      assertThat(chain.getRequest()).as("passed on").isNotNull();
    } else {
      assertThat(checked).containsExactly(c.checkedBy());
      assertThat(response.getStatus()).isEqualTo(403);
      assertThat(chain.getRequest()).as("passed on").isNull();
    }
  }
}
