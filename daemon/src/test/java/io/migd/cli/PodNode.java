package io.migd.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A node as the pod test runs containers on it, as far as this machine allows: a fake host root (a
 * directory standing for the host's {@code /}), a mount namespace of the node in which that root is
 * a shared mount, and containers, each a mount namespace entered from the node's, with the
 * container's hostPath volumes bound from the fake root at their mount paths with the volume's
 * propagation ({@code None} private, {@code HostToContainer} slave, {@code Bidirectional} shared),
 * and its main process under {@code container-init} (test-fixtures). The machine's {@code /etc},
 * {@code /var/lib}, {@code /run} and {@code /tmp} are overlaid in each container, so mount points
 * are made there; one elsewhere ({@code /driver-root}) is made on the machine and removed when the
 * node closes.
 *
 * <p>What it does not model: a container shares the machine's network and PID namespace (the
 * chart's pods are {@code hostPID}; a container's death is the death of every process its {@code
 * container-init}, a child subreaper, has as descendant, as runc kills a container's cgroup), and
 * its image is the machine's file system with the test's class path and the repository's script
 * standing for the image's files. It needs root and {@code unshare}/{@code nsenter}.
 */
final class PodNode implements AutoCloseable {
  /** The machine directories each container overlays; the fake host lives outside them. */
  private static final List<String> OVERLAID = List.of("/etc", "/var/lib", "/run", "/tmp");

  /**
   * The container's setup: overlays, then each volume ({@code source target propagation ro|rw}),
   * then {@code --} and the command.
   */
  private static final String SETUP =
      """
      set -e
      work=$1; shift
      for d in %s; do
        mkdir -p "$work/overlay$d/upper" "$work/overlay$d/work"
        mount -t overlay overlay \
          -o "lowerdir=$d,upperdir=$work/overlay$d/upper,workdir=$work/overlay$d/work" "$d"
      done
      while [ "$1" != -- ]; do
        if [ -d "$1" ]; then mkdir -p "$2"; else mkdir -p "$(dirname "$2")"; touch "$2"; fi
        mount --rbind "$1" "$2"
        case $3 in
          Bidirectional) mount --make-rshared "$2" ;;
          HostToContainer) mount --make-rslave "$2" ;;
          *) mount --make-rprivate "$2" ;;
        esac
        if [ "$4" = ro ]; then mount -o remount,bind,ro "$2"; fi
        shift 4
      done
      shift
      exec "$@"
      """
          .formatted(String.join(" ", OVERLAID));

  /** A volume mount: a path of the fake host bound at a path of the container. */
  record Volume(Path source, String containerPath, String propagation, boolean readOnly) {}

  /** What to run: the command, its whole environment, its volumes, its grace period. */
  record Spec(
      List<String> command, Map<String, String> env, List<Volume> volumes, Duration grace) {}

  final Path host;
  private final Path work;
  private final Path initCommand;
  private final Process node;
  private int containers;

  /** Mount points a container made on the machine outside the overlaid directories. */
  private final Set<Path> madeOnTheMachine = new LinkedHashSet<>();

  private PodNode(Path host, Path work, Path initCommand, Process node) {
    this.host = host;
    this.work = work;
    this.initCommand = initCommand;
    this.node = node;
  }

  /** Why containers cannot run here, empty when they can. */
  static String unavailable() {
    try {
      Process p =
          new ProcessBuilder(
                  "unshare",
                  "-m",
                  "--propagation",
                  "private",
                  "sh",
                  "-c",
                  "mount -t tmpfs t /mnt && command -v nsenter")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0
          ? ""
          : "the pod test needs root, unshare -m and nsenter to run containers: " + out;
    } catch (IOException e) {
      return "the pod test needs unshare and nsenter (util-linux): " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /**
   * A node under {@code base} (outside the overlaid directories), its containers started by {@code
   * initCommand}.
   */
  static PodNode start(Path base, Path initCommand) throws IOException {
    Path host = Files.createDirectories(base.resolve("host"));
    Path work = Files.createDirectories(base.resolve("containers"));
    // /var/run is /run on the hosts the chart runs on
    Files.createDirectories(host.resolve("run"));
    Files.createDirectories(host.resolve("var"));
    Files.createSymbolicLink(host.resolve("var/run"), Path.of("../run"));
    Process node =
        new ProcessBuilder(
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                "mount --bind \"$0\" \"$0\" && mount --make-rshared \"$0\" && echo ready"
                    + " && exec sleep 100000",
                host.toString())
            .redirectErrorStream(true)
            .start();
    var out =
        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (!"ready".equals(line)) {
      node.destroyForcibly();
      throw new IOException("the node's mount namespace did not start: " + line);
    }
    return new PodNode(host, work, initCommand, node);
  }

  /** The fake host's path for the host path {@code hostPath}. */
  Path hostPath(String hostPath) {
    return host.resolve(hostPath.substring(1));
  }

  /** Starts a container; its output goes to {@code <name>-<n>.log} beside the fake host. */
  Container run(String name, Spec spec) {
    int n = ++containers;
    Path dir = work.resolve(name + "-" + n);
    var command = new ArrayList<String>();
    command.addAll(
        List.of(
            "nsenter",
            "-t",
            Long.toString(node.pid()),
            "-m",
            "--",
            "unshare",
            "-m",
            "--propagation",
            "unchanged",
            "--",
            "sh",
            "-c",
            SETUP,
            "sh",
            dir.toString()));
    for (Volume v : spec.volumes()) {
      madeOnTheMachine(Path.of(v.containerPath())).ifPresent(madeOnTheMachine::add);
      command.addAll(
          List.of(
              v.source().toString(),
              v.containerPath(),
              v.propagation(),
              v.readOnly() ? "ro" : "rw"));
    }
    command.add("--");
    command.add(initCommand.toString());
    command.add("env");
    command.add("-i");
    spec.env().forEach((k, v) -> command.add(k + "=" + v));
    command.addAll(spec.command());
    try {
      Files.createDirectories(dir);
      Path log = work.resolve(name + "-" + n + ".log");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      return new Container(name, process, log, spec.grace());
    } catch (IOException e) {
      throw new UncheckedIOException("starting container " + name, e);
    }
  }

  /** A running container: its {@code container-init}. */
  static final class Container implements AutoCloseable {
    final String name;
    final Process init;
    final Path log;
    private final Duration grace;

    Container(String name, Process init, Path log, Duration grace) {
      this.name = name;
      this.init = init;
      this.log = log;
      this.grace = grace;
    }

    /** What the container printed so far. */
    String output() {
      try {
        return Files.readString(log);
      } catch (IOException e) {
        return "(unreadable: " + e + ")";
      }
    }

    /** The processes of the container. */
    List<ProcessHandle> processes() {
      var all = new ArrayList<ProcessHandle>();
      all.add(init.toHandle());
      all.addAll(init.descendants().toList());
      return all.stream().filter(ProcessHandle::isAlive).toList();
    }

    /** The container dies at once, every process it started with it (a crash, an OOM kill). */
    void kill() {
      // the subreaper last: killed first, it would hand its descendants to the machine's init;
      // each one killed hands its own children to the subreaper, so this goes on until none is left
      for (int round = 0; round < 100 && init.descendants().findAny().isPresent(); round++) {
        init.descendants().forEach(ProcessHandle::destroyForcibly);
      }
      init.destroyForcibly();
      try {
        init.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** SIGTERM to the main process, then, after the grace period, {@link #kill}. */
    void stop() {
      init.destroy();
      try {
        if (!init.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
          kill();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        kill();
      }
    }

    /** Waits for the container's end (a one-shot container) and returns its exit status. */
    int await(Duration timeout) throws InterruptedException {
      if (!init.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
        throw new AssertionError(name + " did not end within " + timeout + ": " + output());
      }
      return init.exitValue();
    }

    @Override
    public void close() {
      if (init.isAlive()) {
        kill();
      }
    }
  }

  /**
   * The top directory of {@code target} that a container's {@code mkdir -p} makes on the machine,
   * empty when it exists or is made under an overlaid directory (through a symbolic link, as {@code
   * /var/run} is {@code /run}).
   */
  private static Optional<Path> madeOnTheMachine(Path target) {
    Path missing = null;
    Path existing = target;
    while (existing != null && !Files.exists(existing)) {
      missing = existing;
      existing = existing.getParent();
    }
    if (missing == null || existing == null) {
      return Optional.empty();
    }
    try {
      Path real = existing.toRealPath();
      return OVERLAID.stream().anyMatch(d -> real.startsWith(d))
          ? Optional.empty()
          : Optional.of(missing);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Ends the node; the mount points its containers made on the machine (empty now) go too. */
  @Override
  public void close() {
    node.destroyForcibly();
    try {
      node.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Path made : madeOnTheMachine) {
      if (!Files.exists(made)) {
        continue;
      }
      try (Stream<Path> tree = Files.walk(made)) {
        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("removing the mount point " + made + " of a container", e);
      }
    }
  }
}
