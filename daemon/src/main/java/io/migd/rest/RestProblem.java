package io.migd.rest;

import org.springframework.http.HttpStatus;

/**
 * A request that cannot be served, with the status and one sentence that names what is wrong. The
 * problem handler answers it as an RFC 9457 problem detail; it carries no stack, since it is an
 * answer, not a bug.
 */
final class RestProblem extends RuntimeException {
  private final HttpStatus status;

  RestProblem(HttpStatus status, String detail) {
    super(detail, null, false, false);
    this.status = status;
  }

  HttpStatus status() {
    return status;
  }

  static RestProblem badRequest(String detail) {
    return new RestProblem(HttpStatus.BAD_REQUEST, detail);
  }

  static RestProblem unprocessable(String detail) {
    return new RestProblem(HttpStatus.UNPROCESSABLE_CONTENT, detail);
  }
}
