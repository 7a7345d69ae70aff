package io.migd.app;

import io.migd.reconcile.IntentService;
import java.time.Duration;

/**
 * Polls the live config file every {@code migd.config-file-poll} on a thread of its own (DESIGN
 * section 13). New valid content tells the intent (a new generation when the intent's named config
 * changed under a label or {@code migd.config} intent); any edit, valid or not, triggers a
 * reconcile, which reports the file's problem or recovers from it ({@link PeriodicPoll}).
 */
final class ConfigFilePoll implements AutoCloseable {
  private final LiveConfigFile file;
  private final IntentService intents;
  private final Runnable trigger;
  private final PeriodicPoll poller;

  ConfigFilePoll(LiveConfigFile file, IntentService intents, Runnable trigger, Duration every) {
    this.file = file;
    this.intents = intents;
    this.trigger = trigger;
    this.poller =
        new PeriodicPoll(
            "migd-config-file-poll", "reading migd.config-file again", every, this::pollOnce);
  }

  /** Starts polling, unless the configs are generated from the catalogue. */
  void start() {
    if (file.isLive()) {
      poller.start();
    }
  }

  /** One poll: reads the file, and acts on an edit that two reads agree on. */
  void pollOnce() {
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
  }

  @Override
  public void close() {
    poller.close();
  }
}
