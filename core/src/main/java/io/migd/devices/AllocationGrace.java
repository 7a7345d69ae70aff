package io.migd.devices;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each device was last handed out by {@code Allocate}: PodResources lists a pod only once it
 * runs, so a device allocated a moment ago counts as in use for a grace period before its pod shows
 * there.
 */
public final class AllocationGrace implements AllocationListener {
  private final Clock clock;
  private final Map<String, Instant> allocated = new ConcurrentHashMap<>();

  /** Tells time with {@code clock}. */
  public AllocationGrace(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void allocated(String resource, List<String> deviceIds) {
    Instant now = clock.instant();
    deviceIds.forEach(id -> allocated.put(id, now));
  }

  /** The device IDs allocated less than {@code grace} ago, by ID; older ones are forgotten. */
  public Map<String, Instant> within(Duration grace) {
    Instant oldest = clock.instant().minus(grace);
    allocated.values().removeIf(at -> !at.isAfter(oldest));
    return new TreeMap<>(allocated);
  }
}
