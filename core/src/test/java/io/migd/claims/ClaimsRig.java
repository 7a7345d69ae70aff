package io.migd.claims;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.Executor;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.NodeObserver;
import io.migd.nvml.DeviceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.Nvml;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.ownership.ClaimKey;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.Placement;
import io.migd.reconcile.UsageSource;
import io.migd.sharing.ClaimSharing;
import io.migd.sim.SimulatedNvml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node for claim tests: simulated GPUs (the real FFM path) whose state lives in {@code
 * dir/nvml.state}, so a child process can share it; a checkpoint in {@code dir/state}; a boot id
 * file; claims a test writes; and the pool built by hand, every GPU dynamic.
 */
final class ClaimsRig implements AutoCloseable {
  static final String DRIVER = "gpu.nvidia.com";
  static final String POOL = "node-a";
  static final String NAMESPACE = "default";
  static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  final Path dir;
  final SimulatedNvml sim;
  final Nvml nvml;
  final NodeObserver observer;
  final RecordedClaims claims = new RecordedClaims();
  final FileCdi cdi;
  final Set<GpuIndex> unreconciled = ConcurrentHashMap.newKeySet();
  final List<PoolDevice> extra = new CopyOnWriteArrayList<>();

  /** Every NVML function this process called, in order. */
  final List<String> calls;

  /** GPUs the reconcile made static (the preparer's claim work on them is the reconcile's). */
  final Set<GpuIndex> staticGpus = ConcurrentHashMap.newKeySet();

  Duration reclaimAfter = Duration.ZERO;
  boolean sharesOneNamespace;
  ClaimEvents events = ClaimEvents.NONE;
  ClaimSharing sharing = ClaimSharing.NONE;

  /** What writes the claims' CDI specs: {@link #cdi}, unless a test wraps it. */
  ClaimCdi cdiWriter;

  UsageSource pods = ClaimNode.NO_PODS;
  ClaimPreparer preparer;

  private ClaimsRig(Path dir, SimulatedNvml sim, Nvml nvml, List<String> calls) {
    this.dir = dir;
    this.calls = calls;
    this.sim = sim;
    this.nvml = nvml;
    this.observer = new NodeObserver(nvml, CATALOG);
    this.cdi = new FileCdi(dir.resolve("cdi"));
    this.cdiWriter = cdi;
  }

  /** A fresh node of {@code models} (MIG disabled), its state shared through {@code dir}. */
  static ClaimsRig start(Path dir, String models) {
    var rig = open(dir, models);
    rig.writeBootId("boot-1");
    rig.preparer = rig.newPreparer();
    return rig;
  }

  /** The node {@code dir} holds, as another process sees it (a child JVM, with no preparer). */
  static ClaimsRig attach(Path dir) {
    return open(dir, null);
  }

  private static ClaimsRig open(Path dir, String models) {
    SimulatedNvml sim = SimulatedNvml.extract(dir.resolve("lib"));
    sim.require("state", dir.resolve("nvml.state").toString());
    if (models != null) {
      sim.init(models);
    }
    List<String> calls = new CopyOnWriteArrayList<>();
    Nvml nvml =
        FfmNvml.open(
            NvmlLibrary.load(sim.libraryPath().toString()),
            (function, result) -> calls.add(function));
    return new ClaimsRig(dir, sim, nvml, calls);
  }

  void writeBootId(String bootId) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("boot_id"), bootId + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  ClaimSettings settings() {
    return new ClaimSettings(
        DRIVER,
        POOL,
        dir.resolve("state"),
        dir.resolve("boot_id"),
        reclaimAfter,
        sharesOneNamespace);
  }

  ClaimPreparer newPreparer() {
    return new ClaimPreparer(claims, node(), cdiWriter, settings(), events, claims, sharing);
  }

  /** The node the preparer works on: every GPU dynamic unless {@link #staticGpus} names it. */
  ClaimNode node() {
    return new ClaimNode(
        nvml,
        CATALOG,
        new Executor(nvml, ProgressListener.NONE),
        pods,
        this::pool,
        gpu -> !unreconciled.contains(gpu),
        gpu -> !staticGpus.contains(gpu));
  }

  /** A restart: a new preparer over the same checkpoint, recovered with every GPU dynamic. */
  List<RecoveryFinding> restart() {
    if (preparer != null) {
      preparer.close();
    }
    preparer = newPreparer();
    return preparer.recover(Set.copyOf(observer.gpus()));
  }

  /** Every GPU dynamic: the whole GPU and every profile at every placement, named as migd does. */
  PoolContent pool() {
    var slices = new ArrayList<PoolSlice>();
    for (GpuIndex gpu : observer.gpus()) {
      DeviceHandle device = nvml.deviceByIndex(gpu.value());
      String uuid = nvml.uuid(device);
      GpuModel model = CATALOG.byPciDeviceId(nvml.pciInfo(device).deviceId()).orElseThrow();
      var devices = new ArrayList<PoolDevice>();
      for (GiProfile profile : model.giProfiles()) {
        for (Placement at : profile.placements()) {
          devices.add(
              device(
                  migName(gpu, profile, at),
                  new DeviceOrigin.DynamicPlacement(
                      gpu, uuid, profile.name().toString(), profile.id(), at.start(), at.size())));
        }
      }
      devices.add(device("gpu-" + gpu, new DeviceOrigin.WholeGpu(gpu, uuid, true)));
      slices.add(
          new PoolSlice(
              String.format("%03x-%s-%s", gpu.value() + 1, DRIVER, POOL),
              new PoolSlice.Devices(gpu, devices)));
    }
    if (!extra.isEmpty()) {
      slices.add(new PoolSlice("fff-extra", new PoolSlice.Devices(new GpuIndex(0), extra)));
    }
    return new PoolContent(DRIVER, POOL, slices);
  }

