package io.migd.handoff;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Hands numbered values to a consumer that does I/O or must see them in order (the device plugins
 * serve and register; the DRA pool goes to the ResourceSlice publisher, the metrics and the health
 * stream) without holding a lock across it: the thread that offers a value while none is being
 * handed over hands over the newest offered until none is newer, and a thread that offers one
 * meanwhile leaves it to that thread. Values go out one at a time, in increasing number, the older
 * of two offered together skipped: an older value never follows a newer one.
 */
public final class LatestWins<T> {
  private final Consumer<T> consumer;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition handedOver = lock.newCondition();

  private long offered;
  private T newest;
  private long handed;
  private boolean handing;

  /** Hands values over to {@code consumer}, one at a time. */
  public LatestWins(Consumer<T> consumer) {
    this.consumer = consumer;
  }

  /**
   * Offers {@code value}, numbered {@code number}, and returns once it or a newer one has been
   * handed over; handing over on this thread when no other is. A failure of the consumer is thrown
   * to the thread that handed over.
   */
  public void offerAndWait(long number, T value) {
    if (offer(number, value, true)) {
      handOver();
    }
  }

  /**
   * Offers {@code value}, numbered {@code number}, and returns at once when another thread is
   * handing over (it hands over this one, or a newer); otherwise hands over on this thread.
   */
  public void offer(long number, T value) {
    if (offer(number, value, false)) {
      handOver();
    }
  }

  /** Whether the caller is to hand over. */
  private boolean offer(long number, T value, boolean wait) {
    lock.lock();
    try {
      if (number > offered) {
        offered = number;
        newest = value;
      }
      if (!handing) {
        handing = true;
        return true;
      }
      while (wait && handing && handed < number) {
        handedOver.awaitUninterruptibly();
      }
      if (wait && handed < number) {
        // the thread handing over stopped before this one (it failed): hand over here
        handing = true;
        return true;
      }
      return false;
    } finally {
      lock.unlock();
    }
  }

  private void handOver() {
    RuntimeException failure = null;
    while (true) {
      long number;
      T value;
      lock.lock();
      try {
        if (handed >= offered) {
          // in the same hold as the check: a value offered after it finds no one handing over
          handing = false;
          handedOver.signalAll();
          break;
        }
        number = offered;
        value = newest;
      } finally {
        lock.unlock();
      }
      try {
        consumer.accept(value);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      } catch (Error e) {
        stopHanding();
        throw e;
      }
      lock.lock();
      try {
        handed = number;
        handedOver.signalAll();
      } finally {
        lock.unlock();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void stopHanding() {
    lock.lock();
    try {
      handing = false;
      handedOver.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
