package io.migd.rest;

import io.migd.nvml.NvmlException;
import io.migd.reconcile.ResetInProgressException;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of a controller as an RFC 9457 problem detail ({@code application/problem+json} with
 * type, title, status, detail and instance): migd's own answers, Spring MVC's (404, 405, 415, a bad
 * query parameter), and anything unexpected, which is logged here and answered 500 without a stack
 * trace.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {
  private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
  private static final String RETRY_AFTER_SECONDS = "5";

  @ExceptionHandler(RestProblem.class)
  ResponseEntity<Object> problem(RestProblem e, HttpServletRequest request) {
    log.info(
        "request refused method={} path={} status={} detail=\"{}\"",
        request.getMethod(),
        request.getRequestURI(),
        e.status().value(),
        e.getMessage());
    return answer(e.status(), e.getMessage(), request);
  }

  @ExceptionHandler(NvmlException.class)
  ResponseEntity<Object> nvml(NvmlException e, HttpServletRequest request) {
    log.warn(
        "NVML failed serving method={} path={} error=\"{}\"",
        request.getMethod(),
        request.getRequestURI(),
        e.getMessage());
    return answer(HttpStatus.SERVICE_UNAVAILABLE, "NVML failed: " + e.getMessage(), request);
  }

  /** A reset holds NVML: busy, not broken; the detail names the reset. */
  @ExceptionHandler(ResetInProgressException.class)
  ResponseEntity<Object> resetInProgress(ResetInProgressException e, HttpServletRequest request) {
    log.info(
        "request answered busy method={} path={} detail=\"{}\"",
        request.getMethod(),
        request.getRequestURI(),
        e.getMessage());
    return answer(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage(), request);
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<Object> unexpected(Exception e, HttpServletRequest request) {
    log.error(
        "request failed method={} path={} error=\"{}\"",
        request.getMethod(),
        request.getRequestURI(),
        e.toString(),
        e);
    return answer(
        HttpStatus.INTERNAL_SERVER_ERROR,
        "migd failed to serve this request; its log says why",
        request);
  }

  /** Spring MVC's own problems, in the same five fields as migd's, keeping their headers. */
  @Override
  protected ResponseEntity<Object> handleExceptionInternal(
      Exception ex, Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String path =
        request instanceof ServletWebRequest servlet ? servlet.getRequest().getRequestURI() : "/";
    String detail = "the request was refused";
    if (body instanceof ProblemDetail problem && problem.getDetail() != null) {
      detail = problem.getDetail();
    } else if (ex instanceof ErrorResponse error && error.getBody().getDetail() != null) {
      detail = error.getBody().getDetail();
    }
    log.info("request refused path={} status={} detail=\"{}\"", path, status.value(), detail);
    return new ResponseEntity<>(problem(status, detail, path), headers, status);
  }

  /** The problem as the answer; a {@code 503} says when to try again ({@code Retry-After}). */
  static ResponseEntity<Object> answer(
      HttpStatusCode status, String detail, HttpServletRequest request) {
    var answer = ResponseEntity.status(status);
    if (status.value() == HttpStatus.SERVICE_UNAVAILABLE.value()) {
      answer.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    return answer.body(problem(status, detail, request.getRequestURI()));
  }

  static ProblemDetail problem(HttpStatusCode status, String detail, String path) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
    problem.setType(URI.create("about:blank"));
    if (status instanceof HttpStatus known) {
      problem.setTitle(known.getReasonPhrase());
    }
    problem.setInstance(safeUri(path));
    return problem;
  }

  private static URI safeUri(String path) {
    try {
      return URI.create(path == null ? "/" : path);
    } catch (IllegalArgumentException e) {
      return URI.create("/");
    }
  }
}
