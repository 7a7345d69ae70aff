package io.migd.cli;

import static org.assertj.core.api.Assertions.fail;

import io.migd.sim.NvidiaCtkStandIn;
import io.migd.sim.SimulatedNvml;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * migd run as a real child JVM (the test JVM's {@code java} and class path) on one simulated node:
 * a directory holding the simulator's state file ({@code NVML_SIM_STATE}), migd's state directory
 * ({@code MIGD_STATEDIR}) and the copies of the simulated NVML that migd extracts. A child process
 * is needed because the simulator's {@code KILL} fault kills the process that calls NVML, and
 * because the state lock is an {@code flock} that one JVM cannot contend with itself. Public so the
 * daemon ITs of {@code io.migd.app} start {@code migd serve} the same way.
 */
public final class MigdProcess {
  /** How long one command may take before the test gives up on it. */
  static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** Exit status of a process killed by SIGKILL, as {@link Process#exitValue()} reports it. */
  static final int KILLED = 128 + 9;

  private static final AtomicInteger RUNS = new AtomicInteger();

  private final Path nodeDir;
  private final Map<String, String> environment;
  private final boolean nativeAccess;

  private MigdProcess(Path nodeDir, Map<String, String> environment) {
    this(nodeDir, environment, true);
  }

  private MigdProcess(Path nodeDir, Map<String, String> environment, boolean nativeAccess) {
    this.nodeDir = nodeDir;
    this.environment = Map.copyOf(environment);
    this.nativeAccess = nativeAccess;
  }

  /**
   * The same node, run without {@code --enable-native-access}, as a jar without the manifest entry.
   */
  MigdProcess withoutNativeAccess() {
    return new MigdProcess(nodeDir, environment, false);
  }

  /** migd on the node whose files live in {@code nodeDir} (created if missing). */
  public static MigdProcess on(Path nodeDir) {
    try {
      Files.createDirectories(nodeDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new MigdProcess(
        nodeDir,
        Map.of(
            "NVML_SIM_STATE", nodeDir.resolve("state").toString(),
            "MIGD_STATEDIR", nodeDir.resolve("statedir").toString(),
            // the environment form, so every command of a test shares it without an option
            "MIGD_NVML_EXTRACTDIR", nodeDir.resolve("nvml").toString()));
  }

  /** The same node with one more environment variable for the child. */
  public MigdProcess withEnvironment(String name, String value) {
    var more = new HashMap<>(environment);
    more.put(name, value);
    return new MigdProcess(nodeDir, more, nativeAccess);
  }

  /**
   * The same node with CDI on as the chart runs it: the {@code nvidia-ctk} stand-in (it reads this
   * node's simulated GPUs), a driver root mounted at {@code <node>/driver-root}, a hook at {@code
   * <node>/nvidia-cdi-hook}, and the specs in {@code cdiDir}.
   */
  MigdProcess withCdi(Path cdiDir) {
    var sim = SimulatedNvml.extract(nodeDir.resolve("nvidia-ctk"));
    MigdProcess withCdi = this;
    for (var variable :
        NvidiaCtkStandIn.cdiEnvironment(sim.cliPath(), nodeDir, cdiDir).entrySet()) {
      withCdi = withCdi.withEnvironment(variable.getKey(), variable.getValue());
    }
    return withCdi;
  }

  /** The same node with migd's own log at WARN, so stderr holds only what a command reports. */
  MigdProcess quiet() {
    return withEnvironment("MIGD_LOG_LEVEL", "WARN");
  }

  /** The simulator's state file of this node. */
  public Path stateFile() {
    return nodeDir.resolve("state");
  }

  /** migd's state directory ({@code migd.state-dir}) of this node. */
  public Path stateDir() {
    return nodeDir.resolve("statedir");
  }

  /** Runs {@code migd ARGS...} to its end. */
  public Result run(String... args) {
    try (Running running = start(args)) {
      return running.await();
    }
  }

  /**
   * The command that runs migd in a child JVM as the image's entrypoint does ({@code java
   * --enable-native-access=ALL-UNNAMED ... io.migd.app.Migd}), on a snapshot of the test's class
   * path; the pod test puts it in its containers.
   */
  static List<String> javaCommand() {
    return List.of(
        java(),
        "--enable-native-access=ALL-UNNAMED",
        "-cp",
        ClassPathSnapshot.CLASS_PATH,
        "io.migd.app.Migd");
  }

  /** Starts {@code migd ARGS...}; stdout and stderr go to files of the node directory. */
  public Running start(String... args) {
    int run = RUNS.incrementAndGet();
    Path stdout = nodeDir.resolve("migd-" + run + ".out");
    Path stderr = nodeDir.resolve("migd-" + run + ".err");
    var command = new ArrayList<String>();
    command.add(java());
    command.addAll(ChildJvm.OPTIONS);
    if (nativeAccess) {
      command.add("--enable-native-access=ALL-UNNAMED");
      // the cache holds the module graph of native access: a JVM without it cannot map the cache
      command.addAll(AotCache.OPTIONS);
    }
    command.add("-cp");
    command.add(ClassPathSnapshot.CLASS_PATH);
    command.add("io.migd.app.Migd");
    command.addAll(List.of(args));
    var builder =
        new ProcessBuilder(command)
            .directory(nodeDir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(
            name ->
                name.startsWith("NVML_SIM_")
                    || name.startsWith("MIGD_")
                    || name.startsWith("SERVER_")
                    || name.startsWith("SPRING_")
                    // standalone unless a test names the node and its API server
                    || name.equals("NODE_NAME")
                    || name.equals("KUBECONFIG"));
    builder.environment().putAll(environment);
    try {
      return new Running(builder.start(), List.of(args), stdout, stderr);
    } catch (IOException e) {
      throw new UncheckedIOException("starting migd " + String.join(" ", args), e);
    }
  }

  /** The JVM options of every child: start-up time dominates each command. */
  private static final class ChildJvm {
    /** C1 only and the serial collector start fastest. */
    static final List<String> OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  }

  /**
   * A JDK AOT cache (JEP 483, {@code -XX:AOTCache}) of what a one-shot command loads and links,
   * made once per test JVM by one training run ({@code migd apply} on a simulated A100, {@code
   * -XX:AOTCacheOutput}): hundreds of children start from it, each about a fifth sooner. When the
   * training fails, children start without a cache, as they did before, and the reason is printed
   * once. The JVM's own messages about the cache are off, so a child's stdout and stderr hold only
   * what migd writes.
   */
  private static final class AotCache {
    static final List<String> OPTIONS = train();

    private static List<String> train() {
      Path dir = ClassPathSnapshot.DIRECTORY;
      Path cache = dir.resolve("migd.aot");
      Path node = dir.resolve("training-node");
      var command = new ArrayList<String>();
      command.add(java());
      command.add("--enable-native-access=ALL-UNNAMED");
      command.addAll(ChildJvm.OPTIONS);
      command.addAll(
          List.of(
              "-XX:AOTCacheOutput=" + cache,
              "-Xlog:aot*=off,cds*=off",
              "-cp",
              ClassPathSnapshot.CLASS_PATH,
              "io.migd.app.Migd",
              "apply",
              "--simulate=A100-SXM4-40GB",
              "-c",
              "all-balanced"));
      Path log = dir.resolve("aot-training.log");
      try {
        Files.createDirectories(node);
        var builder =
            new ProcessBuilder(command)
                .directory(node.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("MIGD_"));
        builder.environment().put("NVML_SIM_STATE", node.resolve("state").toString());
        builder.environment().put("MIGD_STATEDIR", node.resolve("statedir").toString());
        builder.environment().put("MIGD_NVML_EXTRACTDIR", node.resolve("nvml").toString());
        builder.environment().put("MIGD_LOG_LEVEL", "WARN");
        Process training = builder.start();
        if (!training.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
          training.destroyForcibly();
          return without("the training run did not end within " + TIMEOUT, log);
        }
        if (training.exitValue() != 0 || !Files.isRegularFile(cache)) {
          return without("the training run ended with status " + training.exitValue(), log);
        }
        return List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off,cds*=off");
      } catch (IOException e) {
        return without(e.toString(), log);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return without("interrupted", log);
      }
    }

    private static List<String> without(String why, Path log) {
      System.err.printf(
          "MigdProcess: children start without an AOT cache: %s; %s:%n%s%n",
          why, log, Running.read(log));
      return List.of();
    }
  }

  /** The test JVM's {@code java}. */
  private static String java() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /**
   * The test JVM's class path, with migd's own entries (the modules' class directories and jars)
   * copied once per test JVM: a build running beside the tests rewrites {@code target/classes} and
   * the installed migd jars, and a child started during that would miss classes.
   */
  private static final class ClassPathSnapshot {
    /** Where the copies (and the AOT cache) live; removed when the test JVM ends. */
    static final Path DIRECTORY = directory();

    static final String CLASS_PATH = snapshot();

    private static Path directory() {
      try {
        Path copies = Files.createTempDirectory("migd-it-classpath-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(copies)));
        return copies;
      } catch (IOException e) {
        throw new UncheckedIOException("creating the class path snapshot's directory", e);
      }
    }

    /**
     * The class path, migd's directories packed as jars: an AOT cache holds classes of jars only.
     */
    private static String snapshot() {
      try {
        var entries = new ArrayList<String>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
          Path path = Path.of(entry);
          boolean ours = Files.isDirectory(path) || entry.contains("/io/migd/");
          if (!ours || !Files.exists(path)) {
            entries.add(entry);
            continue;
          }
          Path copy = DIRECTORY.resolve(n++ + "-" + path.getFileName() + ".jar");
          if (Files.isDirectory(path)) {
            jar(path, copy);
          } else {
            Files.copy(path, copy, StandardCopyOption.REPLACE_EXISTING);
          }
          entries.add(copy.toString());
        }
        return String.join(File.pathSeparator, entries);
      } catch (IOException e) {
        throw new UncheckedIOException("copying the class path", e);
      }
    }

    /** Packs the files under {@code from} into the jar {@code to}, directories as entries too. */
    private static void jar(Path from, Path to) throws IOException {
      try (Stream<Path> files = Files.walk(from);
          var out = new JarOutputStream(Files.newOutputStream(to))) {
        for (Path file : (Iterable<Path>) files.sorted()::iterator) {
          if (file.equals(from)) {
            continue;
          }
          String name = from.relativize(file).toString().replace(File.separatorChar, '/');
          boolean directory = Files.isDirectory(file);
          out.putNextEntry(new JarEntry(directory ? name + "/" : name));
          if (!directory) {
            Files.copy(file, out);
          }
          out.closeEntry();
        }
      }
    }

    private static void delete(Path dir) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
      } catch (IOException e) {
        // a temp dir left behind is harmless
      }
    }
  }

  /** A started migd; closing it stops it (SIGTERM, then SIGKILL) and waits for its end. */
  public static final class Running implements AutoCloseable {
    private static final Pattern LISTENING =
        Pattern.compile("http listening address=\\S+ port=(\\d+)");
    private final Process process;
    private final List<String> args;
    private final Path stdout;
    private final Path stderr;

    private Running(Process process, List<String> args, Path stdout, Path stderr) {
      this.process = process;
      this.args = args;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    long pid() {
      return process.pid();
    }

    public boolean isAlive() {
      return process.isAlive();
    }

    public String stderr() {
      return read(stderr);
    }

    /** What it wrote to stdout so far ({@code serve} logs there). */
    public String stdout() {
      return read(stdout);
    }

    /**
     * The port {@code serve} answers HTTP on, once its web server listens: start it with {@code
     * SERVER_PORT=0} so the kernel picks a free port, never a number a test found free earlier (a
     * build beside it can take that number in between). Fails when the process ends first, or does
     * not listen within {@link #TIMEOUT}.
     */
    public int httpPort() {
      // Awaitility's: this class's own await() waits for the process end
      return Awaitility.await()
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(100))
          .failFast("migd " + args + " ended before it listened", () -> !process.isAlive())
          .until(this::httpPortIfListening, OptionalInt::isPresent)
          .getAsInt();
    }

    /**
     * The port {@code serve} answers HTTP on if its web server listens already, without waiting:
     * for a hook that runs while the process starts (the web server listens before the device
     * plugins register with the kubelet).
     */
    public OptionalInt httpPortIfListening() {
      Matcher m = LISTENING.matcher(read(stdout));
      return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }

    /** Waits for the end, at most {@link #TIMEOUT}. */
    Result await() {
      try {
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
          fail("migd %s did not end within %s; stderr:%n%s", args, TIMEOUT, read(stderr));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for migd " + args, e);
      }
      return new Result(args, process.exitValue(), read(stdout), read(stderr));
    }

    @Override
    public void close() {
      if (!process.isAlive()) {
        return;
      }
      process.destroy();
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }

    private static String read(Path file) {
      try {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** How a command ended; {@link #toString()} says everything, for assertion messages. */
  public record Result(List<String> args, int exitStatus, String stdout, String stderr) {
    @Override
    public String toString() {
      return "migd "
          + String.join(" ", args)
          + " exited "
          + exitStatus
          + "\n--- stdout\n"
          + stdout
          + "--- stderr\n"
          + stderr;
    }
  }
}
