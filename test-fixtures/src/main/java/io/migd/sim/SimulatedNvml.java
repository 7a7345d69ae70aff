package io.migd.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * One loaded copy of the simulated {@code libnvidia-ml.so.1}, extracted from this jar into a
 * directory of its own, so that several copies in one process simulate several nodes with separate
 * state. {@link #control} drives the simulator as the {@code nvml-sim} command does (attach a
 * process, inject an XID, set faults) without starting a process.
 */
public final class SimulatedNvml {
  /** File name of the simulated library. */
  public static final String LIBRARY_NAME = "libnvidia-ml.so.1";

  /** File name of the command-line front. */
  public static final String CLI_NAME = "nvml-sim";

  /** The simulated MPS control command built beside the library (README.md, "Simulated MPS"). */
  public static final String MPS_CONTROL_NAME = "nvidia-cuda-mps-control";

  /**
   * The other programs built beside the library: a simulated MPS client, a stand-in {@code
   * nvidia-smi} for the compute mode, and a container's init (README.md, "Simulated MPS" and
   * "Containers").
   */
  public static final List<String> STAND_INS =
      List.of("mps-client", "nvidia-smi", "container-init");

  private static final int OUTPUT_CAPACITY = 1 << 20;

  private final Path libraryPath;
  private final Path cliPath;
  private final MethodHandle control;

  private SimulatedNvml(Path libraryPath, Path cliPath, MethodHandle control) {
    this.libraryPath = libraryPath;
    this.cliPath = cliPath;
    this.control = control;
  }

  /** The class-path folder that holds the library built for this machine. */
  public static String resourceFolder() {
    return "io/migd/sim/linux-" + System.getProperty("os.arch") + "/";
  }

  /**
   * Extracts the library and {@code nvml-sim} into a new directory under {@code parent} and loads
   * the library. The copy starts with no GPUs unless {@code NVML_SIM_GPUS} or {@code
   * NVML_SIM_STATE} say otherwise; call {@link #init} to choose them.
   */
  public static SimulatedNvml extract(Path parent) {
    try {
      Files.createDirectories(parent);
      Path dir = Files.createTempDirectory(parent, "nvml-sim-");
      Path library = copyResource(LIBRARY_NAME, dir);
      Path cli = copyResource(CLI_NAME, dir);
      Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path mps = copyResource(MPS_CONTROL_NAME, dir);
      Files.setPosixFilePermissions(mps, PosixFilePermissions.fromString("rwxr-xr-x"));
      for (String standIn : STAND_INS) {
        Files.setPosixFilePermissions(
            copyResource(standIn, dir), PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
      MethodHandle handle =
          Linker.nativeLinker()
              .downcallHandle(
                  lookup.findOrThrow("nvmlsim_control"),
                  FunctionDescriptor.of(
                      ValueLayout.JAVA_INT,
                      ValueLayout.JAVA_INT,
                      ValueLayout.ADDRESS,
                      ValueLayout.ADDRESS,
                      ValueLayout.JAVA_INT));
      return new SimulatedNvml(library, cli, handle);
    } catch (IOException e) {
      throw new UncheckedIOException("extracting the simulated NVML into " + parent, e);
    }
  }

  private static Path copyResource(String name, Path dir) throws IOException {
    String resource = resourceFolder() + name;
    try (InputStream in = SimulatedNvml.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "the simulated NVML is not built for this machine: "
                + resource
                + " is not on the class path (it is built with gcc by the test-fixtures module;"
                + " supported: linux-amd64, linux-aarch64)");
      }
      Path target = dir.resolve(name);
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      return target;
    }
  }

  /** Path of this copy of the library, to load with the NVML binding. */
  public Path libraryPath() {
    return libraryPath;
  }

  /** Path of the {@code nvml-sim} command beside it. */
  public Path cliPath() {
    return cliPath;
  }

  /** Path of the simulated {@code nvidia-cuda-mps-control} beside it. */
  public Path mpsControlPath() {
    return cliPath.resolveSibling(MPS_CONTROL_NAME);
  }

  /** Runs one simulator command (as {@code nvml-sim COMMAND ARGS...}) in this copy. */
  public ControlResult control(String... args) {
    return control(List.of(args));
  }

  /** Runs one simulator command (as {@code nvml-sim COMMAND ARGS...}) in this copy. */
  public ControlResult control(List<String> args) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment argv = arena.allocate(ValueLayout.ADDRESS, Math.max(1, args.size()));
      for (int i = 0; i < args.size(); i++) {
        argv.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(args.get(i)));
      }
      MemorySegment out = arena.allocate(OUTPUT_CAPACITY);
      int status = (int) control.invokeExact(args.size(), argv, out, OUTPUT_CAPACITY);
      return new ControlResult(status, out.getString(0, StandardCharsets.UTF_8).strip());
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("calling nvmlsim_control " + args, t);
    }
  }

  /** Runs a command and fails with the simulator's message unless it succeeded. */
  public String require(String... args) {
    ControlResult result = control(args);
    if (result.exitStatus() != 0) {
      throw new IllegalStateException(
          "nvml-sim "
              + String.join(" ", args)
              + " exited "
              + result.exitStatus()
              + ": "
              + result.output());
    }
    return result.output();
  }

  /**
   * Resets one GPU as a driver reset would ({@code reset --gpu N}): applies the pending MIG mode,
   * refused while anything runs on or holds the GPU.
   */
  public ControlResult resetGpu(int index) {
    return control("reset", "--gpu", Integer.toString(index));
  }

  /** (Re)creates the simulated GPUs, MIG disabled: {@code init --gpus MODELS}. */
  public void init(String models) {
    require("init", "--gpus", models);
  }

  @Override
  public String toString() {
    return "SimulatedNvml[" + libraryPath + "]";
  }
}
