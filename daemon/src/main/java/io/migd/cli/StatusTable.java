package io.migd.cli;

import io.migd.api.rest.GpuDecision;
import io.migd.api.rest.GpuStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code migd status} as two tables a person reads, aligned as {@code kubectl get} prints them
 * (upper-case headers, columns three spaces apart, no borders, {@code -} for what is not known):
 * one row per GPU, then one row per slice.
 */
final class StatusTable {
  private static final long MIB = 1024 * 1024;
  private static final String NONE = "-";

  private StatusTable() {}

  static String render(NodeStatus status) {
    var gpuRows = new ArrayList<List<String>>();
    gpuRows.add(List.of("GPU", "MODEL", "MIG", "STATE", "REASON"));
    var sliceRows = new ArrayList<List<String>>();
    sliceRows.add(
        List.of("GPU", "GI", "CI", "PROFILE", "PLACEMENT", "UUID", "MEMORY USED", "HELD BY"));
    for (GpuStatus gpu : status.gpus()) {
      GpuDecision state = status.states().get(gpu.index());
      String reason = state == null ? NONE : state.reason();
      if (gpu.error() != null) {
        reason = gpu.error();
      }
      gpuRows.add(
          List.of(
              String.valueOf(gpu.index()),
              orNone(gpu.model()),
              migMode(gpu),
              state == null || state.state() == null ? NONE : state.state(),
              reason));
      if (gpu.slices() == null) {
        continue;
      }
      for (GpuStatus.Slice slice : gpu.slices()) {
        Long used =
            status
                .memoryUsedBytes()
                .get(new NodeStatus.GpuInstanceKey(gpu.index(), slice.gpuInstanceId()));
        sliceRows.add(
            List.of(
                String.valueOf(gpu.index()),
                String.valueOf(slice.gpuInstanceId()),
                String.valueOf(slice.computeInstanceId()),
                slice.profile(),
                slice.placement().start() + ":" + slice.placement().size(),
                orNone(slice.uuid()),
                used == null ? NONE : used / MIB + "MiB",
                heldBy(slice)));
      }
    }
    var text = new StringBuilder(align(gpuRows));
    if (sliceRows.size() > 1) {
      text.append('\n').append(align(sliceRows));
    }
    return text.toString();
  }

  private static String migMode(GpuStatus gpu) {
    if (gpu.migCapable() == null || gpu.migMode() == null) {
      return NONE;
    }
    if (!gpu.migCapable()) {
      return "n/a";
    }
    String current = gpu.migMode().current() ? "enabled" : "disabled";
    if (gpu.migMode().pending() == gpu.migMode().current()) {
      return current;
    }
    return current + " (" + (gpu.migMode().pending() ? "enabled" : "disabled") + " after reset)";
  }

  private static String heldBy(GpuStatus.Slice slice) {
    var holders = new ArrayList<String>();
    if (slice.claim() != null) {
      var claim = slice.claim();
      holders.add(
          "claim "
              + claim.namespace()
              + "/"
              + claim.name()
              + (claim.prepared() ? "" : " (preparing)"));
    }
    holders.addAll(slice.pods());
    return holders.isEmpty() ? NONE : String.join(", ", holders);
  }

  private static String orNone(String value) {
    return value == null || value.isEmpty() ? NONE : value;
  }

  /** Pads every column but the last to its widest cell, three spaces apart. */
  private static String align(List<List<String>> rows) {
    int columns = rows.getFirst().size();
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    var text = new StringBuilder();
    for (List<String> row : rows) {
      var line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        line.append(row.get(c));
        if (c < columns - 1) {
          line.repeat(' ', widths[c] - row.get(c).length() + 3);
        }
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }
}
