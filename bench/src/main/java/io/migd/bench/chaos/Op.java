package io.migd.bench.chaos;

import java.util.Arrays;
import java.util.List;

/**
 * One operation of a chaos run. Each carries everything it needs, so a trace line ({@link #line()})
 * read back with {@link #parse} repeats it; what an operation aims at that only exists at run time
 * (a slice, a pod) is chosen by position ({@code which}, taken modulo what exists then).
 */
sealed interface Op {
  /** The operation as one trace line: its kind, then its fields separated by tabs. */
  String line();

  /** {@code PUT /api/v1/layout} with {@code body}, as a dry run or with a stale If-Match. */
  record PutLayout(boolean dryRun, boolean staleIfMatch, String body) implements Op {
    @Override
    public String line() {
      return "put\t" + dryRun + "\t" + staleIfMatch + "\t" + body;
    }
  }

  /** Sets the node label {@code nvidia.com/mig.config} to {@code config}. */
  record Label(String config) implements Op {
    @Override
    public String line() {
      return "label\t" + config;
    }
  }

  /** Starts a compute process {@code pid} (nvml-sim) on the {@code which}-th slice of a GPU. */
  record Attach(int gpu, int which, int pid) implements Op {
    @Override
    public String line() {
      return "attach\t" + gpu + "\t" + which + "\t" + pid;
    }
  }

  /**
   * (DRA) A claim {@code chaos/<claim>} for one device ({@code request}: {@code profile=<name>} or
   * {@code type=gpu}) is allocated by the test allocator from the published pool, created in the
   * API server, and prepared by the kubelet ({@code NodePrepareResources}).
   */
  record Prepare(String request, String claim) implements Op {
    @Override
    public String line() {
      return "prepare\t" + request + "\t" + claim;
    }
  }

  /**
   * (DRA) The kubelet unprepares the {@code which}-th claim it knows ({@code
   * NodeUnprepareResources}); once that succeeds the claim is deleted.
   */
  record Unprepare(int which) implements Op {
    @Override
    public String line() {
      return "unprepare\t" + which;
    }
  }

  /** Ends the {@code which}-th attached process. */
  record Detach(int which) implements Op {
    @Override
    public String line() {
      return "detach\t" + which;
    }
  }

  /**
   * The kubelet allocates the {@code which}-th advertised device (Allocate) to a new pod, which
   * then runs (PodResources lists it).
   */
  record StartPod(int which, String pod) implements Op {
    @Override
    public String line() {
      return "pod\t" + which + "\t" + pod;
    }
  }

  /** The {@code which}-th running pod ends (PodResources no longer lists it). */
  record EndPod(int which) implements Op {
    @Override
    public String line() {
      return "endpod\t" + which;
    }
  }

  /** An XID on a GPU (nvml-sim xid), on its {@code which}-th GPU instance when MIG is on. */
  record Xid(int gpu, int which, int code) implements Op {
    @Override
    public String line() {
      return "xid\t" + gpu + "\t" + which + "\t" + code;
    }
  }

  /**
   * The kubelet restarts: its directory is emptied and a new {@code kubelet.sock} appears (device
   * plugin); in DRA mode the plugin's registration socket is removed (migd registers again).
   */
  record KubeletRestart() implements Op {
    @Override
    public String line() {
      return "kubelet-restart";
    }
  }

  /** The API server answers every request with 500 for {@code seconds}. */
  record ApiOutage(int seconds) implements Op {
    @Override
    public String line() {
      return "api-outage\t" + seconds;
    }
  }

  /**
   * SIGKILL of migd, then a restart whose NVML has the fault table {@code faults} ({@code
   * NVML_SIM_FAULTS}; empty for none).
   */
  record Kill(String faults) implements Op {
    @Override
    public String line() {
      return "kill\t" + faults;
    }
  }

  /** One request of {@link HostileRequests}' table, by its index. */
  record Hostile(int kind) implements Op {
    @Override
    public String line() {
      return "hostile\t" + kind;
    }
  }

  /**
   * Faults stop, pods end, processes detach; the node must then converge to the newest intent, and
   * every invariant that needs a node at rest is checked.
   */
  record Settle() implements Op {
    @Override
    public String line() {
      return "settle";
    }
  }

  /** The operation a {@link #line()} wrote. */
  static Op parse(String line) {
    List<String> f = Arrays.asList(line.split("\t", -1));
    return switch (f.getFirst()) {
      case "put" ->
          new PutLayout(
              Boolean.parseBoolean(f.get(1)),
              Boolean.parseBoolean(f.get(2)),
              String.join("\t", f.subList(3, f.size())));
      case "label" -> new Label(f.get(1));
      case "attach" -> new Attach(integer(f, 1), integer(f, 2), integer(f, 3));
      case "detach" -> new Detach(integer(f, 1));
      case "prepare" -> new Prepare(f.get(1), f.get(2));
      case "unprepare" -> new Unprepare(integer(f, 1));
      case "pod" -> new StartPod(integer(f, 1), f.get(2));
      case "endpod" -> new EndPod(integer(f, 1));
      case "xid" -> new Xid(integer(f, 1), integer(f, 2), integer(f, 3));
      case "kubelet-restart" -> new KubeletRestart();
      case "api-outage" -> new ApiOutage(integer(f, 1));
      case "kill" -> new Kill(f.size() > 1 ? f.get(1) : "");
      case "hostile" -> new Hostile(integer(f, 1));
      case "settle" -> new Settle();
      default -> throw new IllegalArgumentException("not an operation: " + line);
    };
  }

  private static int integer(List<String> fields, int i) {
    return Integer.parseInt(fields.get(i));
  }
}
