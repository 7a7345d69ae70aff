package io.migd.reconcile;

import io.migd.layout.NodeObserver;
import io.migd.nvml.NvmlException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The intent each reconcile starts from: the current one, made to follow the GPUs present first
 * ({@link IntentService#followGpus}), so a replaced GPU's reshape (and a reboot it needs) belongs
 * to a generation of its own. When NVML cannot even count the GPUs the intent is taken as it is,
 * and the reconcile says why it cannot go on.
 */
public final class PresentGpusIntent implements Supplier<Desired> {
  private static final Logger log = LoggerFactory.getLogger(PresentGpusIntent.class);

  private final IntentService intents;
  private final NodeObserver observer;

  /** The intent of {@code intents}, checked against the GPUs {@code observer} sees. */
  public PresentGpusIntent(IntentService intents, NodeObserver observer) {
    this.intents = intents;
    this.observer = observer;
  }

  @Override
  public Desired get() {
    NodeObserver.PresentGpus present;
    try {
      present = observer.present();
    } catch (NvmlException e) {
      log.debug("GPUs not listed before the reconcile ({}); the intent is taken as it is", e);
      return intents.current();
    }
    return intents.followGpus(present);
  }
}
