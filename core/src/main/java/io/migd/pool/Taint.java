package io.migd.pool;

import java.util.Objects;

/**
 * A device taint as migd sets it: {@code gpu.nvidia.com/xid} (value the XID) or {@code
 * gpu.nvidia.com/gpu-lost}, removed again when the device recovers.
 */
public record Taint(String key, String value, Effect effect) {
  /** The taint effects ResourceSlice allows. */
  public enum Effect {
    NONE("None"),
    NO_SCHEDULE("NoSchedule"),
    NO_EXECUTE("NoExecute");

    private final String wireName;

    Effect(String wireName) {
      this.wireName = wireName;
    }

    /** The API's spelling. */
    public String wireName() {
      return wireName;
    }
  }

  /** Checks every part is there; an absent value is the empty string. */
  public Taint {
    Objects.requireNonNull(key);
    Objects.requireNonNull(value);
    Objects.requireNonNull(effect);
  }
}
