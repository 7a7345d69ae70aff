/**
 * The API-server side of DRA mode (DESIGN section 12), through fabric8 and {@code
 * resource.k8s.io/v1}: the node's pool published as ResourceSlices ({@link
 * io.migd.node.dra.ResourceSlicePublisher}) and read back ({@link
 * io.migd.node.dra.ResourceSliceReader}), what the API server supports ({@link
 * io.migd.node.dra.DraCapabilityProbe}), and ResourceClaims read for prepare ({@link
 * io.migd.node.dra.KubernetesClaimSource}).
 */
package io.migd.node.dra;
