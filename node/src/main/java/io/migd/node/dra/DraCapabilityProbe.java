package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides at start what the API server supports (DESIGN section 12 "Kubernetes versions"): below
 * 1.34 DRA mode is refused; from 1.36 dynamic devices are published; on 1.35 only when {@code
 * migd.dra.partitionable} is set and a counter slice written reads back with its {@code
 * sharedCounters} (the API server drops them while the partitionable-devices gate is off). Device
 * taints are checked the same way: a tainted device is written and read back. Shareable twins, when
 * {@code migd.dra.shares} asks for them, pass the version gates of {@link SharesGate} and then a
 * probe twin ({@code allowMultipleAllocations} and a capacity with a request policy) must read back
 * whole (the API server drops both while DRAConsumableCapacity is off).
 *
 * <p>The probe slices belong to a pool of their own, {@code <node>/migd-probe}, which says it has
 * one slice more than is ever written: an incomplete pool, from which no scheduler allocates. They
 * are deleted again, and owned by the Node in case migd dies before it does.
 */
public final class DraCapabilityProbe {
  private static final Logger log = LoggerFactory.getLogger(DraCapabilityProbe.class);
  private static final Pattern MINOR = Pattern.compile("^(\\d+)");
  private static final String PROBE_KEY = "migd.io/probe";
  private static final int TOO_MANY_REQUESTS = 429;
  private static final long GIB = 1L << 30;

  private final KubernetesClient client;
  private final String driver;
  private final String nodeName;

  /** Probes for {@code driver} on the node {@code nodeName}. */
  public DraCapabilityProbe(KubernetesClient client, String driver, String nodeName) {
    this.client = Objects.requireNonNull(client);
    this.driver = Objects.requireNonNull(driver);
    this.nodeName = Objects.requireNonNull(nodeName);
  }

  /**
   * One attempt: what the API server supports, said once in the log. {@link ProbedCapabilities}
   * repeats it while the API server does not answer.
   *
   * @param partitionable {@code migd.dra.partitionable}: the operator enabled partitionable devices
   *     on a 1.35 cluster
   * @throws UnsupportedKubernetesException below Kubernetes 1.34
   * @throws UnansweredException when the API server does not answer (no connection, a 5xx, or a 429
   *     Too Many Requests): a failing probe slice is never taken for a dropped field
   */
  public DraCapabilities probe(boolean partitionable) {
    return probe(partitionable, false);
  }

  /**
   * As {@link #probe(boolean)}; with {@code shares} ({@code migd.dra.shares}) the gates of
   * shareable twins are checked too, and a shut one is logged once, naming it and why.
   */
  public DraCapabilities probe(boolean partitionable, boolean shares) {
    try {
      return probeOnce(partitionable, shares);
    } catch (KubernetesClientException e) {
      if (unanswered(e)) {
        throw new UnansweredException(e);
      }
      throw e;
    }
  }

  /**
   * The API server did not answer a request of the probe: no connection, a 5xx, or a 429 (its
   * priority and fairness turned the request away for now).
   */
  public static final class UnansweredException extends RuntimeException {
    UnansweredException(KubernetesClientException cause) {
      super(
          cause.getMessage() == null
              ? cause.toString()
              : cause.getMessage().lines().findFirst().orElse(cause.toString()),
          cause);
    }
  }

  /**
   * A request the API server did not answer: no connection, a 5xx, or a 429 Too Many Requests (a
   * busy API server's answer to try again later, never a refusal of DRA mode).
   */
  private static boolean unanswered(KubernetesClientException e) {
    return e.getCode() == 0 || e.getCode() == TOO_MANY_REQUESTS || e.getCode() >= 500;
  }

