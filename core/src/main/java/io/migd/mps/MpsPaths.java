package io.migd.mps;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where each MPS control daemon lives, under {@code migd.mps.root} (the same path on the host and
 * in migd's and the {@code -mps} DaemonSet's containers): {@code <root>/<uuid>/daemon.json} (migd's
 * request), {@code <root>/<uuid>/state} (the supervisor's answer), the daemon's {@code pipe} and
 * {@code log} directories, and {@code shm}, the daemon's own tmpfs that is its {@code /dev/shm} and
 * its clients'.
 *
 * @param root {@code migd.mps.root}
 */
public record MpsPaths(Path root) {
  /** The default root, as NVIDIA's device plugin uses it. */
  public static final Path DEFAULT_ROOT = Path.of("/run/nvidia/mps");

  /**
   * Where a client container gets the daemon's pipe directory: MPS's default, so a client that
   * unsets {@code CUDA_MPS_PIPE_DIRECTORY} still reaches its daemon and never leaves MPS.
   */
  public static final Path CLIENT_PIPE_DIRECTORY = Path.of("/tmp/nvidia-mps");

  /** Checks the root is present. */
  public MpsPaths {
    Objects.requireNonNull(root);
  }

  /** The directory of the daemon of {@code uuid}. */
  public Path directory(String uuid) {
    return root.resolve(uuid);
  }

  /** The pipe directory of the daemon of {@code uuid} ({@code CUDA_MPS_PIPE_DIRECTORY}). */
  public Path pipeDirectory(String uuid) {
    return directory(uuid).resolve("pipe");
  }

  /** The log directory of the daemon of {@code uuid} ({@code CUDA_MPS_LOG_DIRECTORY}). */
  public Path logDirectory(String uuid) {
    return directory(uuid).resolve("log");
  }

  /** migd's request for the daemon of {@code uuid}; removed to stop it. */
  public Path daemonFile(String uuid) {
    return directory(uuid).resolve("daemon.json");
  }

  /** The supervisor's account of the daemon of {@code uuid}. */
  public Path stateFile(String uuid) {
    return directory(uuid).resolve("state");
  }

  /**
   * The tmpfs the supervisor mounts for the daemon of {@code uuid}: its {@code /dev/shm}, and the
   * host directory mounted at {@code /dev/shm} in the containers of its replicas.
   */
  public Path sharedMemory(String uuid) {
    return directory(uuid).resolve("shm");
  }
}
