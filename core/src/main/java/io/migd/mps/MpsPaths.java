package io.migd.mps;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the MPS control daemon of each shared GPU or MIG slice keeps its pipes and logs, under
 * {@code migd.mps.root}: {@code <root>/<uuid>/pipe}, {@code <root>/<uuid>/log}, and the shared
 * memory directory {@code <root>/shm} that containers see as {@code /dev/shm}.
 *
 * @param root {@code migd.mps.root}
 */
public record MpsPaths(Path root) {
  /** The default root, as NVIDIA's device plugin uses it. */
  public static final Path DEFAULT_ROOT = Path.of("/run/nvidia/mps");

  /** The daemon writes its pid to this file in its pipe directory. */
  public static final String PID_FILE = "nvidia-cuda-mps-control.pid";

  /** Checks the root is present. */
  public MpsPaths {
    Objects.requireNonNull(root);
  }

  /** The pipe directory of the daemon of {@code uuid} ({@code CUDA_MPS_PIPE_DIRECTORY}). */
  public Path pipeDirectory(String uuid) {
    return root.resolve(uuid).resolve("pipe");
  }

  /** The log directory of the daemon of {@code uuid} ({@code CUDA_MPS_LOG_DIRECTORY}). */
  public Path logDirectory(String uuid) {
    return root.resolve(uuid).resolve("log");
  }

  /** The file holding the pid of the daemon of {@code uuid}. */
  public Path pidFile(String uuid) {
    return pipeDirectory(uuid).resolve(PID_FILE);
  }

  /** The host directory mounted at {@code /dev/shm} in containers of MPS replicas. */
  public Path sharedMemory() {
    return root.resolve("shm");
  }
}