  private DraCapabilities probeOnce(boolean partitionable, boolean sharesAsked) {
    VersionInfo version = client.getKubernetesVersion();
    int major = number(version.getMajor());
    int minor = number(version.getMinor());
    String seen = "Kubernetes " + major + "." + minor;
    if (major < 1 || (major == 1 && minor < 34)) {
      throw new UnsupportedKubernetesException(
          "migd.kubelet.mode=dra needs Kubernetes 1.34 or later (resource.k8s.io/v1); the API"
              + " server is "
              + seen);
    }
    Node node = node();
    String nodeUid = node == null ? null : node.getMetadata().getUid();
    boolean taints = taintsKept(nodeUid);
    boolean dynamic;
    String why;
    if (major > 1 || minor >= 36) {
      dynamic = true;
      why = seen + " schedules partitionable devices";
    } else if (minor == 35 && partitionable) {
      dynamic = countersKept(nodeUid);
      why =
          dynamic
              ? seen + " with migd.dra.partitionable=true, and a counter slice read back intact"
              : seen
                  + " with migd.dra.partitionable=true, but the API server dropped the shared"
                  + " counters of a slice (enable the DRAPartitionableDevices feature gate):"
                  + " every GPU is static";
    } else if (minor == 35) {
      dynamic = false;
      why =
          seen
              + " without migd.dra.partitionable=true (partitionable devices are alpha before"
              + " 1.36): every GPU is static";
    } else {
      dynamic = false;
      why = seen + " has no partitionable devices: every GPU is static";
    }
    if (!taints) {
      why +=
          "; the API server drops device taints (the DRADeviceTaints feature gate is off), so an"
              + " unhealthy device is left out of its slice instead";
    }
    boolean shares = sharesAsked && sharesTaken(version, node, nodeUid);
    var capabilities = new DraCapabilities(dynamic, taints, shares, why);
    log.info(
        "DRA on {}: dynamicDevices={} deviceTaints={} shares={}: {}",
        seen,
        dynamic,
        taints,
        shares,
        why);
    return capabilities;
  }

  /**
   * Whether shareable twins pass the version gates and a probe twin reads back whole; a shut gate
   * is logged, naming it.
   */
  private boolean sharesTaken(VersionInfo version, Node node, String nodeUid) {
    String kubelet =
        node != null && node.getStatus() != null && node.getStatus().getNodeInfo() != null
            ? node.getStatus().getNodeInfo().getKubeletVersion()
            : null;
    var shut = SharesGate.shutByVersions(version.getGitVersion(), kubelet);
    if (shut.isEmpty() && !twinKept(nodeUid)) {
      shut =
          Optional.of(
              "the API server dropped allowMultipleAllocations or the capacity's request policy of"
                  + " a probe twin (is the DRAConsumableCapacity feature gate off?)");
    }
    if (shut.isPresent()) {
      log.warn(
          "shares are off (migd.dra.shares=true): {}; no shareable twin is published", shut.get());
      return false;
    }
    log.info(
        "shares are on: kube-apiserver {} and kubelet {} take them, and a probe twin read back"
            + " whole",
        version.getGitVersion(),
        kubelet);
    return true;
  }

  /**
   * The Node, for the probe slices' owner and the kubelet's version; null when it cannot be read
   * (no owner then, and no shares).
   */
  private Node node() {
    try {
      return client.nodes().withName(nodeName).get();
    } catch (KubernetesClientException e) {
      if (unanswered(e)) {
        throw e;
      }
      log.warn("cannot read node {}: {}; the probe slices have no owner", nodeName, e.toString());
      return null;
    }
  }

