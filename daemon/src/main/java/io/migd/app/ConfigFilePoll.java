package io.migd.app;

import io.migd.reconcile.IntentService;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls the live config file every {@code migd.config-file-poll} on a thread of its own (DESIGN
 * section 13). New valid content tells the intent (a new generation when the intent's named config
 * changed under a label or {@code migd.config} intent); any edit, valid or not, triggers a
 * reconcile, which reports the file's problem or recovers from it. A poll that throws is logged and
 * the next one still runs.
 */
final class ConfigFilePoll implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConfigFilePoll.class);

  private final LiveConfigFile file;
  private final IntentService intents;
  private final Runnable trigger;
  private final Duration every;
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("migd-config-file-poll").daemon().factory());

  ConfigFilePoll(LiveConfigFile file, IntentService intents, Runnable trigger, Duration every) {
    this.file = file;
    this.intents = intents;
    this.trigger = trigger;
    this.every = every;
  }

  /** Starts polling, unless the configs are generated from the catalogue. */
  void start() {
    if (file.isLive()) {
      poller.scheduleWithFixedDelay(
          this::pollOnce, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** One poll: reads the file, and acts on an edit that two reads agree on. */
  void pollOnce() {
    try {
      file.poll()
          .ifPresent(
              edit -> {
                switch (edit) {
                  case LiveConfigFile.Edit.Valid(var before, var after) ->
                      intents.configEdited(
                          name -> LiveConfigFile.digest(before, name),
                          name -> LiveConfigFile.digest(after, name));
                  case LiveConfigFile.Edit.Invalid _ -> {}
                }
                trigger.run();
              });
    } catch (RuntimeException e) {
      log.error("reading migd.config-file again failed; the next poll tries again", e);
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
