package io.migd.cdi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.migd.claims.CdiDevice;
import io.migd.claims.ClaimCdi;
import io.migd.ownership.ClaimDevice;
import io.migd.reconcile.AtomicFiles;
import io.migd.sharing.ClientEdits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * {@link ClaimCdi} as files: one transient CDI spec per claim, {@code
 * <cdi-dir>/k8s.migd.io-claim_<claim UID>.yaml} (kind {@code k8s.migd.io/claim}), replaced
 * atomically. The spec gives every container of the claim {@code /dev/nvidiactl}, {@code
 * /dev/nvidia-uvm} and {@code /dev/nvidia-uvm-tools}; each device {@code <claim UID>-<device name>}
 * adds its GPU's {@code /dev/nvidia<minor>} and, for a MIG device, the GPU- and compute-instance
 * capability nodes as character devices. The spec-level edits are a copy of the generated GPU
 * spec's common edits (driver libraries, hooks, {@link CommonEdits}), so a device answers one CDI
 * ID, {@code k8s.migd.io/claim=<claim UID>-<device name>}, that needs no other spec: no device is
 * named by its MIG UUID and no {@code NVIDIA_VISIBLE_DEVICES} names a device.
 */
public final class ClaimCdiSpecs implements ClaimCdi {
  /** 0.5.0 is the first version that allows device names starting with a digit (claim UIDs). */
  static final String CDI_VERSION = "0.5.0";

  private static final List<String> CONTROL_NODES =
      List.of("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools");
  private static final Pattern CLAIM_UID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
          .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
          .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
          .changeDefaultPropertyInclusion(
              inclusion -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL))
          .build();

  private final Path cdiDir;
  private final CapabilityNodes capabilities;
  private final CommonEdits common;

  /**
   * Specs written into {@code cdiDir} ({@code migd.cdi.dir}, {@code /var/run/cdi} on a node), MIG
   * capability nodes read through {@code capabilities}, the spec-level edits copied from {@code
   * common}.
   */
  public ClaimCdiSpecs(Path cdiDir, CapabilityNodes capabilities, CommonEdits common) {
    this.cdiDir = cdiDir;
    this.capabilities = capabilities;
    this.common = common;
  }

  @Override
  public List<String> write(String claimUid, List<CdiDevice> devices) {
    Path file = specFile(claimUid);
    var specDevices = new ArrayList<Device>();
    var ids = new ArrayList<String>();
    for (CdiDevice device : devices) {
      specDevices.add(
          new Device(device.cdiName(claimUid), Edits.of(nodesOf(device), device.sharing())));
      ids.addAll(device.cdiIds(claimUid));
    }
    var spec = new Spec(CDI_VERSION, CdiDevice.CLAIM_KIND, specDevices, commonEdits());
    try {
      // the kubelet prepares its claims again after a reboot: no flush to the disk to wait for
      AtomicFiles.writeForThisBoot(file, YAML.writeValueAsString(spec));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "writing the CDI spec of claim " + claimUid + " to " + file, e);
    }
    return List.copyOf(ids);
  }

  @Override
  public void remove(String claimUid) {
    Path file = specFile(claimUid);
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("removing the CDI spec of claim " + claimUid + ": " + file, e);
    }
  }

  /** The spec file of a claim. */
  public Path specFile(String claimUid) {
    if (!CLAIM_UID.matcher(claimUid).matches()) {
      throw new IllegalArgumentException(
          "claim UID \"" + claimUid + "\" cannot name a CDI device or a file");
    }
    return cdiDir.resolve("k8s.migd.io-claim_" + claimUid + ".yaml");
  }

  /** The GPU spec's common edits, with the control nodes it lacks added. */
  private JsonNode commonEdits() {
    JsonNode edits = common.current();
    ObjectNode copy = edits.isObject() ? (ObjectNode) edits : YAML.createObjectNode();
    ArrayNode nodes =
        copy.path("deviceNodes").isArray()
            ? (ArrayNode) copy.get("deviceNodes")
            : copy.putArray("deviceNodes");
    var present = new ArrayList<String>();
    nodes.forEach(n -> present.add(n.path("path").asString("")));
    for (String control : CONTROL_NODES) {
      if (!present.contains(control)) {
        nodes.addObject().put("path", control);
      }
    }
    return copy;
  }

  private List<DeviceNode> nodesOf(CdiDevice device) {
    var nodes = new ArrayList<DeviceNode>();
    nodes.add(DeviceNode.of("/dev/nvidia" + device.gpuMinor()));
    switch (device.device()) {
      case ClaimDevice.Whole _ -> {}
      case ClaimDevice.Made(var name, var gpu, var uuid, var mig) -> {
        nodes.add(DeviceNode.of(capabilities.gpuInstance(device.gpuMinor(), mig.gpuInstanceId())));
        nodes.add(
            DeviceNode.of(
                capabilities.computeInstance(
                    device.gpuMinor(), mig.gpuInstanceId(), mig.computeInstanceId())));
      }
      case ClaimDevice.Planned p ->
          throw new IllegalStateException(p.name() + ": a planned placement has no CDI device");
    }
    return nodes;
  }

  // The CDI spec's shape (container-device-interface specs-go/config.go), only the fields written.
  private record Spec(
      String cdiVersion, String kind, List<Device> devices, JsonNode containerEdits) {}

  private record Device(String name, Edits containerEdits) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private record Edits(List<String> env, List<DeviceNode> deviceNodes, List<Mount> mounts) {
    static Edits of(List<DeviceNode> nodes, ClientEdits sharing) {
      return new Edits(
          sharing.env().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList(),
          nodes,
          sharing.mounts().stream()
              .map(
                  m ->
                      new Mount(
                          m.hostPath().toString(),
                          m.containerPath().toString(),
                          List.of("rw", "nosuid", "nodev", "bind")))
              .toList());
    }
  }

  private record Mount(String hostPath, String containerPath, List<String> options) {}

  private record DeviceNode(
      String path, String type, Integer major, Integer minor, Integer fileMode) {
    static DeviceNode of(String path) {
      return new DeviceNode(path, null, null, null, null);
    }

    static DeviceNode of(CapabilityNode node) {
      return new DeviceNode(node.path(), "c", node.major(), node.minor(), node.fileMode());
    }
  }
}
