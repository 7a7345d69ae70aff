package io.migd.nvml;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The NVML session: the gate every call passes. NVML is thread-safe, so calls run on their caller's
 * thread, several at once; a sequence keeps NVML from being released between its calls, and a
 * release ({@link #whileReleased}, {@link #close()}) lets the calls in flight end first and holds
 * new ones until it is done. After a release, the hooks given to {@link #onReinitialised} (the
 * owners of event sets) register their event sets again before the held calls resume.
 */
public interface NvmlSessionControl extends AutoCloseable {

  /**
   * Runs several calls with no release of NVML ({@link #whileReleased}) in between, so the handles
   * taken inside stay valid to the end: for reading a consistent picture of a GPU, or running one
   * GPU's steps. Other threads' calls may run meanwhile (on other GPUs: each GPU is changed by one
   * thread at a time). Calling {@link #whileReleased} inside is refused.
   */
  <T> T inSequence(Supplier<T> calls);

  /**
   * As {@link #inSequence(Supplier)}, for readers that must not block behind a GPU reset: when NVML
   * is released (or a release waits for the calls in flight), this waits at most {@code maxWait}
   * for it to end, then throws {@link NvmlReleasedException} without running {@code calls}. Once
   * the sequence has begun, nothing releases NVML until it ends.
   */
  <T> T inSequence(Duration maxWait, Supplier<T> calls);

  /**
   * Shuts NVML down, runs {@code action} (a GPU reset that needs no NVML client open on the GPU),
   * and initialises NVML again, with no call of this session in between: calls and sequences in
   * flight on other threads end first, and new ones wait until NVML is back and the {@link
   * #onReinitialised} hooks have run (so event sets are registered again before any call resumes,
   * and no event raised after this returns is missed). Handles taken before, event sets included,
   * are stale afterwards; look them up again, and do not free a stale event set. When initialising
   * again fails, the {@link NvmlException} names {@code nvmlInit_v2} and the hooks do not run;
   * calling this again (with an action that does nothing) retries it.
   */
  <T> T whileReleased(Supplier<T> action);

  /**
   * Runs {@code hook} every time {@link #whileReleased} has initialised NVML again, on the
   * releasing thread while other calls are still held, in the order hooks were added. A hook may
   * make NVML calls on its own thread (to create an event set and register events into it), but
   * must not wait for an event or release NVML. A hook that throws is logged and does not fail the
   * release; the other hooks still run.
   *
   * @return closing it removes the hook (a release already running may still run it once)
   */
  Registration onReinitialised(Runnable hook);

  /** A hook added to a session; {@link #close()} removes it. */
  @FunctionalInterface
  interface Registration extends AutoCloseable {
    /** Removes the hook. */
    @Override
    void close();
  }

  /**
   * Shuts NVML down for this session (reference counted by the driver), after the calls in flight
   * end; later calls are refused.
   */
  @Override
  void close();
}
