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
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
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
 * <p>A pid file is believed only when the process it names is the control daemon: started with
 * {@code -d}, and no later than the pid file was written (a pid the kernel reused names a process
 * started after it; issue 17). A pid file naming another process is stale and goes before a start.
 *
 * <p>Called from the reconcile thread ({@link #reconciled}), the GPUs' plan threads ({@link
 * #planMade}, one at a time) and the supervision thread ({@link #check}). A state lock guards the
 * maps for a few field updates only: no process runs, no file is read and no listener is told while
 * it is held, so a GPU's plan never waits behind a daemon's start (issue 17: with a reset in flight
 * that made a lock cycle). {@link #reconciled} and {@link #check} take turns on a second lock,
 * which the GPUs' threads never take.
 */
public final class MpsDaemons implements ProgressListener {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  private final MpsControl control;
  private final MpsPaths paths;
  private final MpsListener listener;
  private final GpuModelCatalog catalog;
  private final PidFiles pidFiles;

  /** Guards the fields below for a few updates; never held across a process, I/O or a listener. */
  private final Object lock = new Object();

  /**
   * {@link #reconciled} and {@link #check} take turns: each runs processes, outside {@link #lock}.
   */
  private final ReentrantLock work = new ReentrantLock();

  /** The daemons migd runs or adopted, by device UUID. */
  private final Map<String, Daemon> daemons = new LinkedHashMap<>();

  /** Daemons found at start whose device no reconcile has claimed yet, by UUID, with their pid. */
  private final Map<String, Long> adoptable = new LinkedHashMap<>();

  private final Set<String> down = new HashSet<>();

  /** Devices whose daemon is being started or adopted (outside the lock), by UUID. */
  private final Map<String, MpsDevice> starting = new HashMap<>();

  /** Of those, the ones a plan destroys: their daemon is told to quit once it runs. */
  private final Set<String> cancelled = new HashSet<>();

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
    this.pidFiles = new PidFiles(paths);
  }

  /** Looks for daemons left running by an earlier migd: they are adopted, never started twice. */
  public void findRunning() {
    if (!Files.isDirectory(paths.root())) {
      return;
    }
    var found = new LinkedHashMap<String, Long>();
    try (var dirs = Files.list(paths.root())) {
      for (Path dir : dirs.toList()) {
        String uuid = dir.getFileName().toString();
        pidFiles
            .read(uuid)
            .ifPresent(
                pid -> {
                  if (pidFiles.namesDaemon(uuid, pid)) {
                    found.put(uuid, pid);
                    log.info("mps uuid={} pid={} found running; adopting it", uuid, pid);
                  } else if (PidFiles.alive(pid)) {
                    log.info(
                        "mps uuid={} pid={} of {} is not its control daemon (a reused pid); not"
                            + " adopted",
                        uuid,
                        pid,
                        paths.pidFile(uuid));
                  }
                });
      }
    } catch (IOException e) {
      log.warn("mps cannot list {}: {}", paths.root(), e.toString());
    }
    synchronized (lock) {
      adoptable.putAll(found);
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
    work.lock();
    try {
      List<Daemon> current;
      Map<String, Long> adopt;
      synchronized (lock) {
        current = List.copyOf(daemons.values());
        adopt = Map.copyOf(adoptable);
      }
      for (Daemon daemon : current) {
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
      for (var entry : adopt.entrySet()) {
        String uuid = entry.getKey();
        if (wanted.containsKey(uuid) || !pidFiles.namesDaemon(uuid, entry.getValue())) {
          continue;
        }
        var clients = clients(observed, uuid, entry.getValue());
        if (clients.isEmpty()) {
          synchronized (lock) {
            adoptable.remove(uuid);
          }
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
      synchronized (lock) {
        quitServers.clear();
      }
      refreshServers();
    } finally {
      work.unlock();
    }
  }

  private void ensure(MpsDevice device) {
    String uuid = device.uuid();
    Daemon running;
    Long adopted;
    synchronized (lock) {
      running = daemons.get(uuid);
      adopted = running == null ? adoptable.remove(uuid) : null;
    }
    if (running == null) {
      bringUp(device, adopted, false);
    } else if (!running.device().equals(device)) {
      control.send(environment(uuid), device.limitCommands());
      synchronized (lock) {
        daemons.replace(uuid, running, new Daemon(device, running.pid(), running.servers()));
      }
    }
  }

  /**
   * Adopts the daemon {@code adopted} names when it runs, else starts one; outside the lock, so a
   * plan that destroys the device meanwhile marks it cancelled and the daemon is told to quit here.
   * With {@code retryLater}, a start that fails leaves an entry the next {@link #check} retries.
   */
  private void bringUp(MpsDevice device, Long adopted, boolean retryLater) {
    String uuid = device.uuid();
    synchronized (lock) {
      starting.put(uuid, device);
      cancelled.remove(uuid);
    }
    Daemon up = null;
    boolean destroyed = false;
    try {
      up =
          adopted != null && pidFiles.namesDaemon(uuid, adopted)
              ? adopt(device, adopted)
              : start(device);
    } finally {
      synchronized (lock) {
        starting.remove(uuid);
        destroyed = cancelled.remove(uuid);
        if (!destroyed && up != null) {
          daemons.put(uuid, up);
        } else if (!destroyed && retryLater) {
          daemons.put(uuid, new Daemon(device, 0, List.of()));
        }
      }
      if (destroyed && up != null) {
        sendQuit(uuid, up.pid(), "a plan destroys its device; it started meanwhile");
      }
    }
    if (!destroyed) {
      markUp(uuid);
    }
  }

  private Daemon adopt(MpsDevice device, long pid) {
    String uuid = device.uuid();
    control.send(environment(uuid), device.limitCommands());
    var daemon = new Daemon(device, pid, serverList(uuid));
    log.info("mps uuid={} gpu={} pid={} adopted", uuid, device.gpu(), pid);
    return daemon;
  }

  private Daemon start(MpsDevice device) {
    String uuid = device.uuid();
    try {
      Files.createDirectories(paths.pipeDirectory(uuid));
      Files.createDirectories(paths.logDirectory(uuid));
      Files.createDirectories(paths.sharedMemory());
    } catch (IOException e) {
      throw new MpsControl.MpsException(
          "creating the MPS directories of " + uuid + " under " + paths.root() + ": " + e, e);
    }
    pidFiles.removeStale(uuid);
    control.startDaemon(environment(uuid));
    long pid =
        pidFiles
            .read(uuid)
            .orElseThrow(
                () ->
                    new MpsControl.MpsException(
                        "the MPS control daemon of " + uuid + " wrote no " + paths.pidFile(uuid),
                        null));
    control.send(environment(uuid), device.limitCommands());
    var daemon = new Daemon(device, pid, serverList(uuid));
    log.info(
        "mps uuid={} gpu={} pid={} started replicas={} thread_percentage={} memory_limit={}M",
        uuid,
        device.gpu(),
        pid,
        device.replicas(),
        device.activeThreadPercentage(),
        device.pinnedMemoryLimitMib());
    return daemon;
  }

  /**
   * Starts again every daemon whose process is gone (its replicas unhealthy until it runs), and
   * refreshes which processes are MPS servers. The supervision thread calls this periodically.
   */
  public void check() {
    work.lock();
    try {
      List<Daemon> current;
      synchronized (lock) {
        current = List.copyOf(daemons.values());
      }
      for (Daemon daemon : current) {
        String uuid = daemon.device().uuid();
        if (pidFiles.namesDaemon(uuid, daemon.pid())) {
          continue;
        }
        synchronized (lock) {
          if (!daemons.remove(uuid, daemon)) {
            continue;
          }
        }
        log.warn("mps uuid={} pid={} is gone; starting it again", uuid, daemon.pid());
        markDown(uuid);
        try {
          bringUp(daemon.device(), null, true);
        } catch (RuntimeException e) {
          log.error("mps uuid={} could not be started again: {}", uuid, e.getMessage());
        }
      }
      refreshServers();
    } finally {
      work.unlock();
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

  /**
   * Before a GPU's plan runs: {@code quit} to the daemons of what it destroys or unshares. Runs on
   * the GPU's thread: it waits for no start in flight, whose daemon quits when it is up instead.
   */
  @Override
  public void planMade(GpuIndex gpu, Plan plan) {
    var quitting = new LinkedHashMap<Daemon, Step>();
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
            forgetLocked(daemon.device().uuid());
            quitting.put(daemon, step);
          }
        }
        starting.forEach(
            (uuid, device) -> {
              if (affected.test(device)) {
                cancelled.add(uuid);
              }
            });
      }
    }
    quitting.forEach(
        (daemon, step) ->
            sendQuit(
                daemon.device().uuid(), daemon.pid(), "step " + step + " destroys its device"));
  }

  private void quit(String uuid, String why) {
    Daemon daemon;
    synchronized (lock) {
      daemon = forgetLocked(uuid);
    }
    sendQuit(uuid, daemon == null ? 0 : daemon.pid(), why);
    refreshServers();
  }

  /** Forgets the daemon of {@code uuid}; its servers stay known as servers until the next end. */
  private Daemon forgetLocked(String uuid) {
    Daemon daemon = daemons.remove(uuid);
    down.remove(uuid);
    if (daemon != null) {
      quitServers.addAll(daemon.servers());
      var all = new HashSet<>(servers);
      all.addAll(daemon.servers());
      servers = Set.copyOf(all);
    }
    return daemon;
  }

  private void sendQuit(String uuid, long pid, String why) {
    try {
      control.send(environment(uuid), List.of("quit"));
      log.info("mps uuid={} pid={} quit: {}", uuid, pid, why);
    } catch (RuntimeException e) {
      log.warn("mps uuid={} quit failed ({}): {}", uuid, why, e.getMessage());
    }
  }

  private void quitAdopted(String uuid, long pid) {
    sendQuit(uuid, pid, "its device is no longer shared by MPS");
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

  /** Asks each running daemon for its servers (outside the lock), then records them. */
  private void refreshServers() {
    Map<String, Daemon> current;
    synchronized (lock) {
      current = new LinkedHashMap<>(daemons);
    }
    var lists = new LinkedHashMap<String, List<Integer>>();
    current.forEach(
        (uuid, daemon) -> {
          if (pidFiles.namesDaemon(uuid, daemon.pid())) {
            lists.put(uuid, serverList(uuid));
          }
        });
    synchronized (lock) {
      var all = new HashSet<>(quitServers);
      lists.forEach(
          (uuid, list) -> {
            Daemon daemon = current.get(uuid);
            daemons.replace(uuid, daemon, new Daemon(daemon.device(), daemon.pid(), list));
            all.addAll(list);
          });
      servers = Set.copyOf(all);
    }
  }

  private void markDown(String uuid) {
    boolean changed;
    synchronized (lock) {
      changed = down.add(uuid);
    }
    if (changed) {
      listener.daemonDown(uuid);
    }
  }

  private void markUp(String uuid) {
    boolean changed;
    synchronized (lock) {
      changed = down.remove(uuid);
    }
    if (changed) {
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
}
