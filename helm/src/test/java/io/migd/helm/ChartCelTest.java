package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The CEL the chart renders, evaluated: the admission policy admits migd's writes to its own node's
 * ResourceSlices and denies the others, and each DeviceClass selects exactly the devices it names.
 */
class ChartCelTest {
  private static final Chart.Manifests CHART =
      Chart.render(
          Map.of(
              "nodeGroups[0].kubelet.mode", "dra",
              "dra.deviceClasses.create", "true",
              "dra.extendedResources", "true",
              "dra.shares", "true"),
          "1.36.0");
  private static final JsonNode SLICES_POLICY =
      CHART.named("ValidatingAdmissionPolicy", "migd-resourceslices");
  static final String MIGD = "system:serviceaccount:" + Chart.NAMESPACE + ":migd";
  private static final String DRIVER = "gpu.nvidia.com";

  @Test
  void migdWritesItsOwnNodesSlices() {
    assertThat(admit("CREATE", MIGD, "node-a", slice("node-a"), null)).isEmpty();
    assertThat(admit("UPDATE", MIGD, "node-a", slice("node-a"), slice("node-a"))).isEmpty();
    assertThat(admit("DELETE", MIGD, "node-a", null, slice("node-a"))).isEmpty();
  }

  @Test
  void migdCannotWriteAnotherNodesSlices() {
    assertThat(admit("CREATE", MIGD, "node-a", slice("node-b"), null))
        .contains(
            MIGD
                + " on node node-a may write only that node's ResourceSlices, not those of node node-b");
    assertThat(admit("UPDATE", MIGD, "node-a", slice("node-b"), slice("node-b"))).isPresent();
    assertThat(admit("DELETE", MIGD, "node-a", null, slice("node-b"))).isPresent();
    assertThat(admit("CREATE", MIGD, "node-a", Map.of("spec", Map.of("allNodes", true)), null))
        .contains(
            MIGD
                + " on node node-a may write only that node's ResourceSlices, not a slice without a node");
  }

  @Test
  void aTokenThatNamesNoNodeWritesNoSlice() {
    assertThat(admit("CREATE", MIGD, null, slice("node-a"), null))
        .hasValueSatisfying(m -> assertThat(m).contains("its token names no node"));
  }

  @Test
  void otherUsersAreNotMatched() {
    var policy = SLICES_POLICY.path("spec");
    var request = request("CREATE", "system:serviceaccount:other:driver", "node-a");

    assertThat(CelExpressions.test(condition(policy), Map.of("request", request))).isFalse();
  }

  @Test
  void gpuAndMigClassesSelectTheDriversDevicesByType() {
    var gpu = device(DRIVER, "gpu", null);
    var mig = device(DRIVER, "mig", "1g.10gb");
    var othersGpu =
        Map.of(
            "driver",
            "gpu.example.com",
            "attributes",
            Map.of("gpu.example.com", Map.of("type", "gpu")));

    assertThat(selects("gpu.nvidia.com", gpu)).isTrue();
    assertThat(selects("gpu.nvidia.com", mig)).isFalse();
    assertThat(selects("gpu.nvidia.com", othersGpu)).isFalse();
    assertThat(selects("mig.nvidia.com", mig)).isTrue();
    assertThat(selects("mig.nvidia.com", gpu)).isFalse();
    assertThat(selects("gpu-extended.gpu.nvidia.com", gpu)).isTrue();
    assertThat(selects("gpu-extended.gpu.nvidia.com", mig)).isFalse();
  }

  @Test
  void aProfilesExtendedClassSelectsThatProfileOnly() {
    var me = device(DRIVER, "mig", "1g.10gb+me");
    var plain = device(DRIVER, "mig", "1g.10gb");

    assertThat(selects("mig-1g.10gb.me.gpu.nvidia.com", me)).isTrue();
    assertThat(selects("mig-1g.10gb.me.gpu.nvidia.com", plain)).isFalse();
    assertThat(selects("mig-1g.10gb.gpu.nvidia.com", plain)).isTrue();
    assertThat(selects("mig-1g.10gb.gpu.nvidia.com", me)).isFalse();
    assertThat(selects("mig-1g.10gb.gpu.nvidia.com", device(DRIVER, "gpu", null))).isFalse();
  }

