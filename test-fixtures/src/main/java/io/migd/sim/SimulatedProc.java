package io.migd.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@code /proc} tree of a simulated node, the parts migd reads in DRA mode: {@code devices} (the
 * character-device majors, {@code nvidia-caps} among them), the MIG capability files of NVIDIA's
 * driver ({@code driver/nvidia/capabilities/gpu<minor>/mig/gi<gi>/access} and {@code
 * .../gi<gi>/ci<ci>/access}, for every GPU-instance and compute-instance id the GPU can have), and
 * {@code sys/kernel/random/boot_id}. Written under a directory a test gives, which stands for
 * {@code /proc} ({@code migd.dra.proc-root}).
 *
 * <p>Capability minors follow the driver's numbering, so they are distinct per file and the same on
 * every run: {@code mig/config} 1, {@code mig/monitor} 2, then a block of 135 per GPU minor (15
 * GPU-instance ids, each followed by its 8 compute-instance ids): GPU instance {@code gi} of GPU
 * minor {@code m} is {@code 3 + 135 m + 9 gi}, its compute instance {@code ci} that plus {@code 1 +
 * ci} (GPU 0's GI 1 is {@code nvidia-cap12}, its CI 0 {@code nvidia-cap13}).
 */
public final class SimulatedProc {
  /** Major of {@code nvidia-frontend} ({@code /dev/nvidia<minor>}, {@code /dev/nvidiactl}). */
  public static final int NVIDIA_FRONTEND_MAJOR = 195;

  /** Major of {@code nvidia-caps} ({@code /dev/nvidia-caps/nvidia-cap<N>}). */
  public static final int NVIDIA_CAPS_MAJOR = 237;

  /** Major of {@code nvidia-uvm}. */
  public static final int NVIDIA_UVM_MAJOR = 511;

  /** {@code DeviceFileMode} of an access file: 0444, as the driver writes it. */
  public static final int ACCESS_FILE_MODE = 292;

  /** The boot id a new tree starts with. */
  public static final String DEFAULT_BOOT_ID = "5f8a0c2e-9d4b-4e61-8a37-1c2b3d4e5f60";

  private static final int GI_IDS_PER_GPU = 15;
  private static final int CI_IDS_PER_GI = 8;

  // nvidia-caps-imex-channels comes first, as on real nodes, so a reader that matches the name by
  // prefix takes the wrong major.
  private static final String DEVICES =
      """
      Character devices:
        1 mem
        4 /dev/vc/0
        4 tty
        5 /dev/tty
        5 /dev/console
       10 misc
      195 nvidia-frontend
      234 nvidia-caps-imex-channels
      237 nvidia-caps
      244 nvidia-nvswitch
      511 nvidia-uvm

      Block devices:
        7 loop
        8 sd
      259 blkext
      """;

  /**
   * One GPU of the tree.
   *
   * @param minor its device minor number ({@code gpu<minor>})
   * @param memorySlices its memory slices (8, or 4 on A30); 0 without MIG (no {@code mig} folder)
   * @param computeSlices its compute slices (7, or 4 on A30); 0 without MIG
   */
  public record Gpu(int minor, int memorySlices, int computeSlices) {
    /** Validates the numbers. */
    public Gpu {
      if (minor < 0 || minor > 254 || memorySlices < 0 || computeSlices < 0) {
        throw new IllegalArgumentException(
            "GPU minor " + minor + " with " + memorySlices + " memory slices is not valid");
      }
    }

    /**
     * The GPU-instance ids the driver can give: one per buddy partition of the memory slices (15
     * for 8 slices, 7 for 4).
     */
    public int gpuInstanceIds() {
      return memorySlices == 0 ? 0 : 2 * memorySlices - 1;
    }
  }

  private final Path root;

  private SimulatedProc(Path root) {
    this.root = root;
  }

  /** Writes the tree for these GPUs under {@code root} (created when missing). */
  public static SimulatedProc write(Path root, List<Gpu> gpus) {
    var proc = new SimulatedProc(root);
    try {
      Files.createDirectories(root);
      Files.writeString(root.resolve("devices"), DEVICES);
      Path caps = root.resolve("driver/nvidia/capabilities");
      writeAccess(caps.resolve("mig/config"), 1, 256);
      writeAccess(caps.resolve("mig/monitor"), 2, ACCESS_FILE_MODE);
      for (Gpu gpu : gpus) {
        Path mig = caps.resolve("gpu" + gpu.minor()).resolve("mig");
        for (int gi = 0; gi < gpu.gpuInstanceIds(); gi++) {
          Path giDir = mig.resolve("gi" + gi);
          writeAccess(giDir.resolve("access"), gpuInstanceMinor(gpu.minor(), gi), ACCESS_FILE_MODE);
          for (int ci = 0; ci < gpu.computeSlices(); ci++) {
            writeAccess(
                giDir.resolve("ci" + ci).resolve("access"),
                computeInstanceMinor(gpu.minor(), gi, ci),
                ACCESS_FILE_MODE);
          }
        }
      }
      proc.bootId(DEFAULT_BOOT_ID);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a simulated /proc under " + root, e);
    }
    return proc;
  }

  private static void writeAccess(Path file, int minor, int mode) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "DeviceFileMinor: " + minor + "\nDeviceFileMode: " + mode + "\nDeviceFileModify: 1\n");
  }

  /** The {@code nvidia-cap} minor of a GPU instance's access file. */
  public static int gpuInstanceMinor(int gpuMinor, int gpuInstanceId) {
    return 3
        + GI_IDS_PER_GPU * (1 + CI_IDS_PER_GI) * gpuMinor
        + (1 + CI_IDS_PER_GI) * gpuInstanceId;
  }

  /** The {@code nvidia-cap} minor of a compute instance's access file. */
  public static int computeInstanceMinor(int gpuMinor, int gpuInstanceId, int computeInstanceId) {
    return gpuInstanceMinor(gpuMinor, gpuInstanceId) + 1 + computeInstanceId;
  }

  /** The directory that stands for {@code /proc}. */
  public Path root() {
    return root;
  }

  /** The access file of a GPU instance. */
  public Path gpuInstanceAccess(int gpuMinor, int gpuInstanceId) {
    return root.resolve(
        "driver/nvidia/capabilities/gpu" + gpuMinor + "/mig/gi" + gpuInstanceId + "/access");
  }

  /** The access file of a compute instance. */
  public Path computeInstanceAccess(int gpuMinor, int gpuInstanceId, int computeInstanceId) {
    return gpuInstanceAccess(gpuMinor, gpuInstanceId)
        .resolveSibling("ci" + computeInstanceId)
        .resolve("access");
  }

  /** Replaces the boot id, as a reboot would. */
  public void bootId(String id) {
    Path file = root.resolve("sys/kernel/random/boot_id");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, id + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file, e);
    }
  }
}
