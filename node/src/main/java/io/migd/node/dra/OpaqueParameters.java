package io.migd.node.dra;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import tools.jackson.databind.json.JsonMapper;

/**
 * An opaque configuration's {@code parameters} as the plain tree the core decodes ({@code Map},
 * {@code List}, {@code String}, {@code Number}, {@code Boolean}, null). fabric8 hands them over as
 * whatever its reader made of the raw object (a {@code RawExtension}, a {@code
 * GenericKubernetesResource} when it has a kind): written back to JSON by fabric8, read as a tree.
 */
final class OpaqueParameters {
  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private OpaqueParameters() {}

  /** The parameters as a plain tree; null stays null. */
  static Object tree(Object parameters) {
    return parameters == null ? null : JSON.readValue(FABRIC8.asJson(parameters), Object.class);
  }
}
