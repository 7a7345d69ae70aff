package io.migd.node;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which Node Events a reconcile's outcome brings: one per state transition, never one per retry or
 * resync. Fed every outcome in order, on one thread (the reconcile loop's).
 *
 * <ul>
 *   <li>{@code GpuReplaced} once for a generation made because GPUs were replaced ({@link
 *       Desired#replaced}), naming each, before the others.
 *   <li>{@code Reconfiguring} when a reconcile ran a plan (or left a change applying or waiting on
 *       a reboot) and the node was not already reconfiguring for that intent generation: after the
 *       node was at rest in {@code success}, or first for a new generation. It is sent with the
 *       event of where that reconcile ended, just before it.
 *   <li>{@code Reconfigured} when the node state becomes {@code success} after anything else
 *       (including {@code Reconfiguring}).
 *   <li>{@code ReconfigureBlocked} when it becomes {@code blocked}.
 *   <li>{@code ReconfigureFailed} when it becomes {@code failed} or {@code infeasible}.
 * </ul>
 *
 * A node found in {@code success} at start, with nothing to do, gets no Event.
 */
final class NodeEvents {
  /** The namespace of Events about cluster-scoped objects such as Nodes, as the kubelet's. */
  static final String NAMESPACE = "default";

  /** The component Events are reported by. */
  static final String COMPONENT = "migd";

  /** One Node Event: its reason (the names above), Normal or Warning, and its message. */
  record Event(String reason, boolean warning, String message) {
    /** The core/v1 Event named {@code name} about the Node, as the kubelet writes its own. */
    io.fabric8.kubernetes.api.model.Event toKubernetes(
        String name, String nodeName, String nodeUid, Instant at) {
      String time = at.truncatedTo(ChronoUnit.SECONDS).toString();
      return new EventBuilder()
          .withNewMetadata()
          .withName(name)
          .withNamespace(NAMESPACE)
          .endMetadata()
          .withNewInvolvedObject()
          .withApiVersion("v1")
          .withKind("Node")
          .withName(nodeName)
          .withUid(nodeUid)
          .endInvolvedObject()
          .withReason(reason)
          .withMessage(message)
          .withType(warning ? "Warning" : "Normal")
          .withNewSource()
          .withComponent(COMPONENT)
          .withHost(nodeName)
          .endSource()
          .withReportingComponent(COMPONENT)
          .withReportingInstance(nodeName)
          .withFirstTimestamp(time)
          .withLastTimestamp(time)
          .withCount(1)
          .build();
    }
  }

  /** Where a reconcile ended, as far as Events tell it. */
  private enum End {
    RECONFIGURED,
    BLOCKED,
    FAILED
  }

  private End last = End.RECONFIGURED;
  private long reconfiguringGeneration = -1;
  private long replacedGeneration = -1;

  /** The Events this outcome brings, in the order to send them; empty for most outcomes. */
  /**
   * A plan is about to run on a GPU: {@code Reconfiguring} now, unless the node is already
   * reconfiguring for this generation; the outcome after it then sends none.
   */
  Optional<Event> planStarted(Desired desired) {
    if (last == End.RECONFIGURED || reconfiguringGeneration != desired.generation()) {
      reconfiguringGeneration = desired.generation();
      last = null;
      return Optional.of(new Event("Reconfiguring", false, reconfiguring(desired)));
    }
    return Optional.empty();
  }

  List<Event> after(Desired desired, Outcome outcome) {
    var events = new ArrayList<Event>();
    if (!desired.replaced().isEmpty() && replacedGeneration != desired.generation()) {
      replacedGeneration = desired.generation();
      events.add(
          new Event(
              "GpuReplaced",
              false,
              String.join("; ", desired.replaced().values())
                  + "; "
                  + reconfiguring(desired)
                  + " to the GPUs present"));
    }
    GpuResult.State state = outcome.state();
    boolean changing =
        state == GpuResult.State.APPLYING
            || state == GpuResult.State.REBOOTING
            || outcome.results().values().stream().anyMatch(NodeEvents::ranAPlan);
    if (changing && (last == End.RECONFIGURED || reconfiguringGeneration != desired.generation())) {
      reconfiguringGeneration = desired.generation();
      last = null;
      events.add(new Event("Reconfiguring", false, reconfiguring(desired)));
    }
    End end =
        switch (state) {
          case SUCCESS, UNMANAGED -> End.RECONFIGURED;
          case BLOCKED -> End.BLOCKED;
          case FAILED, INFEASIBLE -> End.FAILED;
          case APPLYING, REBOOTING -> null;
        };
    if (end != null && end != last) {
      last = end;
      events.add(
          switch (end) {
            case RECONFIGURED -> new Event("Reconfigured", false, outcome.reason());
            case BLOCKED -> new Event("ReconfigureBlocked", true, outcome.reason());
            case FAILED -> new Event("ReconfigureFailed", true, outcome.reason());
          });
    }
    return events;
  }

  /** Whether the GPU's result comes from running a plan (a failed step included). */
  private static boolean ranAPlan(GpuResult result) {
    return switch (result) {
      case GpuResult.Applied _, GpuResult.Applying _, GpuResult.Rebooting _ -> true;
      case GpuResult.Failed(var step, var _, var _) -> step != null;
      case GpuResult.InSync _,
          GpuResult.Unmanaged _,
          GpuResult.Blocked _,
          GpuResult.AwaitingModeChange _,
          GpuResult.Infeasible _ ->
          false;
    };
  }

  private static String reconfiguring(Desired desired) {
    String what =
        switch (desired.intent()) {
          case Desired.Intent.NamedConfig(var name) -> "config " + name;
          case Desired.Intent.Layout _ -> "an explicit layout";
          case Desired.Intent.Nothing() -> "no intent";
        };
    return "applying "
        + what
        + " (from the "
        + desired.source().wireName()
        + ", generation "
        + desired.generation()
        + ")";
  }
}
