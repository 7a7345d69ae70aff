package io.migd.rest.auth;

/** What the auth check decided about one REST call; each maps to one status code. */
sealed interface Verdict {
  /** Let the call through. */
  record Allowed() implements Verdict {}

  /** No token, or one nobody issued: 401. */
  record Unauthenticated(String detail) implements Verdict {}

  /** A known caller without the permission the call needs: 403. */
  record Forbidden(String detail) implements Verdict {}

  /** The check itself could not be made (the API server does not answer): 503. */
  record Unavailable(String detail) implements Verdict {}
}
