package io.migd.rest;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The container's error page ({@code /error}): what fails outside a controller (a filter, the
 * server itself) is answered as a problem detail too, never a stack trace or an HTML page.
 */
@RestController
class ProblemErrorController implements ErrorController {
  private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

  @RequestMapping("/error")
  ResponseEntity<Object> error(HttpServletRequest request) {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    Object path = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
    Object cause = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
    HttpStatusCode status =
        code instanceof Integer value
            ? HttpStatusCode.valueOf(value)
            : HttpStatus.INTERNAL_SERVER_ERROR;
    if (cause instanceof Throwable thrown) {
      log.error("request failed outside a controller path={} error=\"{}\"", path, thrown, thrown);
    }
    String detail =
        status.value() == HttpStatus.NOT_FOUND.value()
            ? "no such resource"
            : status.is5xxServerError()
                ? "migd failed to serve this request; its log says why"
                : "the request was refused";
    return ResponseEntity.status(status)
        .body(ProblemHandler.problem(status, detail, path instanceof String p ? p : "/error"));
  }
}
