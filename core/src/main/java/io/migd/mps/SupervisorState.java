package io.migd.mps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What the MPS supervisor says of one daemon in {@code <root>/<uuid>/state}: one line, {@code
 * running <pid>}, {@code starting}, {@code exited <status>}, {@code failed <why>} or {@code
 * stopped}.
 */
sealed interface SupervisorState {
  /** The daemon runs as {@code pid}. */
  record Running(long pid) implements SupervisorState {}

  /** Anything else the supervisor wrote, as written; or no file yet. */
  record NotRunning(String said) implements SupervisorState {}

  /** Reads {@code file}; a missing or unreadable file is {@link NotRunning}. */
  static SupervisorState read(Path file) {
    String line;
    try {
      line = Files.readString(file).strip();
    } catch (NoSuchFileException e) {
      return new NotRunning("no state yet (is the -mps DaemonSet running on this node?)");
    } catch (IOException e) {
      return new NotRunning("unreadable: " + e);
    }
    if (line.matches("running [0-9]{1,18}")) {
      return new Running(Long.parseLong(line.substring("running ".length())));
    }
    return new NotRunning(line);
  }
}
