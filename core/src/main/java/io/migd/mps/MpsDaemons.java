package io.migd.mps;

import io.migd.devices.NodeSharing;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.ObservedNode;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import io.migd.profiles.GpuModelCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MPS control daemon per MPS-shared GPU or MIG slice: started after a reconcile that leaves the
 * device shared by MPS, given its limits (each client {@code floor(100/N)} % of the threads and
 * {@code floor(memory/N)} MiB), started again when its process is gone (its replicas unhealthy
 * meanwhile), and told to {@code quit} before its slice is destroyed or its sharing is switched
 * off. Daemons found running at start (by their pid files under {@code migd.mps.root}) are adopted,
 * never started twice, and never stopped while clients use their device. The MPS servers the
 * daemons report ({@code get_server_list}) never count as users of their device.
 *
 * <p>Called from the reconcile thread ({@link #reconciled}), the GPUs' plan threads ({@link
 * #planMade}, one at a time) and the supervision thread ({@link #check}); one lock orders them.
 */
public final class MpsDaemons implements ProgressListener {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsControl control;
  private final MpsPaths paths;
  private final MpsListener listener;
  private final GpuModelCatalog catalog;
  private final Object lock = new Object();

  /** The daemons migd runs or adopted, by device UUID. */
  private final Map<String, Daemon> daemons = new LinkedHashMap<>();

  /** Daemons found at start whose device no reconcile has claimed yet, by UUID, with their pid. */
  private final Map<String, Long> adoptable = new LinkedHashMap<>();

  private final Set<String> down = new HashSet<>();

  /**
   * Servers of daemons that quit since the last reconcile ended: the reconcile that quit them may
   * still decide from an observation that lists them.
   */
  private final Set<Integer> quitServers = new HashSet<>();

  private volatile Set<Integer> servers = Set.of();

  private record Daemon(MpsDevice device, long pid, List<Integer> servers) {}

  /** Daemons run with {@code control}, under {@code paths}, health told to {@code listener}. */
  public MpsDaemons(
      MpsControl control, MpsPaths paths, MpsListener listener, GpuModelCatalog catalog) {
    this.control = control;
    this.paths = paths;
    this.listener = listener;
    this.catalog = catalog;
  }

  /** Looks for daemons left running by an earlier migd: they are adopted, never started twice. */
  public void findRunning() {
    synchronized (lock) {
      if (!Files.isDirectory(paths.root())) {
        return;
      }
      try (var dirs = Files.list(paths.root())) {
        for (Path dir : dirs.toList()) {
          String uuid = dir.getFileName().toString();
          readPid(uuid)
              .filter(MpsDaemons::alive)
              .ifPresent(
                  pid -> {
                    adoptable.put(uuid, pid);
                    log.info("mps uuid={} pid={} found running; adopting it", uuid, pid);
                  });
        }
      } catch (IOException e) {
        log.warn("mps cannot list {}: {}", paths.root(), e.toString());
      }
    }
  }

  /**
   * After a reconcile: a daemon for every device {@code sharing} shares by MPS (adopted when one
   * runs), limits sent again where the replicas changed, and {@code quit} for daemons whose device
   * is no longer shared by MPS (an adopted one only once no client uses its device).
   */
  public void reconciled(ObservedNode observed, NodeSharing sharing) {
    var wanted = new LinkedHashMap<String, MpsDevice>();
    MpsDevices.wanted(observed, sharing, catalog).forEach(d -> wanted.put(d.uuid(), d));
    synchronized (lock) {
      for (Daemon daemon : List.copyOf(daemons.values())) {
        String uuid = daemon.device().uuid();
        if (wanted.containsKey(uuid)) {
          continue;
        }
        // a slice the intent drops but a client holds (its GPU blocked) keeps its daemon
        var clients = clients(observed, uuid, daemon.pid());
        if (clients.isEmpty()) {
          quit(uuid, "its device is no longer shared by MPS");
        } else {
          log.info(
              "mps uuid={} is no longer shared by MPS, but clients use it ({}); its daemon stays",
              uuid,
              clients);
        }
      }
      for (var entry : Map.copyOf(adoptable).entrySet()) {
        String uuid = entry.getKey();
        if (wanted.containsKey(uuid) || !alive(entry.getValue())) {
          continue;
        }
        var clients = clients(observed, uuid, entry.getValue());
        if (clients.isEmpty()) {
          adoptable.remove(uuid);
          quitAdopted(uuid, entry.getValue());
        } else {
          log.info(
              "mps uuid={} is no longer shared by MPS, but clients use it ({}); its daemon stays",
              uuid,
              clients);
        }
      }
      for (MpsDevice device : wanted.values()) {
        try {
          ensure(device);
        } catch (RuntimeException e) {
          log.error(
              "mps uuid={} gpu={} daemon not running: {}",
              device.uuid(),
              device.gpu(),
              e.getMessage());
          markDown(device.uuid());
        }
      }
      quitServers.clear();
      refreshServers();
    }
  }

  private void ensure(MpsDevice device) {
    Daemon running = daemons.get(device.uuid());
    if (running != null) {
      if (!running.device().equals(device)) {
        control.send(environment(device.uuid()), device.limitCommands());
        daemons.put(device.uuid(), new Daemon(device, running.pid(), running.servers()));
      }
      return;
    }
    Long adopted = adoptable.remove(device.uuid());
    if (adopted != null && alive(adopted)) {
      control.send(environment(device.uuid()), device.limitCommands());
      daemons.put(device.uuid(), new Daemon(device, adopted, serverList(device.uuid())));
      log.info("mps uuid={} gpu={} pid={} adopted", device.uuid(), device.gpu(), adopted);
      markUp(device.uuid());
      return;
    }
    start(device);
  }

  private void start(MpsDevice device) {
    String uuid = device.uuid();
    try {
      Files.createDirectories(paths.pipeDirectory(uuid));
      Files.createDirectories(paths.logDirectory(uuid));
      Files.createDirectories(paths.sharedMemory());
    } catch (IOException e) {
      throw new MpsControl.MpsException(
          "creating the MPS directories of " + uuid + " under " + paths.root() + ": " + e, e);
    }
    control.startDaemon(environment(uuid));
    long pid =
        readPid(uuid)
            .orElseThrow(
                () ->
                    new MpsControl.MpsException(
                        "the MPS control daemon of " + uuid + " wrote no " + paths.pidFile(uuid),
                        null));
    control.send(environment(uuid), device.limitCommands());
    daemons.put(uuid, new Daemon(device, pid, serverList(uuid)));
    log.info(
        "mps uuid={} gpu={} pid={} started replicas={} thread_percentage={} memory_limit={}M",
        uuid,
        device.gpu(),
        pid,
        device.replicas(),
        device.activeThreadPercentage(),
        device.pinnedMemoryLimitMib());
    markUp(uuid);
  }

  /**
   * Starts again every daemon whose process is gone (its replicas unhealthy until it runs), and
   * refreshes which processes are MPS servers. The supervision thread calls this periodically.
   */
  public void check() {
    synchronized (lock) {
      for (Daemon daemon : List.copyOf(daemons.values())) {
        if (alive(daemon.pid())) {
          continue;
        }
        String uuid = daemon.device().uuid();
        log.warn("mps uuid={} pid={} is gone; starting it again", uuid, daemon.pid());
        daemons.remove(uuid);
        markDown(uuid);
        try {
          start(daemon.device());
        } catch (RuntimeException e) {
          // kept so the next check tries again
          daemons.put(uuid, new Daemon(daemon.device(), 0, List.of()));
          log.error("mps uuid={} could not be started again: {}", uuid, e.getMessage());
        }
      }
      refreshServers();
    }
  }

  /** Whether {@code pid} is an MPS server of one of the daemons: never a user of its device. */
  public boolean isServer(int pid) {
    return servers.contains(pid);
  }

  /** The devices served now, by UUID, with their daemon's pid. */
  public Map<String, Long> running() {
    synchronized (lock) {
      var pids = new LinkedHashMap<String, Long>();
      daemons.forEach((uuid, d) -> pids.put(uuid, d.pid()));
      return pids;
    }
  }

  /** Before a GPU's plan runs: {@code quit} to the daemons of what it destroys or unshares. */
  @Override
  public void planMade(GpuIndex gpu, Plan plan) {
    synchronized (lock) {
      for (Step step : plan.steps()) {
        Predicate<MpsDevice> affected =
            switch (step) {
              case Step.EnableMig(var g) -> d -> d.gpu().equals(g) && d.isWholeGpu();
              case Step.DisableMig(var g) -> d -> d.gpu().equals(g) && !d.isWholeGpu();
              case Step.DestroyGpuInstance(var g, var gi) ->
                  d -> d.gpu().equals(g) && d.gpuInstanceId() == gi;
              case Step.DestroyComputeInstance(var g, var gi, var ci) ->
                  d -> d.gpu().equals(g) && d.gpuInstanceId() == gi && d.computeInstanceId() == ci;
              case Step.CreateGpuInstance _, Step.CreateComputeInstance _ -> d -> false;
            };
        for (Daemon daemon : List.copyOf(daemons.values())) {
          if (affected.test(daemon.device())) {
            quit(daemon.device().uuid(), "step " + step + " destroys its device");
          }
        }
      }
    }
  }

  private void quit(String uuid, String why) {
    Daemon daemon = daemons.remove(uuid);
    down.remove(uuid);
    if (daemon != null) {
      quitServers.addAll(daemon.servers());
    }
    try {
      control.send(environment(uuid), List.of("quit"));
      log.info("mps uuid={} pid={} quit: {}", uuid, daemon == null ? 0 : daemon.pid(), why);
    } catch (RuntimeException e) {
      log.warn("mps uuid={} quit failed ({}): {}", uuid, why, e.getMessage());
    }
    refreshServers();
  }

  private void quitAdopted(String uuid, long pid) {
    try {
      control.send(environment(uuid), List.of("quit"));
      log.info("mps uuid={} pid={} quit: its device is no longer shared by MPS", uuid, pid);
    } catch (RuntimeException e) {
      log.warn("mps uuid={} quit failed: {}", uuid, e.getMessage());
    }
  }

  /** The processes on the device other than the daemon and its servers. */
  private List<String> clients(ObservedNode observed, String uuid, long daemonPid) {
    var known = new HashSet<Long>();
    serverList(uuid).forEach(pid -> known.add(pid.longValue()));
    known.add(daemonPid);
    return MpsDevices.clients(observed, uuid, known);
  }

  private List<Integer> serverList(String uuid) {
    try {
      var pids = new ArrayList<Integer>();
      for (String line : control.send(environment(uuid), List.of("get_server_list"))) {
        String text = line.strip();
        if (text.matches("[0-9]{1,9}")) {
          pids.add(Integer.parseInt(text));
        }
      }
      return pids;
    } catch (RuntimeException e) {
      log.warn("mps uuid={} get_server_list failed: {}", uuid, e.getMessage());
      return List.of();
    }
  }

  private void refreshServers() {
    var all = new HashSet<>(quitServers);
    for (var entry : List.copyOf(daemons.entrySet())) {
      Daemon daemon = entry.getValue();
      if (!alive(daemon.pid())) {
        continue;
      }
      var list = serverList(entry.getKey());
      daemons.put(entry.getKey(), new Daemon(daemon.device(), daemon.pid(), list));
      all.addAll(list);
    }
    servers = Set.copyOf(all);
  }

  private void markDown(String uuid) {
    if (down.add(uuid)) {
      listener.daemonDown(uuid);
    }
  }

  private void markUp(String uuid) {
    if (down.remove(uuid)) {
      listener.daemonUp(uuid);
    }
  }

  /** The environment of the daemon of {@code uuid}, for {@code -d} and for its commands. */
  public Map<String, String> environment(String uuid) {
    var env = new HashMap<String, String>();
    env.put("CUDA_VISIBLE_DEVICES", uuid);
    env.put("CUDA_MPS_PIPE_DIRECTORY", paths.pipeDirectory(uuid).toString());
    env.put("CUDA_MPS_LOG_DIRECTORY", paths.logDirectory(uuid).toString());
    return env;
  }

  private Optional<Long> readPid(String uuid) {
    try {
      String text = Files.readString(paths.pidFile(uuid)).strip();
      return text.matches("[0-9]{1,18}") ? Optional.of(Long.parseLong(text)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static boolean alive(long pid) {
    return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
