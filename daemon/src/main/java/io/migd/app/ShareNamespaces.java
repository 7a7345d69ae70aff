package io.migd.app;

/**
 * Whose claims may share one device ({@code migd.dra.shares.namespaces}, DESIGN section 14): every
 * share of a device sees the others' {@code /dev/shm}, and one client's fatal fault can end the
 * others, so a cluster may keep a device's shares within one namespace.
 */
public enum ShareNamespaces {
  /** Claims of any namespace share a device. */
  ANY,
  /** A share whose namespace differs from the device's prepared shares fails. */
  SINGLE
}
