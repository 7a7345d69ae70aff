package io.migd.sharing;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a device's sharing adds to the CDI device of every container that references it: the MPS
 * pipe directory and the daemon's shm, and the variable that names the pipe.
 */
public record ClientEdits(Map<String, String> env, List<Mount> mounts) {
  /** Nothing added. */
  public static final ClientEdits NONE = new ClientEdits(Map.of(), List.of());

  /** Copies both, the variables sorted. */
  public ClientEdits {
    env = new TreeMap<>(env);
    mounts = List.copyOf(mounts);
  }

  /** A bind mount of a host path into the container. */
  public record Mount(Path hostPath, Path containerPath) {
    /** Checks both paths are there. */
    public Mount {
      Objects.requireNonNull(hostPath);
      Objects.requireNonNull(containerPath);
    }
  }
}
