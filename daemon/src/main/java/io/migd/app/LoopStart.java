package io.migd.app;

import io.migd.reconcile.ReconcileLoop;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the reconcile loop once the web server listens. The first reconcile's outcome is what the
 * kubelet is first shown (the device plugin registers then), so starting the loop last means {@code
 * /actuator/health} answers (503 until ready) before the kubelet sees any device: a probe never
 * fails while devices are already advertised. Spring starts lifecycle beans in ascending phase; the
 * web server's is below {@link SmartLifecycle#DEFAULT_PHASE}, and it stops after this.
 */
final class LoopStart implements SmartLifecycle {
  private final ReconcileLoop loop;
  private volatile boolean running;

  LoopStart(ReconcileLoop loop) {
    this.loop = loop;
  }

  @Override
  public void start() {
    loop.start();
    running = true;
  }

  @Override
  public void stop() {
    // the loop's own close (its bean's destroy method) ends it; the web server may stop first
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE;
  }
}
