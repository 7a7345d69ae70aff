package io.migd.node.dra;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.migd.ownership.ClaimKey;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Warning Event {@code SharedDeviceOverlap} about the node when a claim's prepare found it
 * allocated over a shared device, or a share allocated over a device another claim holds (DESIGN
 * section 14); its message names the claim. About the Node, in namespace {@code default}, as the
 * node's other Events: the chart's RBAC and admission policy let migd write Events about its own
 * node only. Best-effort and off the caller's thread: an Event that cannot be created is logged and
 * dropped.
 */
public final class ShareOverlapEvents {
  /** The Event's reason. */
  public static final String REASON = "SharedDeviceOverlap";

  private static final Logger log = LoggerFactory.getLogger(ShareOverlapEvents.class);

  private final KubernetesClient client;
  private final String node;
  // unique, and in the order written, like the kubelet's <name>.<hex time>
  private final AtomicLong stamp = new AtomicLong();

  /** Events written through {@code client}, reported by migd on {@code node}. */
  public ShareOverlapEvents(KubernetesClient client, String node) {
    this.client = client;
    this.node = node;
  }

  /** Writes the Event for {@code claim} with {@code message}, on a thread of its own. */
  public void warn(ClaimKey claim, String message) {
    Thread.ofVirtual()
        .name("migd-share-overlap-event")
        .start(
            () -> {
              try {
                String time = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
                client
                    .v1()
                    .events()
                    .inNamespace("default")
                    .resource(
                        new EventBuilder()
                            .withNewMetadata()
                            .withName(
                                node
                                    + "."
                                    + Long.toHexString(
                                        stamp.updateAndGet(
                                            was ->
                                                Math.max(
                                                    was + 1, System.currentTimeMillis() * 1000))))
                            .withNamespace("default")
                            .endMetadata()
                            .withNewInvolvedObject()
                            .withApiVersion("v1")
                            .withKind("Node")
                            .withName(node)
                            .endInvolvedObject()
                            .withReason(REASON)
                            .withMessage(message)
                            .withType("Warning")
                            .withNewSource()
                            .withComponent("migd")
                            .withHost(node)
                            .endSource()
                            .withFirstTimestamp(time)
                            .withLastTimestamp(time)
                            .withCount(1)
                            .build())
                    .create();
              } catch (RuntimeException e) {
                log.warn(
                    "cannot create the Event {} on claim {}: {}",
                    REASON,
                    claim.label(),
                    e.toString());
              }
            });
  }
}
