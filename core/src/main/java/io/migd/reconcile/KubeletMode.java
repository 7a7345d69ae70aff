package io.migd.reconcile;

import java.util.Locale;

/**
 * How the node's kubelet is given devices ({@code migd.kubelet.mode}): one mode per node, since a
 * node cannot offer one resource both ways. The decisions differ: only {@link #DRA} has dynamic
 * GPUs, and only {@link #DEVICE_PLUGIN} shares GPUs or slices.
 */
public enum KubeletMode {
  /** The device plugin serves the kubelet (the default). */
  DEVICE_PLUGIN,
  /** migd is the node's DRA driver (DESIGN section 12). */
  DRA;

  /** The value of {@code migd.kubelet.mode}: {@code device-plugin} or {@code dra}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
