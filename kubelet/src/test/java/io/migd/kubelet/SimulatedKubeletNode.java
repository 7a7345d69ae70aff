package io.migd.kubelet;

import io.migd.devices.AllocationGrace;
import io.migd.devices.DeviceHealth;
import io.migd.devices.Inventory;
import io.migd.devices.KubeletUsage;
import io.migd.devices.MigStrategy;
import io.migd.devices.SysfsNumaNodes;
import io.migd.devices.XidWatcher;
import io.migd.execute.Backoff;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.layout.PciSysfs;
import io.migd.mps.MpsControl;
import io.migd.mps.MpsDaemons;
import io.migd.mps.MpsPaths;
import io.migd.mps.MpsSync;
import io.migd.mps.ProcessMpsControl;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.ProcessUsage;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.sim.MpsSupervisor;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * A node as the daemon assembles it, without Spring: simulated NVML, the reconciler deciding from
 * NVML processes and PodResources, the kubelet surface publishing to the device plugins, and the
 * XID watcher; a fake kubelet and a fake PodResources server on unix sockets in a temp dir. Each
 * {@link #apply} is what the reconcile loop does on a trigger: reconcile, then tell the surface.
 */
final class SimulatedKubeletNode implements AutoCloseable {
  static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  static final Duration GRACE = Duration.ofMinutes(5);
  static final Duration RECOVERY = Duration.ofMinutes(5);

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    private volatile Instant now = Instant.parse("2026-11-24T12:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  /** One publish to the device plugins, with the MIG UUIDs NVML held at that moment. */
  record Published(Inventory inventory, List<String> migUuidsInNvml) {}

  final Path dir;

  /** The sysfs tree the surface reads NUMA nodes from; empty (no topology) unless a test writes. */
  final Path sysfs;

  final MpsPaths mps;
  final SimulatedNvml sim;
  final Nvml nvml;
  final NodeObserver observer;
  final TestClock clock = new TestClock();
  final DeviceHealth health = new DeviceHealth();
  final AllocationGrace grace = new AllocationGrace(clock);
  final FakePodResources podResources;
  final PodResourcesClient podResourcesClient;
  final DevicePlugins plugins;
  final KubeletSurface surface;
  final XidWatcher xids;
  final Reconciler reconciler;
  final List<Published> published = new CopyOnWriteArrayList<>();

  /** Runs before each publish reaches the device plugins, on the publishing thread. */
  volatile Consumer<Inventory> beforePublish = inventory -> {};

  /** Runs on the health check's thread before it asks NVML whether a device answers. */
  volatile Runnable beforeNvmlAnswers = () -> {};

  /** Whether a publish records the MIG UUIDs NVML holds (an NVML call) in {@link #published}. */
  volatile boolean askNvmlAtPublish = true;

  /** What the kubelet was being shown each time the CDI refresh ran. */
  final List<Inventory> cdiRefreshes = new CopyOnWriteArrayList<>();

  /** The MPS daemons, run by the simulated control command; null unless started with MPS. */
  final MpsDaemons mpsDaemons;

  /** The chart's MPS supervisor, running the daemons; null unless started with MPS. */
  final MpsSupervisor supervisor;

  /** Syncs the MPS daemons with each outcome, as the daemon does; null unless started with MPS. */
  final MpsSync mpsSync;

  /** What the control command was asked, in order, and whether the device still existed then. */
  final List<String> mpsCommands = new CopyOnWriteArrayList<>();

  FakeKubelet kubelet;
  private final MigConfigFile configs;
  private long generation;

  private SimulatedKubeletNode(
      String models, String configYaml, MigStrategy strategy, boolean withMps) throws IOException {
    dir = Files.createTempDirectory(Path.of("/tmp"), "migd-k");
    sysfs = dir.resolve("sys");
    sim = SimulatedNvml.extract(Path.of("target", "sim-kubelet").toAbsolutePath());
    if (withMps) {
      // the control command runs in processes of its own: they share the GPUs through a file
      sim.require("state", dir.resolve("nvml.state").toString());
    }
    sim.init(models);
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    observer = new NodeObserver(nvml, CATALOG);
    configs = MigConfigParser.parse(configYaml);
    kubelet = FakeKubelet.start(dir);
    podResources = FakePodResources.start(dir.resolve("pod-resources.sock"));
    podResourcesClient = new PodResourcesClient(dir.resolve("pod-resources.sock"));
    mps = new MpsPaths(dir.resolve("mps"));
    plugins =
        new DevicePlugins(new DevicePluginSettings(dir, true, Duration.ofMillis(500), mps), grace);
    Consumer<Inventory> publisher =
        inventory -> {
          published.add(new Published(inventory, askNvmlAtPublish ? migUuidsInNvml() : List.of()));
          beforePublish.accept(inventory);
          plugins.publish(inventory);
        };
    surface =
        new KubeletSurface(
            publisher,
            health,
            () -> cdiRefreshes.add(plugins.current()),
            device -> {
              beforeNvmlAnswers.run();
              return KubeletSurface.nvmlAnswers(nvml).test(device);
            },
            new KubeletSurface.Settings(
                strategy, RECOVERY, Duration.ofMillis(50), new SysfsNumaNodes(sysfs)),
            clock);
    GpuReset reset =
        gpu -> {
          var result = sim.resetGpu(gpu.index().value());
          return GpuReset.Result.of(result.succeeded(), result.output());
        };
    supervisor =
        withMps
            ? MpsSupervisor.start(
                mps.root(), sim, dir.resolve("nvml.state"), dir.resolve("supervisor.log"))
            : null;
    mpsDaemons =
        withMps
            ? new MpsDaemons(
                recording(mpsControl()), MpsDaemons.Settings.under(mps), surface, CATALOG)
            : null;
    mpsSync = withMps ? new MpsSync(mpsDaemons) : null;
    reconciler =
        Reconciler.over(
            nvml,
            CATALOG,
            configs::config,
            new KubeletUsage(
                withMps
                    ? new ProcessUsage(nvml::processName, mpsDaemons::isServer)
                    : Reconciler.processUsage(nvml),
                podResourcesClient,
                grace,
                GRACE,
                false,
                clock),
            withMps ? ProgressListener.all(List.of(mpsDaemons, surface)) : surface,
            surface.watching(reset),
            RebootPolicy.DISABLED);
    surface.start();
    xids =
        new XidWatcher(nvml, surface, new Backoff(Duration.ofMillis(50), Duration.ofMillis(200)));
    xids.start();
  }

  static SimulatedKubeletNode start(String models, String configYaml, MigStrategy strategy) {
    try {
      return new SimulatedKubeletNode(models, configYaml, strategy, false);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A node whose MPS-shared devices get daemons of the simulated control command, run by the
   * chart's supervisor; the test is skipped where the supervisor cannot run (it mounts).
   */
  static SimulatedKubeletNode startWithMps(String models, String configYaml, MigStrategy strategy) {
    Assumptions.assumeTrue(MpsSupervisor.unavailable().isEmpty(), MpsSupervisor.unavailable());
    try {
      return new SimulatedKubeletNode(models, configYaml, strategy, true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The simulated control command, on this node's simulated GPUs. */
  MpsControl mpsControl() {
    return new ProcessMpsControl(
        List.of(
            "env", "NVML_SIM_STATE=" + dir.resolve("nvml.state"), sim.mpsControlPath().toString()),
        Duration.ofSeconds(20));
  }

  /**
   * {@code control}, recording each command as {@code "<uuid> <command>"}, and for {@code quit}
   * whether the device still existed in NVML when it was sent ({@code "<uuid> quit present"}).
   */
  MpsControl recording(MpsControl control) {
    return new MpsControl() {
      @Override
      public List<String> send(Map<String, String> environment, List<String> commands) {
        String uuid = environment.get("CUDA_VISIBLE_DEVICES");
        for (String command : commands) {
          mpsCommands.add(
              uuid
                  + " "
                  + command
                  + (command.equals("quit")
                      ? (sim.require("status", "-o", "json").contains(uuid) ? " present" : " gone")
                      : ""));
        }
        return control.send(environment, commands);
      }
    };
  }

  /** Reconciles the node to a config of the file, then tells the surface, as the loop does. */
  Outcome apply(String config) {
    Desired desired = Desired.config(Desired.Source.FILE, config, ++generation);
    Outcome outcome = reconciler.reconcile(desired);
    if (mpsSync != null) {
      mpsSync.reconciled(desired, outcome);
    }
    surface.reconciled(desired, outcome);
    return outcome;
  }

  /** Writes a GPU's {@code numa_node} in {@link #sysfs}, where its bus id places it. */
  void numaNode(int gpu, String node) {
    try {
      Path device =
          Files.createDirectories(
              sysfs.resolve("bus/pci/devices").resolve(PciSysfs.busId(gpu(gpu).pci().busId())));
      Files.writeString(device.resolve("numa_node"), node + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  ObservedGpu gpu(int index) {
    return observer.observe(new GpuIndex(index));
  }

  /** Stops the supervisor as the kubelet stops its container: its daemons quit. */
  void stopMpsDaemons() {
    supervisor.close();
  }

  /** Stops the supervisor process (SIGSTOP) or lets it go on (SIGCONT): a start held in flight. */
  void holdSupervisor(boolean hold) throws IOException, InterruptedException {
    var kill =
        new ProcessBuilder(
                "kill", hold ? "-STOP" : "-CONT", Long.toString(supervisor.process().pid()))
            .inheritIO()
            .start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill " + (hold ? "-STOP" : "-CONT") + " failed");
    }
  }

  /** The compute mode of a GPU (0 default, 3 exclusive process), as the simulator holds it. */
  int computeMode(int gpu) {
    var json = sim.require("status", "-o", "json");
    var matcher = Pattern.compile("\"computeMode\": *([0-9]+)").matcher(json);
    for (int i = 0; i <= gpu; i++) {
      if (!matcher.find()) {
        throw new AssertionError("no computeMode for GPU " + gpu + " in " + json);
      }
    }
    return Integer.parseInt(matcher.group(1));
  }

  /** What the simulated control command logged for a device: {@code -f}, then each command. */
  List<String> controlLog(String uuid) {
    try {
      Path log = mps.pipeDirectory(uuid).resolve("control.log");
      return Files.exists(log) ? Files.readAllLines(log) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The environment the simulated daemon of a device recorded at its start. */
  List<String> daemonEnvironment(String uuid) {
    try {
      return Files.readAllLines(mps.pipeDirectory(uuid).resolve("daemon.env"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The MIG device UUIDs NVML reports for a GPU, by compute-instance profile name. */
  List<String> migUuids(int gpu, String profile) {
    var uuids = new ArrayList<String>();
    for (LiveGpuInstance gi : gpu(gpu).gpuInstances()) {
      for (LiveComputeInstance ci : gi.computeInstances()) {
        if (ci.profile().toString().equals(profile)) {
          uuids.add(ci.uuid());
        }
      }
    }
    return uuids.stream().sorted().toList();
  }

  private List<String> migUuidsInNvml() {
    var uuids = new ArrayList<String>();
    for (GpuIndex index : observer.gpus()) {
      try {
        observer
            .observe(index)
            .gpuInstances()
            .forEach(gi -> gi.computeInstances().forEach(ci -> uuids.add(ci.uuid())));
      } catch (io.migd.nvml.NvmlException e) {
        // a test's fault on this GPU: what NVML holds there is unknown
      }
    }
    return uuids;
  }

  @Override
  public void close() throws Exception {
    if (mpsDaemons != null) {
      stopMpsDaemons();
    }
    xids.close();
    surface.close();
    plugins.close();
    podResourcesClient.close();
    podResources.close();
    kubelet.close();
    nvml.close();
    try (var files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
