package io.migd.rest.auth;

/** Decides whether a bearer token may call the REST API. */
@FunctionalInterface
interface Authenticator {
  /** The verdict for {@code token}, never blank; it must not appear in what is returned. */
  Verdict check(String token);
}
