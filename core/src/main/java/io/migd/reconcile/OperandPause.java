package io.migd.reconcile;

import io.migd.layout.GpuIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pauses the GPU Operator's operands on this node while a MIG mode change waits on a client NVML
 * does not list (DCGM, dcgm-exporter), as NVIDIA's mig-manager pauses them (DESIGN section 13):
 * each deploy label of the settings' operands that the node has, with a value other than {@code
 * false}, becomes {@value #PAUSED}, so the operand's DaemonSet takes its pod off the node. A GPU
 * then waits, up to the timeout from the first pause, until those pods are gone; at the end of the
 * first reconcile in which no GPU waits any more the labels that migd changed, and that still say
 * {@value #PAUSED}, are set back to {@code true}. Past the timeout they are set back too and the
 * GPUs fail; no new pause starts for one more timeout, so the operands are not cycled at every
 * retry.
 *
 * <p>The operands it paused are written to {@value #FILE} in the state directory before any label
 * changes and removed once they are restored: a migd that starts and finds the file restores them.
 * A request the API server refuses is logged; the labels stay to be restored at the next
 * reconcile's end. The GPUs' threads call {@link #await} at once: one lock orders them, and only
 * GPUs waiting for the same pause wait on it.
 */
public final class OperandPause {
  /** The prefix of an operand's deploy label. */
  public static final String DEPLOY_LABEL_PREFIX = "nvidia.com/gpu.deploy.";

  /** The value that takes an operand off the node for a MIG change, as mig-manager writes it. */
  public static final String PAUSED = "paused-for-mig-change";

  /** The state directory's record of the operands migd paused. */
  public static final String FILE = "paused-operands";

  private static final Logger log = LoggerFactory.getLogger(OperandPause.class);

  /**
   * @param operands the operands paused ({@code migd.pause.operands}); empty turns pausing off
   * @param timeout how long a GPU waits for their pods to go ({@code migd.pause.timeout})
   */
  public record Settings(List<String> operands, Duration timeout) {
    /** Copies the list; refuses a timeout that is not positive. */
    public Settings {
      operands = List.copyOf(operands);
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("migd.pause.timeout must be positive, got " + timeout);
      }
    }
  }

  /** Where a GPU's wait for the paused operands stands. */
  public sealed interface Wait {
    /** Nothing to pause (off, not on a node, or no operand deployed here): carry on without. */
    record Off() implements Wait {}

    /** The operands are paused; {@code pods} are still on the node, {@code left} to wait. */
    record Waiting(List<String> labels, List<String> pods, Duration left) implements Wait {
      /** Copies the lists. */
      public Waiting {
        labels = List.copyOf(labels);
        pods = List.copyOf(pods);
      }
    }

    /** The operands are paused and their pods are gone. */
    record Clear(List<String> labels) implements Wait {
      /** Copies the list. */
      public Clear {
        labels = List.copyOf(labels);
      }
    }

    /**
     * {@code pods} stayed past the timeout; the labels are set back, a new pause from {@code at}.
     */
    record TimedOut(List<String> pods, Duration timeout, Instant again) implements Wait {
      /** Copies the list. */
      public TimedOut {
        pods = List.copyOf(pods);
      }
    }

    /** The API server refused a read or write of the pause; {@code detail} says which. */
    record Failed(String detail) implements Wait {}
  }

  private sealed interface State {
    record Idle() implements State {}

    record Paused(List<String> operands, Instant since, Set<GpuIndex> waiting) implements State {}

    record CoolingDown(List<String> pods, Instant until) implements State {}
  }

  private final Settings settings;
  private final NodeOperands node;
  private final Path file;
  private final Clock clock;
  private final Object lock = new Object();
  private State state = new State.Idle();

  private OperandPause(Settings settings, NodeOperands node, Path stateDir, Clock clock) {
    this.settings = Objects.requireNonNull(settings);
    this.node = node;
    this.file = stateDir == null ? null : stateDir.resolve(FILE);
    this.clock = clock;
  }

  /** A pause that never pauses: standalone, or {@code migd.pause.operands} empty. */
  public static OperandPause off() {
    return new OperandPause(new Settings(List.of(), Duration.ofMinutes(5)), null, null, null);
  }

  /**
   * The pause of this node, persisted in {@code stateDir}; operands a previous run left paused are
   * set back to {@code true} now (or, when the API server refuses, at the first reconcile's end).
   */
  public static OperandPause start(
      Settings settings, NodeOperands node, Path stateDir, Clock clock) {
    var pause = new OperandPause(settings, node, stateDir, clock);
    pause.restoreLeftover();
    return pause;
  }

  /**
   * Called for {@code gpu} when its MIG mode change is refused {@code IN_USE} and no process or pod
   * NVML or the kubelet names holds it: pauses the operands if they are not paused yet, and says
   * whether their pods are gone.
   */
  public Wait await(GpuIndex gpu) {
    if (settings.operands().isEmpty()) {
      return new Wait.Off();
    }
    synchronized (lock) {
      Instant now = clock.instant();
      try {
        if (state instanceof State.CoolingDown(var pods, var until)) {
          if (now.isBefore(until)) {
            return new Wait.TimedOut(pods, settings.timeout(), until);
          }
          state = new State.Idle();
        }
        if (state instanceof State.Idle && !pause(now)) {
          return new Wait.Off();
        }
        var paused = (State.Paused) state;
        paused.waiting().add(gpu);
        List<String> labels = paused.operands().stream().map(o -> DEPLOY_LABEL_PREFIX + o).toList();
        List<String> pods = node.podsSelecting(paused.operands());
        if (pods.isEmpty()) {
          return new Wait.Clear(labels);
        }
        Duration waited = Duration.between(paused.since(), now);
        if (waited.compareTo(settings.timeout()) < 0) {
          return new Wait.Waiting(labels, pods, settings.timeout().minus(waited));
        }
        log.warn(
            "pods of the paused GPU Operator operands stayed past migd.pause.timeout={} pods={};"
                + " restoring their labels",
            settings.timeout(),
            pods);
        restore(paused);
        state = new State.CoolingDown(pods, now.plus(settings.timeout()));
        return new Wait.TimedOut(pods, settings.timeout(), now.plus(settings.timeout()));
      } catch (RuntimeException e) {
        log.warn("gpu={} pausing the GPU Operator operands failed: {}", gpu, e.toString());
        return new Wait.Failed(e.getMessage() == null ? e.toString() : e.getMessage());
      }
    }
  }

  /**
   * Once every GPU's reconcile has ended: GPUs whose result no longer waits for the mode change are
   * let go, and with none left the operands are set back to {@code true}.
   */
  public void settle(Map<GpuIndex, GpuResult> results) {
    synchronized (lock) {
      if (!(state instanceof State.Paused paused)) {
        return;
      }
      paused.waiting().removeIf(gpu -> !(results.get(gpu) instanceof GpuResult.AwaitingModeChange));
      if (!paused.waiting().isEmpty()) {
        return;
      }
      try {
        restore(paused);
        state = new State.Idle();
      } catch (RuntimeException e) {
        log.warn(
            "setting the GPU Operator operands' labels back failed: {}; retried after the next"
                + " reconcile",
            e.toString());
      }
    }
  }

  /** Pauses every deployed operand; false when none is deployed here. Under the lock. */
  private boolean pause(Instant now) {
    Map<String, String> labels = node.deployLabels();
    var operands = new ArrayList<String>();
    for (String operand : settings.operands()) {
      String value = labels.get(operand);
      if (value != null && !value.equals("false") && !value.equals(PAUSED)) {
        operands.add(operand);
      }
    }
    if (operands.isEmpty()) {
      return false;
    }
    persist(operands, now);
    var values = new LinkedHashMap<String, String>();
    operands.forEach(o -> values.put(o, PAUSED));
    node.setDeployLabels(values);
    log.info("paused the GPU Operator operands for a MIG mode change operands={}", operands);
    state = new State.Paused(List.copyOf(operands), now, new HashSet<>());
    return true;
  }

  /** Sets back to true the operands still paused, then forgets them. Under the lock. */
  private void restore(State.Paused paused) {
    Map<String, String> labels = node.deployLabels();
    var values = new LinkedHashMap<String, String>();
    for (String operand : paused.operands()) {
      if (PAUSED.equals(labels.get(operand))) {
        values.put(operand, "true");
      }
    }
    if (!values.isEmpty()) {
      node.setDeployLabels(values);
    }
    log.info("restored the GPU Operator operands operands={}", values.keySet());
    forget();
  }

  private void restoreLeftover() {
    if (file == null || !Files.exists(file)) {
      return;
    }
    State.Paused leftover;
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      leftover =
          new State.Paused(
              lines.stream().skip(1).filter(l -> !l.isBlank()).toList(),
              Instant.parse(lines.getFirst().strip()),
              new HashSet<>());
    } catch (IOException | DateTimeParseException | java.util.NoSuchElementException e) {
      log.warn("cannot read {}: {}; the operands it named stay as they are", file, e.toString());
      forget();
      return;
    }
    synchronized (lock) {
      state = leftover;
      try {
        restore(leftover);
        state = new State.Idle();
      } catch (RuntimeException e) {
        log.warn(
            "cannot set back the GPU Operator operands a previous run paused operands={}: {};"
                + " retried after the first reconcile",
            leftover.operands(),
            e.toString());
      }
    }
  }

  private void persist(List<String> operands, Instant since) {
    try {
      AtomicFiles.write(file, since + "\n" + String.join("\n", operands) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file, e);
    }
  }

  private void forget() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.warn("cannot remove {}: {}", file, e.toString());
    }
  }
}
