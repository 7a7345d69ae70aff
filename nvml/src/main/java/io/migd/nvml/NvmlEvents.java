package io.migd.nvml;

import java.time.Duration;
import java.util.Optional;

/**
 * NVML events (critical XID errors) of the GPUs. {@link #waitForEvent} blocks, so it runs on a
 * thread of its own: health events never wait behind a reshape.
 */
public interface NvmlEvents {

  /** Creates an empty event set. */
  EventSetHandle createEventSet();

  /** Bit mask of event types a GPU can report. */
  long supportedEventTypes(DeviceHandle device);

  /** Records events of these types on a GPU into the set, from now on. */
  void registerEvents(DeviceHandle device, long eventTypes, EventSetHandle set);

  /** The next event of the set, or empty when none arrives within the timeout. */
  Optional<EventData> waitForEvent(EventSetHandle set, Duration timeout);

  /** Releases an event set. */
  void freeEventSet(EventSetHandle set);
}