  static PoolDevice device(String name, DeviceOrigin origin) {
    return new PoolDevice(name, new TreeMap<>(), new TreeMap<>(), List.of(), List.of(), origin);
  }

  static String migName(GpuIndex gpu, GiProfile profile, Placement at) {
    String profileName = profile.name().toString().toLowerCase().replace(".", "").replace('+', '-');
    return "gpu-" + gpu + "-mig-" + profileName + "-" + profile.id() + "-" + at.start();
  }

  /** The pool's name of profile {@code profileName} at {@code start} on a GPU. */
  String deviceAt(int gpu, String profileName, int start) {
    GpuModel model = model(gpu);
    GiProfile profile =
        model.giProfiles().stream()
            .filter(p -> p.name().toString().equals(profileName))
            .findFirst()
            .orElseThrow();
    Placement at =
        profile.placements().stream().filter(p -> p.start() == start).findFirst().orElseThrow();
    return migName(new GpuIndex(gpu), profile, at);
  }

  GpuModel model(int gpu) {
    return CATALOG.byPciDeviceId(nvml.pciInfo(nvml.deviceByIndex(gpu)).deviceId()).orElseThrow();
  }

  /** The answer, which must be prepared. */
  static PrepareAnswer.Prepared prepared(PrepareAnswer answer) {
    assertThat(answer).isInstanceOf(PrepareAnswer.Prepared.class);
    return (PrepareAnswer.Prepared) answer;
  }

  /** The error of the answer, which must be a failure. */
  static String failure(PrepareAnswer answer) {
    assertThat(answer).isInstanceOf(PrepareAnswer.Failed.class);
    return ((PrepareAnswer.Failed) answer).error();
  }

  /** A claim allocated these devices of migd's pool, one request each. */
  ClaimKey allocate(String uid, String... devices) {
    var results = new ArrayList<AllocatedClaim.Result>();
    for (int i = 0; i < devices.length; i++) {
      results.add(new AllocatedClaim.Result("req-" + i, DRIVER, POOL, devices[i], false));
    }
    return allocate(uid, results, List.of());
  }

  ClaimKey allocate(
      String uid, List<AllocatedClaim.Result> results, List<AllocatedClaim.Config> opaque) {
    claims.put(
        new AllocatedClaim(uid, NAMESPACE, "claim-" + uid, true, results, opaque, List.of()));
    return key(uid);
  }

  static ClaimKey key(String uid) {
    return new ClaimKey(uid, NAMESPACE, "claim-" + uid);
  }

  PrepareAnswer prepare(ClaimKey claim) {
    return preparer.prepare(List.of(claim)).getFirst();
  }

  UnprepareAnswer unprepare(ClaimKey claim) {
    return preparer.unprepare(List.of(claim)).getFirst();
  }

  void enableMig(int gpu) {
    nvml.setMigMode(nvml.deviceByIndex(gpu), true);
  }

  /** Makes an instance no claim owns: profile {@code profileName} at {@code start}, one CI. */
  LiveGpuInstance idleInstance(int gpu, String profileName, int start) {
    return instance(gpu, profileName, start, true);
  }

  /** A GPU instance with no compute instance, as a plan or a prepare cut short leaves one. */
  LiveGpuInstance halfMadeInstance(int gpu, String profileName, int start) {
    return instance(gpu, profileName, start, false);
  }

  private LiveGpuInstance instance(int gpu, String profileName, int start, boolean complete) {
    GiProfile profile =
        model(gpu).giProfiles().stream()
            .filter(p -> p.name().toString().equals(profileName))
            .findFirst()
            .orElseThrow();
    Placement at =
        profile.placements().stream().filter(p -> p.start() == start).findFirst().orElseThrow();
    DeviceHandle device = nvml.deviceByIndex(gpu);
    var gi =
        nvml.createGpuInstance(device, profile.id(), new InstancePlacement(at.start(), at.size()));
    var ciProfile =
        nvml.computeInstanceProfiles(gi).stream()
            .filter(p -> p.sliceCount() == profile.slices())
            .findFirst()
            .orElseThrow();
    if (complete) {
      nvml.createComputeInstance(gi, ciProfile.id(), new InstancePlacement(0, profile.slices()));
    }
    int id = nvml.gpuInstanceInfo(gi).id();
    return instances(gpu).stream().filter(i -> i.id() == id).findFirst().orElseThrow();
  }

  /** The GPU instances NVML shows on a GPU. */
  List<LiveGpuInstance> instances(int gpu) {
    return observer.observe(new GpuIndex(gpu)).gpuInstances();
  }

  /** A compute process in a GPU instance, as {@code nvml-sim attach} makes it. */
  void attachProcess(int gpu, int gpuInstanceId, int pid, String name) {
    sim.require(
        "attach",
        "--gpu",
        Integer.toString(gpu),
        "--gi",
        Integer.toString(gpuInstanceId),
        "--pid",
        Integer.toString(pid),
        "--mem",
        "10",
        "--name",
        name);
  }

  boolean migEnabled(int gpu) {
    return nvml.migMode(nvml.deviceByIndex(gpu)).current();
  }

  @Override
  public void close() {
    if (preparer != null) {
      preparer.close();
    }
    nvml.close();
  }
}
