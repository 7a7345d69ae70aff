/**
 * DRA sharing (docs/contract.md, "Sharing a claim's devices"): NVIDIA's opaque device configuration
 * ({@code resource.nvidia.com/v1beta1} {@code GpuConfig} and {@code MigDeviceConfig}) decoded
 * strictly from the claim's plain parameter tree ({@link io.migd.sharing.NvidiaConfigDecoder}),
 * matched to each allocated device as NVIDIA's driver matches it ({@link
 * io.migd.sharing.ConfigMatching}), and applied at prepare and undone at unprepare ({@link
 * io.migd.sharing.ClaimSharing}).
 */
package io.migd.sharing;
