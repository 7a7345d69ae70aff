package io.migd.bench;

import io.migd.devices.AllocationGrace;
import io.migd.devices.DeviceHealth;
import io.migd.devices.MigStrategy;
import io.migd.execute.ProgressListener;
import io.migd.kubelet.DevicePluginSettings;
import io.migd.kubelet.DevicePlugins;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.KubeletSurface;
import io.migd.layout.NodeObserver;
import io.migd.layout.ObservedGpu;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.plan.Step;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigParser;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.RebootPolicy;
import io.migd.reconcile.Reconciler;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * How soon the kubelet sees a reshape, and how soon migd registers again after a kubelet restart,
 * through real gRPC over unix sockets to a fake kubelet on a simulated 8-GPU H100 node.
 *
 * <p>Reshape: from the end of the last NVML step of a reconcile (the last slice exists) to the
 * moment the fake kubelet's ListAndWatch stream holds the new list; it covers the verify
 * observation, the surface's own observation, the inventory and the gRPC send. Restart: from the
 * new kubelet.sock to every resource registered and streaming again.
 */
public final class KubeletLatency {
  private static final String MODEL = "H100-SXM5-80GB";
  private static final String CONFIGS =
      """
      version: v1
      mig-configs:
        small:
          - devices: all
            mig-enabled: true
            mig-devices: {"1g.10gb": 7}
        large:
          - devices: all
            mig-enabled: true
            mig-devices: {"3g.40gb": 2}
      """;

  // grpc sets SO_KEEPALIVE on every unix-socket channel and Netty warns once per channel
  private static final java.util.logging.Logger NETTY_BOOTSTRAP =
      java.util.logging.Logger.getLogger("io.grpc.netty.shaded.io.netty.bootstrap");

  private KubeletLatency() {}

  /** Runs {@code args[0]} reshapes (default 40) and {@code args[1]} restarts (default 20). */
  public static void main(String[] args) throws Exception {
    NETTY_BOOTSTRAP.setLevel(java.util.logging.Level.SEVERE);
    int reshapes = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int restarts = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "migd-bench");
    var sim = SimulatedNvml.extract(dir.resolve("sim"));
    sim.init(String.join(",", java.util.Collections.nCopies(8, MODEL)));
    Nvml nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
    var catalog = GpuModelCatalog.builtIn();
    var observer = new NodeObserver(nvml, catalog);
    var configs = MigConfigParser.parse(CONFIGS);
    Path plugins = Files.createDirectory(dir.resolve("dp"));
    var kubelet = new FakeKubelet[] {FakeKubelet.start(plugins)};
    var devicePlugins =
        new DevicePlugins(
            new DevicePluginSettings(plugins, false, Duration.ofMillis(500)),
            new AllocationGrace(Clock.systemUTC()));
    var surface =
        new KubeletSurface(
            devicePlugins::publish,
            new DeviceHealth(),
            KubeletSurface.CdiRefresh.NONE,
            KubeletSurface.nvmlAnswers(nvml),
            new KubeletSurface.Settings(
                MigStrategy.MIXED, Duration.ofMinutes(5), Duration.ofMinutes(1)),
            Clock.systemUTC());
    long[] lastStepDone = new long[1];
    ProgressListener timing =
        new ProgressListener() {
          @Override
          public void stepDone(Step step) {
            lastStepDone[0] = System.nanoTime();
          }
        };
    var reconciler =
        Reconciler.over(
            nvml,
            catalog,
            configs::config,
            Reconciler.processUsage(nvml),
            ProgressListener.all(List.of(surface, timing)),
            GpuReset.NONE,
            RebootPolicy.DISABLED);

    long[] reshape = new long[reshapes];
    for (int i = 0; i < reshapes + 2; i++) {
      String config = i % 2 == 0 ? "small" : "large";
      String resource = "nvidia.com/mig-" + (i % 2 == 0 ? "1g.10gb" : "3g.40gb");
      var desired = Desired.config(Desired.Source.FILE, config, i + 1);
      var outcome = reconciler.reconcile(desired);
      if (!outcome.succeeded()) {
        throw new IllegalStateException(outcome.reason());
      }
      surface.reconciled(desired, outcome);
      Set<String> expected = new TreeSet<>();
      for (ObservedGpu gpu : observer.observe().gpus()) {
        gpu.gpuInstances()
            .forEach(gi -> gi.computeInstances().forEach(ci -> expected.add(ci.uuid())));
      }
      while (!new TreeSet<>(kubelet[0].ids(resource)).equals(expected)) {
        Thread.onSpinWait();
      }
      long seen = System.nanoTime();
      if (i >= 2) {
        reshape[i - 2] = seen - lastStepDone[0];
      }
    }

    long[] restart = new long[restarts];
    Set<String> resources = devicePlugins.servedResources();
    for (int i = 0; i < restarts; i++) {
      kubelet[0] = FakeKubelet.restart(kubelet[0]);
      long start = System.nanoTime();
      var now = kubelet[0];
      while (!(now.registeredResources().containsAll(resources)
          && resources.stream().allMatch(now::streaming))) {
        Thread.onSpinWait();
      }
      restart[i] = System.nanoTime() - start;
    }

    report("reshape of 8 GPUs, last NVML step to the new list at the kubelet", reshape);
    report(
        "kubelet restart to every resource (" + resources.size() + ") registered and streaming",
        restart);
    devicePlugins.close();
    kubelet[0].close();
    surface.close();
    nvml.close();
  }

  private static void report(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    var ms = new ArrayList<String>();
    for (double q : new double[] {0.5, 0.9}) {
      ms.add(String.format("p%d %.1f", (int) (q * 100), sorted[(int) (sorted.length * q)] / 1e6));
    }
    System.out.printf(
        "%s, %d runs (ms): %s, max %.1f%n",
        what, sorted.length, String.join(", ", ms), sorted[sorted.length - 1] / 1e6);
  }
}
