package io.migd.rest.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * {@code token} mode: the one token held in {@code migd.auth.token-file}, read once at start.
 * Surrounding whitespace is dropped, as a Secret mounted from {@code echo token > file} ends in a
 * newline.
 */
final class TokenFileAuthenticator implements Authenticator {
  private final byte[] expected;

  private TokenFileAuthenticator(byte[] expected) {
    this.expected = expected;
  }

  /** Reads the token; a file that is unset, unreadable or empty refuses the start. */
  static TokenFileAuthenticator read(String tokenFile) {
    if (tokenFile.isBlank()) {
      throw new AuthRefusedException(
          "migd.auth.mode=token needs migd.auth.token-file: the file holding the API token");
    }
    String token;
    try {
      token = Files.readString(Path.of(tokenFile), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new AuthRefusedException(
          "migd.auth.token-file " + tokenFile + " cannot be read (" + e + ")");
    }
    if (token.isEmpty()) {
      throw new AuthRefusedException(
          "migd.auth.token-file " + tokenFile + " is empty; write the API token into it");
    }
    return new TokenFileAuthenticator(token.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public Verdict check(String token) {
    // MessageDigest.isEqual takes the same time wherever the first difference is
    return MessageDigest.isEqual(expected, token.getBytes(StandardCharsets.UTF_8))
        ? new Verdict.Allowed()
        : new Verdict.Unauthenticated("the bearer token is not the one migd was given");
  }
}
