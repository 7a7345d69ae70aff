/**
 * The kubelet's view of the node, in plain Java: which devices are advertised under which resource
 * ({@link io.migd.devices.InventoryBuilder}), which of them are unhealthy ({@link
 * io.migd.devices.DeviceHealth}), and which slices pods hold ({@link io.migd.devices.PodUsage},
 * {@link io.migd.devices.KubeletUsage}). The gRPC side lives in the kubelet module.
 *
 * <p>Choices where NVIDIA's plugin leaves room:
 *
 * <ul>
 *   <li>{@code single} advertises no slice when the node has several slice profiles (a compute
 *       instance profile such as {@code 1c.3g.20gb} counts as a profile of its own) or when whole
 *       GPUs are advertised beside the slices; the whole GPUs stay, and {@link
 *       io.migd.devices.Inventory#notes()} says why.
 *   <li>An XID with a GPU-instance id marks the slices of that GPU instance only, not a whole-GPU
 *       device of the same GPU (as NVIDIA's plugin matches events); an XID for the whole GPU
 *       ({@code gpu_instance=all} in the log) marks every device on it.
 *   <li>When PodResources cannot be read, the pods it last listed are not used for decisions (they
 *       may have ended); devices {@code Allocate} handed out within the grace still count.
 * </ul>
 */
package io.migd.devices;
