package io.migd.mps;

import io.migd.plan.Step;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What {@link MpsDaemons} knows about its daemons, behind one state lock. Each method is one short
 * critical section over the maps: no process runs, no file is read and no listener is told while
 * the lock is held (issue 17: with a reset in flight that made a lock cycle). Callers take a
 * snapshot here, do the work outside, then record the result here.
 */
final class MpsDaemonState {
  /** Guards the fields below for a few updates; never held across a process, I/O or a listener. */
  private final Object lock = new Object();

  /** The daemons migd runs or adopted, by device UUID. */
  private final Map<String, RunningDaemon> daemons = new LinkedHashMap<>();

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

  /**
   * The daemon running for a device, else the pid of the one adopted for it (claimed here).
   *
   * @param running the daemon migd runs for the device, null when none
   * @param adopted the pid of a daemon found at start, null when none or when one runs
   */
  record Claim(RunningDaemon running, Long adopted) {}

  /**
   * The daemons and the adoptable ones, taken together.
   *
   * @param daemons the daemons migd runs or adopted
   * @param adoptable the daemons found at start no reconcile has claimed yet, by UUID, with their
   *     pid
   */
  record Snapshot(List<RunningDaemon> daemons, Map<String, Long> adoptable) {}

  Snapshot snapshot() {
    synchronized (lock) {
      return new Snapshot(List.copyOf(daemons.values()), Map.copyOf(adoptable));
    }
  }

  void addAdoptable(Map<String, Long> found) {
    synchronized (lock) {
      adoptable.putAll(found);
    }
  }

  void removeAdoptable(String uuid) {
    synchronized (lock) {
      adoptable.remove(uuid);
    }
  }

  List<RunningDaemon> daemons() {
    synchronized (lock) {
      return List.copyOf(daemons.values());
    }
  }

  Map<String, RunningDaemon> daemonsByUuid() {
    synchronized (lock) {
      return new LinkedHashMap<>(daemons);
    }
  }

  /** The devices served now, by UUID, with their daemon's pid. */
  Map<String, Long> running() {
    synchronized (lock) {
      var pids = new LinkedHashMap<String, Long>();
      daemons.forEach((uuid, d) -> pids.put(uuid, d.pid()));
      return pids;
    }
  }

  Claim claim(String uuid) {
    synchronized (lock) {
      RunningDaemon running = daemons.get(uuid);
      return new Claim(running, running == null ? adoptable.remove(uuid) : null);
    }
  }

  void replace(String uuid, RunningDaemon old, RunningDaemon updated) {
    synchronized (lock) {
      daemons.replace(uuid, old, updated);
    }
  }

  /** Removes {@code daemon} when it is still the daemon of {@code uuid}. */
  boolean removeIfCurrent(String uuid, RunningDaemon daemon) {
    synchronized (lock) {
      return daemons.remove(uuid, daemon);
    }
  }

  /** Marks {@code device}'s daemon as being started or adopted, outside the lock. */
  void beginStart(String uuid, MpsDevice device) {
    synchronized (lock) {
      starting.put(uuid, device);
      cancelled.remove(uuid);
    }
  }

  /**
   * Ends a start: records {@code up} (or, with {@code retryLater}, an entry the next check retries)
   * unless a plan destroyed the device meanwhile.
   *
   * @return whether a plan destroyed the device meanwhile
   */
  boolean endStart(String uuid, MpsDevice device, RunningDaemon up, boolean retryLater) {
    synchronized (lock) {
      starting.remove(uuid);
      boolean destroyed = cancelled.remove(uuid);
      if (!destroyed && up != null) {
        daemons.put(uuid, up);
      } else if (!destroyed && retryLater) {
        daemons.put(uuid, new RunningDaemon(device, 0, List.of()));
      }
      return destroyed;
    }
  }

  /**
   * Forgets the daemons of the devices {@code steps} affect, and cancels the starts in flight on
   * them.
   *
   * @return the daemons forgotten, with the step that affects each
   */
  Map<RunningDaemon, Step> forgetAffected(
      List<Step> steps, Function<Step, Predicate<MpsDevice>> affectedBy) {
    var quitting = new LinkedHashMap<RunningDaemon, Step>();
    synchronized (lock) {
      for (Step step : steps) {
        Predicate<MpsDevice> affected = affectedBy.apply(step);
        for (RunningDaemon daemon : List.copyOf(daemons.values())) {
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
    return quitting;
  }

  /** Forgets the daemon of {@code uuid}; its servers stay known as servers until the next end. */
  RunningDaemon forget(String uuid) {
    synchronized (lock) {
      return forgetLocked(uuid);
    }
  }

  private RunningDaemon forgetLocked(String uuid) {
    RunningDaemon daemon = daemons.remove(uuid);
    down.remove(uuid);
    if (daemon != null) {
      quitServers.addAll(daemon.servers());
      var all = new HashSet<>(servers);
      all.addAll(daemon.servers());
      servers = Set.copyOf(all);
    }
    return daemon;
  }

  /** A reconcile ended: the servers of the daemons it quit no longer count. */
  void clearQuitServers() {
    synchronized (lock) {
      quitServers.clear();
    }
  }

  /**
   * Records the server lists asked of the daemons in {@code asked}, the snapshot they came from.
   */
  void recordServers(Map<String, RunningDaemon> asked, Map<String, List<Integer>> lists) {
    synchronized (lock) {
      var all = new HashSet<>(quitServers);
      lists.forEach(
          (uuid, list) -> {
            RunningDaemon daemon = asked.get(uuid);
            daemons.replace(uuid, daemon, new RunningDaemon(daemon.device(), daemon.pid(), list));
            all.addAll(list);
          });
      servers = Set.copyOf(all);
    }
  }

  boolean isServer(int pid) {
    return servers.contains(pid);
  }

  /**
   * @return whether the daemon of {@code uuid} was up until now
   */
  boolean markDown(String uuid) {
    synchronized (lock) {
      return down.add(uuid);
    }
  }

  /**
   * @return whether the daemon of {@code uuid} was down until now
   */
  boolean markUp(String uuid) {
    synchronized (lock) {
      return down.remove(uuid);
    }
  }
}