  @Test
  void theShareClassSelectsTheDriversTwinsAndNoExclusiveDevice() {
    var exclusive = new LinkedHashMap<String, Object>(device(DRIVER, "mig", "1g.10gb"));
    exclusive.put("allowMultipleAllocations", false);
    var twin = new LinkedHashMap<String, Object>(device(DRIVER, "mig-share", "1g.10gb"));
    twin.put("allowMultipleAllocations", true);
    var othersTwin = new LinkedHashMap<String, Object>(twin);
    othersTwin.put("driver", "gpu.example.com");

    assertThat(selects("share.migd.io", twin)).isTrue();
    assertThat(selects("share.migd.io", exclusive)).isFalse();
    assertThat(selects("share.migd.io", othersTwin)).isFalse();
    assertThat(selects("mig.nvidia.com", twin)).as("no exclusive class selects a twin").isFalse();
    assertThat(selects("mig-1g.10gb.gpu.nvidia.com", twin)).isFalse();
  }

  /**
   * What the API server answers a request the policy matches: empty when admitted, else the message
   * of the first validation that fails. {@code nodeName} null: a token without a node.
   */
  private static Optional<String> admit(
      String operation, String user, String nodeName, Object object, Object oldObject) {
    return admit(SLICES_POLICY, request(operation, user, nodeName), object, oldObject);
  }

  /** What the API server answers a request this policy matches. */
  static Optional<String> admit(
      JsonNode policyObject, Map<String, Object> request, Object object, Object oldObject) {
    var policy = policyObject.path("spec");
    var input = new LinkedHashMap<String, Object>();
    input.put("request", request);
    input.put("object", object == null ? Map.of() : object);
    input.put("oldObject", oldObject == null ? Map.of() : oldObject);
    assertThat(CelExpressions.test(condition(policy), input)).as("the policy matches").isTrue();
    // each variable sees the ones before it, as the API server's lazy evaluation lets it
    var variables = new LinkedHashMap<String, Object>();
    for (var variable : policy.path("variables")) {
      input.put("variables", Map.copyOf(variables));
      variables.put(
          variable.path("name").asString(),
          CelExpressions.eval(variable.path("expression").asString(), input));
    }
    input.put("variables", variables);
    for (var validation : policy.path("validations")) {
      if (!CelExpressions.test(validation.path("expression").asString(), input)) {
        return Optional.of(
            validation.has("messageExpression")
                ? (String)
                    CelExpressions.eval(validation.path("messageExpression").asString(), input)
                : validation.path("message").asString());
      }
    }
    return Optional.empty();
  }

  private static String condition(JsonNode policy) {
    return policy.path("matchConditions").get(0).path("expression").asString();
  }

  static Map<String, Object> request(String operation, String user, String nodeName) {
    Map<String, Object> extra =
        nodeName == null
            ? Map.of()
            : Map.of(
                "authentication.kubernetes.io/node-name",
                List.of(nodeName),
                "authentication.kubernetes.io/pod-name",
                List.of("migd-x7k2p"));
    return Map.of("operation", operation, "userInfo", Map.of("username", user, "extra", extra));
  }

  private static Map<String, Object> slice(String nodeName) {
    return Map.of("spec", Map.of("driver", DRIVER, "nodeName", nodeName));
  }

  private static Map<String, Object> device(String driver, String type, String profile) {
    var attributes = new LinkedHashMap<String, Object>();
    attributes.put("type", type);
    if (profile != null) {
      attributes.put("profile", profile);
    }
    return Map.of("driver", driver, "attributes", Map.of(driver, attributes));
  }

  private static boolean selects(String deviceClass, Map<String, Object> device) {
    var selector =
        CHART
            .named("DeviceClass", deviceClass)
            .path("spec")
            .path("selectors")
            .get(0)
            .path("cel")
            .path("expression")
            .asString();
    return CelExpressions.test(selector, Map.of("device", device));
  }
}
