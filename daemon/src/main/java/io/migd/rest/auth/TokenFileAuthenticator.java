package io.migd.rest.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code token} mode: the one token held in {@code migd.auth.token-file}. Surrounding whitespace is
 * dropped, as a Secret mounted from {@code echo token > file} ends in a newline. The file is read
 * at start (a missing or empty one refuses the start) and again at each {@link #reload()} (every
 * {@code migd.auth.token-file-poll}), so a rotated Secret takes effect without a restart: the old
 * token stops working then. A new file that is empty or cannot be read keeps the old token, said
 * once in the log until the file changes again.
 */
final class TokenFileAuthenticator implements Authenticator {
  private static final Logger log = LoggerFactory.getLogger(TokenFileAuthenticator.class);

  private final Path file;
  private volatile byte[] expected;
  // what the last reload said of a file it could not use; only the polling thread writes it
  private String lastProblem = "";

  private TokenFileAuthenticator(Path file, byte[] expected) {
    this.file = file;
    this.expected = expected;
  }

  /** Reads the token; a file that is unset, unreadable or empty refuses the start. */
  static TokenFileAuthenticator read(String tokenFile) {
    if (tokenFile.isBlank()) {
      throw new AuthRefusedException(
          "migd.auth.mode=token needs migd.auth.token-file: the file holding the API token");
    }
    Path file = Path.of(tokenFile);
    return switch (readToken(file)) {
      case Read.Token(var token) -> new TokenFileAuthenticator(file, token);
      case Read.Problem(var problem) -> throw new AuthRefusedException(problem);
    };
  }

  /**
   * Reads the file again; a new token replaces the old one, and a file that cannot be used keeps
   * it. Returns whether the token changed.
   */
  boolean reload() {
    switch (readToken(file)) {
      case Read.Token(var token) -> {
        lastProblem = "";
        if (Arrays.equals(token, expected)) {
          return false;
        }
        expected = token;
        log.info("migd.auth.token-file {} holds a new token: the old one no longer works", file);
        return true;
      }
      case Read.Problem(var problem) -> {
        if (!problem.equals(lastProblem)) {
          log.warn("{}; the token read before stays in force", problem);
          lastProblem = problem;
        }
        return false;
      }
    }
  }

  @Override
  public Verdict check(String token) {
    // MessageDigest.isEqual takes the same time wherever the first difference is
    return MessageDigest.isEqual(expected, token.getBytes(StandardCharsets.UTF_8))
        ? new Verdict.Allowed()
        : new Verdict.Unauthenticated("the bearer token is not the one migd was given");
  }

  private sealed interface Read {
    record Token(byte[] token) implements Read {}

    record Problem(String sentence) implements Read {}
  }

  private static Read readToken(Path file) {
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return new Read.Problem("migd.auth.token-file " + file + " cannot be read (" + e + ")");
    }
    if (token.isEmpty()) {
      return new Read.Problem(
          "migd.auth.token-file " + file + " is empty; write the API token into it");
    }
    return new Read.Token(Objects.requireNonNull(token).getBytes(StandardCharsets.UTF_8));
  }
}
