package io.migd.app;

import io.migd.devices.MigStrategy;
import io.migd.plan.PlannerBound;
import io.migd.reconcile.KubeletMode;
import io.migd.reconcile.ReconcileSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The {@code migd.*} properties, read the same way by {@code serve} (Spring Boot) and by the
 * one-shot commands (Spring's binder without a context): command-line {@code --migd.x=y}, then
 * environment ({@code MIGD_NVML_LIBRARY}), then these defaults.
 *
 * @param nvml where NVML comes from
 * @param simulate GPU models to simulate ({@code --simulate=A100-SXM4-40GB,T4}); empty for the
 *     driver's NVML
 * @param stateDir where the intent and the lock live
 * @param configFile the mig-parted config file; empty for the one generated from the catalogue
 * @param config the config of that file to apply when no label or REST call says otherwise
 * @param configFilePoll how often the config file is read again (DESIGN section 13)
 * @param reconcile loop timing
 * @param reboot reboots for MIG mode changes that need one
 * @param resetCommand resets a GPU so a pending MIG mode applies, as an argument list ({pciBusId}
 *     is replaced); never split on whitespace
 * @param health liveness of the reconcile loop, and the devices' path back to health
 * @param migStrategy how MIG slices become kubelet resources: mixed, single or none; empty for the
 *     device-plugin config's {@code flags.migStrategy}, else mixed
 * @param kubelet the device plugin and PodResources sockets
 * @param cdi the CDI specs: the GPU spec NVIDIA's toolkit generates, and the claims' specs
 * @param node the Kubernetes node surface (with {@code NODE_NAME})
 * @param auth who may call the REST API ({@code /api/v1})
 * @param mps the MPS control daemons of MPS-shared GPUs and slices
 * @param dra the DRA driver, in {@code migd.kubelet.mode=dra}
 * @param sysfsRoot where sysfs is mounted (PCIe root and NUMA node of each GPU); tests give their
 *     own tree
 * @param planner how far the placement search may go for one GPU decision
 * @param devicePluginConfig NVIDIA's device-plugin config: a file, or a directory with one key per
 *     config (a ConfigMap volume); empty for none (DESIGN section 13)
 * @param devicePluginConfigDefault the key of that directory for a node without the label {@code
 *     nvidia.com/device-plugin.config}; empty for none
 * @param pause the GPU Operator operands paused while a MIG mode change waits (DESIGN section 13)
 */
@ConfigurationProperties("migd")
public record MigdProperties(
    @DefaultValue Nvml nvml,
    @DefaultValue("") String simulate,
    @DefaultValue("/var/lib/migd") Path stateDir,
    @DefaultValue("") String configFile,
    @DefaultValue("") String config,
    @DefaultValue("10s") Duration configFilePoll,
    @DefaultValue Reconcile reconcile,
    @DefaultValue Reboot reboot,
    @DefaultValue({"nvidia-smi", "-r", "-i", "{pciBusId}"}) List<String> resetCommand,
    @DefaultValue Health health,
    @DefaultValue("") String migStrategy,
    @DefaultValue Kubelet kubelet,
    @DefaultValue Cdi cdi,
    @DefaultValue Node node,
    @DefaultValue Auth auth,
    @DefaultValue Mps mps,
    @DefaultValue DraProperties dra,
    @DefaultValue("/sys") Path sysfsRoot,
    @DefaultValue Planner planner,
    @DefaultValue("") String devicePluginConfig,
    @DefaultValue("") String devicePluginConfigDefault,
    @DefaultValue Pause pause) {

  /**
   * Refuses a command element holding whitespace, and DRA mode without CDI; fills in the default
   * liveness timeout.
   */
  public MigdProperties {
    if (kubelet.enabled() && kubelet.mode() == KubeletMode.DRA && !cdi.enabled()) {
      throw new IllegalArgumentException(
          "migd.kubelet.mode=dra needs migd.cdi.enabled=true: a prepared claim names its devices"
              + " by CDI IDs whose driver libraries and hooks come from the generated GPU spec");
    }
    resetCommand = CommandList.check("migd.reset-command", resetCommand);
    if (configFilePoll.isNegative() || configFilePoll.isZero()) {
      throw new IllegalArgumentException(
          "migd.config-file-poll must be positive, got " + configFilePoll);
    }
    if (health.livenessTimeout() == null) {
      health =
          new Health(
              ReconcileSettings.defaultLivenessTimeout(reconcile.resync(), reconcile.maxBackoff()),
              health.recoveryPeriod());
    }
    if (!migStrategy.isBlank()) {
      MigStrategy.parse(migStrategy);
    }
  }

  /**
   * @param controlCommand the MPS control command ({@code nvidia-cuda-mps-control}), as an argument
   *     list; never split on whitespace. migd runs it without arguments to give a daemon commands
   * @param root the MPS root, the same path on the host and in the chart's containers: each
   *     daemon's request, state, pipe, log and shm under {@code <root>/<uuid>/}
   * @param checkInterval how often migd checks that each daemon still runs
   * @param shmSize each daemon's tmpfs, its {@code /dev/shm} and its clients'
   * @param startTimeout how long migd waits for the {@code -mps} DaemonSet's supervisor to say a
   *     daemon it asked for runs
   */
  public record Mps(
      @DefaultValue("nvidia-cuda-mps-control") List<String> controlCommand,
      @DefaultValue("/run/nvidia/mps") Path root,
      @DefaultValue("5s") Duration checkInterval,
      @DefaultValue("64MB") DataSize shmSize,
      @DefaultValue("30s") Duration startTimeout) {
    /** Refuses a command element holding whitespace, and a size or timeout that is not positive. */
    public Mps {
      controlCommand = CommandList.check("migd.mps.control-command", controlCommand);
      if (shmSize.toBytes() <= 0) {
        throw new IllegalArgumentException("migd.mps.shm-size must be positive, got " + shmSize);
      }
      if (startTimeout.isNegative() || startTimeout.isZero()) {
        throw new IllegalArgumentException(
            "migd.mps.start-timeout must be positive, got " + startTimeout);
      }
    }
  }

  /**
   * @param operands the operands whose label {@code nvidia.com/gpu.deploy.<operand>} is set to
   *     {@code paused-for-mig-change} while a MIG mode change waits on a client NVML does not list;
   *     empty turns pausing off
   * @param timeout how long a GPU waits for those operands' pods to leave the node
   */
  public record Pause(
      @DefaultValue({
            "device-plugin",
            "gpu-feature-discovery",
            "dcgm-exporter",
            "dcgm",
            "nvsm",
            "client"
          })
          List<String> operands,
      @DefaultValue("5m") Duration timeout) {
    /** Refuses a timeout that is not positive, and an operand that is not a label name part. */
    public Pause {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("migd.pause.timeout must be positive, got " + timeout);
      }
      for (String operand : operands) {
        if (!operand.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
          throw new IllegalArgumentException(
              "migd.pause.operands has \""
                  + operand
                  + "\", not an operand name (nvidia.com/gpu.deploy.<operand>: lower case letters,"
                  + " digits, '-' and '.')");
        }
      }
    }
  }

  /**
   * @param resync how often to reconcile when nothing triggers it
   * @param maxBackoff the longest wait between retries after a failure
   * @param parallelism how many GPUs are changed at once: 0 every GPU (the default), 1 one after
   *     another
   */
  public record Reconcile(
      @DefaultValue("5m") Duration resync,
      @DefaultValue("5m") Duration maxBackoff,
      @DefaultValue("0") int parallelism) {
    /** Refuses a negative parallelism. */
    public Reconcile {
      if (parallelism < 0) {
        throw new IllegalArgumentException(
            "migd.reconcile.parallelism is "
                + parallelism
                + "; give 0 (every GPU at once, the default) or how many GPUs to change at once"
                + " (1: one after another)");
      }
    }
  }

  /**
   * @param maxSteps how many search nodes the placement search may take for one GPU decision
   *     (DESIGN section 13); at the bound it plans with the best layout found so far, or fails the
   *     GPU when it found none
   */
  public record Planner(@DefaultValue("200000") long maxSteps) {
    /** Refuses a bound below 1. */
    public Planner {
      new PlannerBound(maxSteps);
    }

    /** The bound the planner takes. */
    public PlannerBound bound() {
      return new PlannerBound(maxSteps);
    }
  }

  /**
   * @param enabled whether migd may reboot the node when only a reboot applies a MIG mode
   * @param command the reboot command, as an argument list; never split on whitespace
   */
  public record Reboot(
      @DefaultValue("false") boolean enabled,
      @DefaultValue({"systemctl", "reboot"}) List<String> command) {
    /** Refuses a command element holding whitespace. */
    public Reboot {
      command = CommandList.check("migd.reboot.command", command);
    }
  }

  /**
   * @param livenessTimeout liveness turns DOWN when no reconcile has completed for this long; unset
   *     means 2 x resync + max backoff
   * @param recoveryPeriod a device marked unhealthy by an XID is healthy again after this long
   *     without another critical XID while NVML answers for it
   */
  public record Health(Duration livenessTimeout, @DefaultValue("5m") Duration recoveryPeriod) {}

  /**
   * @param enabled whether migd serves the kubelet (as its device plugin or its DRA driver)
   * @param mode {@code device-plugin} (the default) or {@code dra}: one per node, since a node
   *     cannot offer one resource both ways
   * @param devicePluginDir where the kubelet's {@code kubelet.sock} is and migd's sockets go
   * @param podResourcesSocket the kubelet's PodResources socket
   * @param allocationGrace how long a device handed out by Allocate counts as in use before its pod
   *     shows in PodResources
   * @param requirePodResources when PodResources cannot be read, treat every advertised device as
   *     in use instead of deciding from NVML processes
   */
  public record Kubelet(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("device-plugin") KubeletMode mode,
      @DefaultValue("/var/lib/kubelet/device-plugins") Path devicePluginDir,
      @DefaultValue("/var/lib/kubelet/pod-resources/kubelet.sock") Path podResourcesSocket,
      @DefaultValue("5m") Duration allocationGrace,
      @DefaultValue("false") boolean requirePodResources) {}

  /**
   * @param enabled whether migd generates the GPU spec and answers CDI device names ({@code
   *     k8s.migd.io/gpu=<UUID>} in device-plugin mode; required in dra mode)
   * @param nvidiaCtk NVIDIA's {@code nvidia-ctk}, as an argument list; migd adds {@code cdi
   *     generate} and {@code cdi transform root} with their flags
   * @param driverRoot the host's driver root, the root of the host paths in the spec
   * @param containerDriverRoot where that root is mounted in migd's container
   * @param hookPath the host's {@code nvidia-cdi-hook}, which the spec's hooks run
   * @param dir the CDI directory: the GPU spec and, in dra mode, the per-claim specs
   */
  public record Cdi(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("nvidia-ctk") List<String> nvidiaCtk,
      @DefaultValue("/") Path driverRoot,
      @DefaultValue("/driver-root") Path containerDriverRoot,
      @DefaultValue("/usr/bin/nvidia-cdi-hook") Path hookPath,
      @DefaultValue("/var/run/cdi") Path dir) {
    /** Refuses a command element holding whitespace, and paths that are not absolute. */
    public Cdi {
      nvidiaCtk = CommandList.check("migd.cdi.nvidia-ctk", nvidiaCtk);
      onTheHost("migd.cdi.driver-root", driverRoot);
      onTheHost("migd.cdi.hook-path", hookPath);
    }

    private static void onTheHost(String property, Path path) {
      if (!path.isAbsolute()) {
        throw new IllegalArgumentException(
            property + " must be an absolute path on the host, got " + path);
      }
    }
  }

  /**
   * @param capacityLabels whether migd writes the capacity labels ({@code nvidia.com/mig.capable},
   *     {@code nvidia.com/mig-<profile>.count}, ...); off where GPU Feature Discovery writes them
   * @param qps Node patches and Events per second on average (DESIGN section 13)
   * @param burst Node patches and Events that may go at once after a quiet time
   */
  public record Node(
      @DefaultValue("true") boolean capacityLabels,
      @DefaultValue("5") double qps,
      @DefaultValue("10") int burst) {
    /** Refuses a rate that cannot work. */
    public Node {
      if (!(qps > 0) || burst < 1) {
        throw new IllegalArgumentException(
            "migd.node.qps must be positive and migd.node.burst at least 1, got "
                + qps
                + " and "
                + burst);
      }
    }
  }

  /**
   * @param mode how a REST call is authenticated: {@code none} (only on a loopback address), {@code
   *     token} (the bearer token in {@code tokenFile}) or {@code kubernetes} (TokenReview, then
   *     SubjectAccessReview; needs {@code NODE_NAME})
   * @param tokenFile the file holding the one token that {@code token} mode accepts
   * @param anonymousRead let GET and HEAD calls through without a token (one given is checked)
   * @param verb the verb the caller must be allowed on the node, in {@code kubernetes} mode
   * @param group the API group of {@code resource}; empty for the core group
   * @param resource the resource named after the node, in {@code kubernetes} mode
   * @param cacheTtl how long a review's answer is reused for the same token
   * @param tokenFilePoll how often {@code tokenFile} is read again, so a rotated token takes effect
   *     without a restart
   */
  public record Auth(
      @DefaultValue("none") AuthMode mode,
      @DefaultValue("") String tokenFile,
      @DefaultValue("false") boolean anonymousRead,
      @DefaultValue("update") String verb,
      @DefaultValue("") String group,
      @DefaultValue("nodes") String resource,
      @DefaultValue("10s") Duration cacheTtl,
      @DefaultValue("10s") Duration tokenFilePoll) {}

  /** The values of {@code migd.auth.mode}. */
  public enum AuthMode {
    NONE,
    TOKEN,
    KUBERNETES
  }

  /**
   * The MIG strategy {@code migd.mig-strategy} sets, parsed; mixed when unset. {@code serve} takes
   * an unset one from the device-plugin config ({@link DevicePluginConfigSource#strategy}).
   */
  public MigStrategy strategy() {
    return migStrategy.isBlank() ? MigStrategy.MIXED : MigStrategy.parse(migStrategy);
  }

  /**
   * @param library the NVML library to load: a path, or a name the dynamic linker finds
   * @param extractDir where the bundled simulated library is extracted; empty for a temp dir
   * @param resetWait how long a reader (a scrape, a REST call) waits for a GPU reset before it
   *     answers that the reset is in progress
   */
  public record Nvml(
      @DefaultValue("libnvidia-ml.so.1") String library,
      @DefaultValue("") String extractDir,
      @DefaultValue("5s") Duration resetWait) {}

  /** Whether migd runs on simulated GPUs. */
  public boolean simulated() {
    return !simulate.isBlank();
  }
}
