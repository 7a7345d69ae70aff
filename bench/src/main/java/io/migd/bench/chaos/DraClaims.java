package io.migd.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.StatusRuntimeException;
import io.migd.api.dra.v1.Claim;
import io.migd.api.dra.v1.DRAPluginGrpc;
import io.migd.api.dra.v1.NodePrepareResourceResponse;
import io.migd.api.dra.v1.NodePrepareResourcesRequest;
import io.migd.api.dra.v1.NodeUnprepareResourceResponse;
import io.migd.api.dra.v1.NodeUnprepareResourcesRequest;
import io.migd.claims.AllocatedClaim;
import io.migd.dra.FakeDraKubelet;
import io.migd.node.dra.PublishedPool;
import io.migd.node.dra.ResourceSliceReader;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import io.migd.pool.testing.DeviceRequest;
import io.migd.pool.testing.InvalidPoolException;
import io.migd.pool.testing.PoolValidator;
import io.migd.pool.testing.PublishedSlice;
import io.migd.pool.testing.TestAllocator;
import io.migd.pool.testing.TestClaim;
import io.migd.sim.AllocatedClaims;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DRA side of a chaos run: the kubelet's claims (allocated by the test allocator from the
 * published pool, created in the API server, prepared and unprepared over the real sockets), the
 * runner's ledger of them, and the DRA invariants checked after every operation: every prepared
 * claim (the ledger's and migd's checkpoint's) has its GPU instance in NVML at its placement with
 * its profile; no two prepared claims overlap; the published pool is valid; a prepare or unprepare
 * answers per claim (the whole call fails only while migd is down).
 */
final class DraClaims {
  static final String NAMESPACE = "chaos";

  /** {@code gpu-<minor>} or {@code gpu-<minor>-mig-<profile>-<giProfileId>-<start>[-ci<n>]}. */
  private static final Pattern DEVICE =
      Pattern.compile("gpu-(\\d+)(?:-mig-([a-z0-9-]+?)-(\\d+)-(\\d+)(-ci\\d+)?)?");

  /** A claim the kubelet knows: prepared (its answer was success), or in doubt. */
  record Known(String name, String uid, List<String> devices, boolean prepared) {
    Known {
      devices = List.copyOf(devices);
    }
  }

  /** How long a prepare waits for the published pool to be whole and readable. */
  private static final Duration POOL_PATIENCE = Duration.ofSeconds(3);

  /**
   * The same once the node settled (and the wait for migd's registration then): a pool still not
   * whole, or migd not registered, then is a finding.
   */
  private static final Duration SETTLED_POOL_PATIENCE = Duration.ofSeconds(30);

  private final ChaosNode node;
  private final ChaosReport report;
  private final UnaryOperator<PoolSlice> order;
  private final TestAllocator allocator = new TestAllocator();
  private final List<Known> known = new ArrayList<>();
  private final List<String> undeleted = new ArrayList<>();

  DraClaims(ChaosNode node, ChaosReport report) {
    this(node, report, UnaryOperator.identity());
  }

  /**
   * Claims allocated from the published slices as {@code order} lists their devices (the
   * scheduler's view of another driver's order; the identity for migd's own).
   */
  DraClaims(ChaosNode node, ChaosReport report, UnaryOperator<PoolSlice> order) {
    this.node = node;
    this.report = report;
    this.order = order;
  }

  /** The claims whose prepare answered success and that were not unprepared since. */
  List<Known> prepared() {
    return known.stream().filter(Known::prepared).toList();
  }

  /**
   * Allocates a claim for {@code request} from the published pool, creates it and prepares it;
   * returns how that went.
   */
  String prepare(int step, String request, String name) throws InterruptedException {
    return prepare(step, request, name, POOL_PATIENCE);
  }

  private String prepare(int step, String request, String name, Duration poolPatience)
      throws InterruptedException {
    // once the node settled, migd registers again within its socket check (slow on a loaded box)
    Optional<FakeDraKubelet.Plugin> plugin =
        poolPatience.equals(SETTLED_POOL_PATIENCE)
            ? node.draPlugin(SETTLED_POOL_PATIENCE)
            : node.draPlugin();
    if (plugin.isEmpty()) {
      return "migd not registered";
    }
    // a generation being written is incomplete for a moment, and an outage hides it
    Optional<List<PublishedSlice>> pool = pool(step, poolPatience);
    if (pool.isEmpty()) {
      return "pool not readable";
    }
    Optional<AllocatedClaim> allocation;
    try {
      allocation =
          allocator.allocate(
              TestClaim.of(name, deviceRequest(request)),
              pool.get().stream()
                  .map(
                      s ->
                          new PublishedSlice(
                              s.driver(),
                              s.pool(),
                              order.apply(s.slice()),
                              s.generation(),
                              s.sliceCount()))
                  .toList());
    } catch (InvalidPoolException e) {
      report.violation(step, "the published pool is valid", e.getMessage());
      return "invalid pool";
    }
    if (allocation.isEmpty()) {
      return "does not fit" + why(request, pool.get());
    }
    String uid;
    try {
      uid = create(name, TestAllocator.deviceNames(allocation.get()));
    } catch (RuntimeException e) {
      allocator.release(name);
      return "API server refused the claim";
    }
    var claim = new Known(name, uid, TestAllocator.deviceNames(allocation.get()), false);
    known.add(claim);
    return prepare(step, plugin.get(), claim);
  }

  /**
   * Why nothing fits, roughly: no device of the request published, every one tainted, or every one
   * taken or blocked by counters.
   */
  private String why(String request, List<PublishedSlice> pool) {
    DeviceRequest wanted = deviceRequest(request);
    var matching = new ArrayList<PoolDevice>();
    for (PublishedSlice slice : pool) {
      if (slice.slice().content() instanceof PoolSlice.Devices(var _, var devices)) {
        devices.stream().filter(d -> wanted.matches(ChaosNode.DRIVER, d)).forEach(matching::add);
      }
    }
    if (matching.isEmpty()) {
      return " (none published)";
    }
    return matching.stream().allMatch(d -> !d.taints().isEmpty())
        ? " (every one tainted)"
        : " (taken or counters used)";
  }

  private String prepare(int step, FakeDraKubelet.Plugin plugin, Known claim) {
    MigdDaemon.Life life = node.migd.life();
    NodePrepareResourceResponse answer;
    try {
      answer =
          stub(plugin)
              .nodePrepareResources(
                  NodePrepareResourcesRequest.newBuilder().addClaims(grpcClaim(claim)).build())
              .getClaimsOrThrow(claim.uid());
    } catch (StatusRuntimeException | IllegalArgumentException e) {
      return callFailed(step, life, "NodePrepareResources of " + claim.name(), e);
    }
    if (!answer.getError().isEmpty()) {
      checkSentence(step, "prepare", answer.getError());
      return "error: " + shape(answer.getError());
    }
    replace(claim, true);
    return "prepared";
  }

  /** Unprepares the {@code which}-th claim the kubelet knows; deletes it once that succeeded. */
  String unprepare(int step, int which) throws InterruptedException {
    if (known.isEmpty()) {
      return "no claim";
    }
    Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin();
    if (plugin.isEmpty()) {
      return "migd not registered";
    }
    return unprepare(step, plugin.get(), known.get(which % known.size()));
  }

  /** Unprepares the claim named {@code name}; deletes it once that succeeded. */
  String unprepare(int step, String name) throws InterruptedException {
    Optional<Known> claim = claimNamed(name);
    if (claim.isEmpty()) {
      return "no claim";
    }
    Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin();
    if (plugin.isEmpty()) {
      return "migd not registered";
    }
    return unprepare(step, plugin.get(), claim.get());
  }

  /** The devices the kubelet's claim {@code name} was allocated; empty when there is none. */
  List<String> devices(String name) {
    return claimNamed(name).map(Known::devices).orElse(List.of());
  }

  private String unprepare(int step, FakeDraKubelet.Plugin plugin, Known claim) {
    MigdDaemon.Life life = node.migd.life();
    NodeUnprepareResourceResponse answer;
    // from the call on, the claim's instance may be half destroyed until migd answers
    replace(claim, false);
    try {
      answer =
          stub(plugin)
              .nodeUnprepareResources(
                  NodeUnprepareResourcesRequest.newBuilder().addClaims(grpcClaim(claim)).build())
              .getClaimsOrThrow(claim.uid());
    } catch (StatusRuntimeException | IllegalArgumentException e) {
      return callFailed(step, life, "NodeUnprepareResources of " + claim.name(), e);
    }
    if (!answer.getError().isEmpty()) {
      checkSentence(step, "unprepare", answer.getError());
      return "error: " + shape(answer.getError());
    }
    known.removeIf(k -> k.uid().equals(claim.uid()));
    allocator.release(claim.name());
    undeleted.add(claim.name());
    deleteClaims();
    return claim.prepared() ? "unprepared" : "unprepared (was in doubt)";
  }

  /**
   * At a settle: unprepares every claim in doubt and every prepared one {@code keep} does not keep
   * (retrying while migd answers an error), deletes them; returns the claims left prepared, or
   * empty when an unprepare did not succeed within {@code patience} (a violation).
   */
  Optional<List<Known>> unprepareAllBut(int step, boolean keepEveryOther, long deadlineNanos)
      throws InterruptedException {
    var keep = new ArrayList<Known>();
    var go = new ArrayList<Known>();
    int i = 0;
    for (Known k : known) {
      if (k.prepared() && keepEveryOther && i++ % 2 == 0) {
        keep.add(k);
      } else {
        go.add(k);
      }
    }
    for (Known claim : go) {
      String outcome = "";
      while (System.nanoTime() < deadlineNanos) {
        Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin();
        if (plugin.isPresent()) {
          outcome = unprepare(step, plugin.get(), claim);
          if (outcome.startsWith("unprepared")) {
            break;
          }
        }
        Thread.sleep(500);
      }
      if (!outcome.startsWith("unprepared")) {
        report.violation(
            step,
            "a claim unprepares once the faults stopped",
            claim.name() + " " + claim.devices() + ": " + outcome);
        return Optional.empty();
      }
    }
    while (!undeleted.isEmpty() && System.nanoTime() < deadlineNanos) {
      deleteClaims();
      if (!undeleted.isEmpty()) {
        Thread.sleep(500);
      }
    }
    return Optional.of(List.copyOf(keep));
  }

  /**
   * At a settle, on a converged node: a fresh claim for each request that the pool still fits is
   * allocated, prepared (it must succeed, its instance must show in NVML), then unprepared.
   */
  void probe(int step, List<String> requests) throws InterruptedException {
    int n = 0;
    for (String request : requests) {
      String name = "probe-" + step + "-" + n++;
      String outcome = prepare(step, request, name, SETTLED_POOL_PATIENCE);
      // The API server's pool can lag migd's for a while after an outage (a republish waits out
      // its backoff), as a scheduler's view does: a device migd withdrew is refused, not wrong.
      // Like a rescheduled pod, the claim goes and a new one is allocated from the newer pool;
      // still refused once SETTLED_POOL_PATIENCE has passed is a violation.
      long until = System.nanoTime() + SETTLED_POOL_PATIENCE.toNanos();
      while (outcome.contains("(not published now)") && System.nanoTime() < until) {
        release(step, name);
        Thread.sleep(1_000);
        name = "probe-" + step + "-" + n++;
        outcome = prepare(step, request, name, SETTLED_POOL_PATIENCE);
      }
      if (outcome.startsWith("does not fit")) {
        continue;
      }
      if (!outcome.equals("prepared")) {
        report.violation(
            step, "a fresh claim can be prepared once the node settled", request + ": " + outcome);
      } else {
        checkInstances(step, node.nvml());
      }
      Optional<Known> claim = claimNamed(name);
      if (claim.isEmpty()) {
        continue;
      }
      Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin(SETTLED_POOL_PATIENCE);
      String unprepared =
          plugin.isEmpty() ? "migd not registered" : unprepare(step, plugin.get(), claim.get());
      if (!unprepared.startsWith("unprepared")) {
        report.violation(
            step,
            "a fresh claim can be unprepared once the node settled",
            request + ": " + unprepared);
      }
    }
  }

  /** A probe claim that was not prepared: unprepared (nothing to undo) and deleted. */
  private void release(int step, String name) throws InterruptedException {
    Optional<Known> claim = claimNamed(name);
    Optional<FakeDraKubelet.Plugin> plugin = node.draPlugin(SETTLED_POOL_PATIENCE);
    if (claim.isPresent() && plugin.isPresent()) {
      unprepare(step, plugin.get(), claim.get());
    }
  }

  private void replace(Known claim, boolean prepared) {
    known.replaceAll(
        k -> k.uid().equals(claim.uid()) ? new Known(k.name(), k.uid(), k.devices(), prepared) : k);
  }

  private Optional<Known> claimNamed(String name) {
    return known.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /**
   * The invariants that hold at any moment while migd runs: every prepared claim's instance exists
   * at its placement with its profile (the ledger's claims and the checkpoint's completed ones), no
   * two prepared claims overlap.
   */
  void check(int step) {
    NvmlView nvml = node.nvml();
    checkInstances(step, nvml);
    checkCheckpoint(step, nvml);
  }

  /** Also each operation: the published pool, when readable and whole, is valid. */
  void checkPool(int step) {
    pool(step);
  }

  private void checkInstances(int step, NvmlView nvml) {
    var taken = new HashMap<Integer, List<String[]>>();
    for (Known claim : prepared()) {
      for (String device : claim.devices()) {
        Optional<String> problem = missing(nvml, device);
        if (problem.isPresent()) {
          report.violation(
              step,
              "a prepared claim's instance exists at its placement",
              claim.name() + " " + device + ": " + problem.get());
          continue;
        }
        Matcher m = DEVICE.matcher(device);
        if (!m.matches()) {
          continue;
        }
        int minor = Integer.parseInt(m.group(1));
        for (String[] other : taken.computeIfAbsent(minor, g -> new ArrayList<>())) {
          if (overlap(nvml, device, other[1])) {
            report.violation(
                step,
                "no two prepared claims overlap",
                claim.name() + " " + device + " and " + other[0] + " " + other[1]);
          }
        }
        taken.get(minor).add(new String[] {claim.name(), device});
      }
    }
  }

  /** Why NVML does not show {@code device} as a prepared claim needs it; empty when it does. */
  static Optional<String> missing(NvmlView nvml, String device) {
    Matcher m = DEVICE.matcher(device);
    if (!m.matches()) {
      return Optional.of("not a device name this runner knows");
    }
    int minor = Integer.parseInt(m.group(1));
    if (minor >= nvml.gpus().size()) {
      return Optional.of("no GPU " + minor);
    }
    NvmlView.Gpu gpu = nvml.gpus().get(minor);
    if (m.group(2) == null) {
      return gpu.migCurrent() ? Optional.of("a whole GPU, but MIG is on") : Optional.empty();
    }
    if (!gpu.migCurrent()) {
      return Optional.of("MIG is off");
    }
    return instance(gpu, m).isPresent()
        ? Optional.empty()
        : Optional.of("NVML shows " + describe(gpu));
  }

  private static Optional<NvmlView.GpuInstance> instance(NvmlView.Gpu gpu, Matcher m) {
    int profileId = Integer.parseInt(m.group(3));
    int start = Integer.parseInt(m.group(4));
    boolean ciDevice = m.group(5) != null;
    return gpu.instances().stream()
        .filter(gi -> gi.profileId() == profileId && gi.start() == start)
        .filter(gi -> ciDevice || deviceProfile(gi.profile()).equals(m.group(2)))
        .filter(gi -> !gi.computeInstances().isEmpty())
        .findFirst();
  }

  private static boolean overlap(NvmlView nvml, String a, String b) {
    if (a.equals(b)) {
      return true;
    }
    Matcher ma = DEVICE.matcher(a);
    Matcher mb = DEVICE.matcher(b);
    if (!ma.matches() || !mb.matches()) {
      return false;
    }
    if (ma.group(2) == null || mb.group(2) == null) {
      return true;
    }
    if (ma.group(5) != null || mb.group(5) != null) {
      // compute instances of one static GPU instance: distinct names are distinct slices
      return false;
    }
    NvmlView.Gpu gpu = nvml.gpus().get(Integer.parseInt(ma.group(1)));
    Optional<NvmlView.GpuInstance> ia = instance(gpu, ma);
    Optional<NvmlView.GpuInstance> ib = instance(gpu, mb);
    if (ia.isEmpty() || ib.isEmpty()) {
      return false;
    }
    return ia.get().start() < ib.get().start() + ib.get().size()
        && ib.get().start() < ia.get().start() + ia.get().size();
  }

  /** A profile as device names spell it: {@code 1g.10gb} is {@code 1g10gb}. */
  static String deviceProfile(String profile) {
    return profile.toLowerCase().replace(".", "").replaceAll("[^a-z0-9-]", "-");
  }

  private static String describe(NvmlView.Gpu gpu) {
    return gpu.instances().stream()
        .map(gi -> gi.profile() + "@" + gi.start() + "/" + gi.computeInstances().size())
        .toList()
        .toString();
  }

  /**
   * migd's checkpoint: every claim it holds as prepared has its instances in NVML (GPU instance id
   * at its placement, and its MIG UUID), and every claim of the ledger is in it. A claim the runner
   * has called unprepare for without success is not checked: its instance may be half destroyed.
   */
  private void checkCheckpoint(int step, NvmlView nvml) {
    Path file = node.stateDir().resolve("dra-checkpoint.json");
    JsonNode checkpoint;
    try {
      if (!Files.exists(file)) {
        checkpoint = GpuTarget.tree("{\"claims\":[]}");
      } else {
        checkpoint = GpuTarget.tree(Files.readString(file));
      }
    } catch (IOException | RuntimeException e) {
      report.violation(step, "migd's checkpoint is readable", file + ": " + e);
      return;
    }
    var completed = new HashMap<String, JsonNode>();
    for (JsonNode claim : checkpoint.path("claims")) {
      if (claim.path("state").asText().equals("prepareCompleted")) {
        completed.put(claim.path("uid").asText(), claim);
      }
    }
    for (Known claim : prepared()) {
      if (!completed.containsKey(claim.uid())) {
        report.violation(
            step,
            "every prepared claim is in migd's checkpoint",
            claim.name() + " (" + claim.uid() + ") is not, or not as prepareCompleted");
      }
    }
    Map<String, Boolean> migUuids = new HashMap<>();
    nvml.migUuids().forEach(u -> migUuids.put(u, true));
    // a claim whose unprepare was called and did not succeed (an NVML fault on the GPU-instance
    // destroy, after its compute instance went) stays checkpointed as the instance's owner until
    // the kubelet's retry succeeds, as the contract says; its instance may be half destroyed
    var inDoubt = new HashSet<String>();
    known.stream().filter(k -> !k.prepared()).forEach(k -> inDoubt.add(k.uid()));
    for (JsonNode claim : completed.values()) {
      if (inDoubt.contains(claim.path("uid").asText())) {
        continue;
      }
      for (JsonNode device : claim.path("devices")) {
        int gi = device.path("gpuInstanceId").asInt(-1);
        if (gi < 0 || device.path("kind").asText().equals("ADMIN_ACCESS")) {
          continue;
        }
        NvmlView.Gpu gpu = nvml.gpus().get(gpuIndex(device.path("gpu")));
        // a static slice's record has no placement (-1): its GPU instance id says which
        int start = device.path("placementStart").asInt(-1);
        boolean there =
            gpu.migCurrent()
                && gpu.instances().stream()
                    .anyMatch(i -> i.id() == gi && (start < 0 || i.start() == start));
        String uuid = device.path("migUuid").asText("");
        if (!there || (!uuid.isEmpty() && !migUuids.containsKey(uuid))) {
          report.violation(
              step,
              "every checkpointed claim's instance exists at its placement",
              claim.path("name").asText()
                  + " "
                  + device.path("name").asText()
                  + " (GI "
                  + gi
                  + " at "
                  + start
                  + ", "
                  + uuid
                  + "): NVML shows "
                  + describe(gpu));
        }
      }
    }
  }

  private static int gpuIndex(JsonNode gpu) {
    return gpu.isObject() ? gpu.elements().next().asInt() : gpu.asInt();
  }

  /**
   * The pool's newest generation when it is readable and whole; a violation when it breaks the
   * API's rules.
   */
  private Optional<List<PublishedSlice>> pool(int step, Duration patience)
      throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    Optional<List<PublishedSlice>> pool = pool(step);
    while (pool.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
      pool = pool(step);
    }
    return pool;
  }

  private Optional<List<PublishedSlice>> pool(int step) {
    Optional<PublishedPool> read;
    try {
      read = new ResourceSliceReader(node.client).read(ChaosNode.DRIVER, ChaosNode.NODE);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (read.isEmpty() || !read.get().complete()) {
      return Optional.empty();
    }
    PublishedPool pool = read.get();
    var slices =
        pool.content().slices().stream()
            .map(
                s ->
                    new PublishedSlice(
                        ChaosNode.DRIVER,
                        ChaosNode.NODE,
                        s,
                        pool.generation(),
                        (int) pool.resourceSliceCount()))
            .toList();
    List<String> problems = PoolValidator.problems(slices);
    if (!problems.isEmpty()) {
      report.violation(step, "the published pool is valid", problems.toString());
      return Optional.empty();
    }
    return Optional.of(slices);
  }

  private String create(String name, List<String> devices) {
    return node.client
        .resource(AllocatedClaims.of(NAMESPACE, name, ChaosNode.DRIVER, ChaosNode.NODE, devices))
        .create()
        .getMetadata()
        .getUid();
  }

  /** Deletes the unprepared claims from the API server (those an outage kept are tried again). */
  private void deleteClaims() {
    undeleted.removeIf(
        name -> {
          try {
            node.client
                .dynamicResourceAllocation()
                .v1()
                .resourceClaims()
                .inNamespace(NAMESPACE)
                .withName(name)
                .delete();
            return true;
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  /**
   * A call that failed as a whole: allowed only when migd went down (a {@code KILL} fault); the
   * claim stays known, in doubt.
   */
  private String callFailed(int step, MigdDaemon.Life life, String what, RuntimeException failure) {
    boolean down;
    try {
      down = life.process.waitFor(5, TimeUnit.SECONDS) || life.killed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      down = true;
    }
    String status =
        failure instanceof StatusRuntimeException s
            ? s.getStatus().getCode().toString()
            : failure.getMessage();
    if (!down) {
      report.violation(
          step,
          "a prepare or unprepare answers per claim",
          what + " failed as a whole while migd runs: " + failure);
    }
    return "call failed (" + status + (down ? ", migd down)" : ")");
  }

  private void checkSentence(int step, String what, String error) {
    if (error.isBlank() || error.strip().length() < 10 || !error.contains(" ")) {
      report.violation(
          step, "a failed claim's answer is a sentence", what + " answered \"" + error + "\"");
    }
  }

  /** An error sentence without its numbers and names, to count outcomes by kind. */
  private static String shape(String error) {
    String shaped =
        error
            .replaceAll("[A-Za-z]*-[0-9a-f]{8}-[0-9a-f-]+", "ID")
            .replaceAll("gpu-[0-9a-z-]+", "DEVICE")
            .replaceAll("[0-9]+", "N");
    return shaped.length() > 90 ? shaped.substring(0, 90) + "..." : shaped;
  }

  private static Claim grpcClaim(Known claim) {
    return Claim.newBuilder()
        .setNamespace(NAMESPACE)
        .setName(claim.name())
        .setUid(claim.uid())
        .build();
  }

  private static DRAPluginGrpc.DRAPluginBlockingStub stub(FakeDraKubelet.Plugin plugin) {
    return DRAPluginGrpc.newBlockingStub(plugin.channel())
        .withDeadlineAfter(FakeDraKubelet.DEADLINE.toSeconds(), TimeUnit.SECONDS);
  }

  /** {@code profile=<name>} or {@code type=<type>}, as the operation names it. */
  static DeviceRequest deviceRequest(String request) {
    String[] f = request.split("=", 2);
    return switch (f[0]) {
      case "profile" -> DeviceRequest.profile("gpu", f[1]);
      case "type" -> DeviceRequest.type("gpu", f[1], 1);
      default -> throw new IllegalArgumentException("not a request: " + request);
    };
  }
}
