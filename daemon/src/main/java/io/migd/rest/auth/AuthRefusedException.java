package io.migd.rest.auth;

/**
 * The auth settings cannot protect the REST API (a token file that is missing or empty, {@code
 * kubernetes} mode off a node, {@code none} mode on a non-loopback address): {@code serve} refuses
 * to start, with this one line (exit 2).
 */
public final class AuthRefusedException extends RuntimeException {
  AuthRefusedException(String message) {
    super(message);
  }
}
