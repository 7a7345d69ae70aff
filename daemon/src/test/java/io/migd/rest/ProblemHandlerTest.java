package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockHttpServletRequest;

/** Every {@code 503} says when to try again; other refusals do not. */
class ProblemHandlerTest {
  private final ProblemHandler handler = new ProblemHandler();
  private final MockHttpServletRequest request =
      new MockHttpServletRequest("PUT", "/api/v1/layout");

  @Test
  void aLayoutBeforeTheFirstReconcileIsAnsweredWithRetryAfter() {
    var answer =
        handler.problem(
            new RestProblem(
                HttpStatus.SERVICE_UNAVAILABLE,
                "the first reconcile has not ended yet; try again in a moment"),
            request);

    assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
  }

  @Test
  void anNvmlFailureIsAnsweredWithRetryAfter() {
    var answer =
        handler.nvml(
            new io.migd.nvml.NvmlException(
                "nvmlDeviceGetCount_v2", io.migd.nvml.NvmlReturn.UNKNOWN, "listing the GPUs"),
            request);

    assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
  }

  @Test
  void aRefusalThatRetryingDoesNotCureHasNoRetryAfter() {
    var answer = handler.problem(RestProblem.badRequest("the body is not JSON"), request);

    assertThat(answer.getHeaders().containsHeader(HttpHeaders.RETRY_AFTER)).isFalse();
  }
}