  private boolean taintsKept(String nodeUid) {
    return readsBack(
        nodeUid,
        "taints",
        spec ->
            spec.withDevices(
                new DeviceBuilder()
                    .withName("probe")
                    .withTaints(
                        new DeviceTaintBuilder()
                            .withKey(PROBE_KEY)
                            .withValue("taint")
                            .withEffect("NoSchedule")
                            .withTimeAdded(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
                            .build())
                    .build()),
        slice ->
            slice.getSpec().getDevices() != null
                && slice.getSpec().getDevices().stream()
                    .anyMatch(d -> d.getTaints() != null && !d.getTaints().isEmpty()));
  }

  private boolean twinKept(String nodeUid) {
    var memory =
        new DeviceCapacity(
            new CapacityRequestPolicy(
                SliceObjects.quantity(GIB),
                new CapacityRequestPolicyRange(
                    null, SliceObjects.quantity(GIB), SliceObjects.quantity(GIB / 4)),
                null),
            SliceObjects.quantity(2 * GIB));
    return readsBack(
        nodeUid,
        "shares",
        spec ->
            spec.withDevices(
                new DeviceBuilder()
                    .withName("probe-shared")
                    .withAllowMultipleAllocations(true)
                    .withCapacity(Map.of("memory", memory))
                    .build()),
        slice ->
            slice.getSpec().getDevices() != null
                && slice.getSpec().getDevices().stream()
                    .anyMatch(
                        d ->
                            Boolean.TRUE.equals(d.getAllowMultipleAllocations())
                                && d.getCapacity() != null
                                && d.getCapacity().get("memory") instanceof DeviceCapacity c
                                && c.getRequestPolicy() != null
                                && c.getRequestPolicy().getValidRange() != null));
  }

  private boolean countersKept(String nodeUid) {
    return readsBack(
        nodeUid,
        "counters",
        spec ->
            spec.withSharedCounters(
                new CounterSetBuilder()
                    .withName("probe-counter-set")
                    .withCounters(Map.of("memory-slice-0", new Counter(SliceObjects.quantity(1))))
                    .build()),
        slice ->
            slice.getSpec().getSharedCounters() != null
                && !slice.getSpec().getSharedCounters().isEmpty());
  }

  /**
   * Writes a probe slice, reads it back and deletes it; whether {@code kept} holds of what was
   * read. A failure to write or read counts as not kept (the safe side), and is logged.
   */
  private boolean readsBack(
      String nodeUid,
      String what,
      UnaryOperator<ResourceSliceSpecBuilder> content,
      Predicate<ResourceSlice> kept) {
    String name = "probe-" + what + "-" + driver + "-" + nodeName;
    var slices = client.dynamicResourceAllocation().v1().resourcesSlices();
    var metadata = new ObjectMetaBuilder().withName(name).withLabels(Map.of(PROBE_KEY, what));
    if (nodeUid != null) {
      metadata.withOwnerReferences(
          new OwnerReferenceBuilder()
              .withApiVersion("v1")
              .withKind("Node")
              .withName(nodeName)
              .withUid(nodeUid)
              .build());
    }
    ResourceSlice probe =
        new ResourceSliceBuilder()
            .withMetadata(metadata.build())
            .withSpec(
                content
                    .apply(
                        new ResourceSliceSpecBuilder()
                            .withDriver(driver)
                            .withNodeName(nodeName)
                            .withNewPool()
                            .withName(nodeName + "/migd-probe")
                            .withGeneration(0L)
                            .withResourceSliceCount(2L)
                            .endPool())
                    .build())
            .build();
    try {
      slices.withName(name).delete();
      slices.resource(probe).create();
      ResourceSlice read = slices.withName(name).get();
      return read != null && read.getSpec() != null && kept.test(read);
    } catch (KubernetesClientException e) {
      if (unanswered(e)) {
        throw e;
      }
      log.warn(
          "cannot probe whether the API server keeps device {} (slice {}): {}; taken as not",
          what,
          name,
          e.toString());
      return false;
    } finally {
      try {
        slices.withName(name).delete();
      } catch (RuntimeException e) {
        log.warn("cannot delete the probe slice {}: {}", name, e.toString());
      }
    }
  }

  private static int number(String part) {
    Matcher matcher = MINOR.matcher(part == null ? "" : part.strip());
    if (!matcher.find()) {
      throw new IllegalStateException(
          "the API server's version part \"" + part + "\" is no number");
    }
    return Integer.parseInt(matcher.group(1));
  }
}
