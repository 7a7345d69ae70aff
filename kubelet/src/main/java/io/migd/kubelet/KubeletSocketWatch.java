package io.migd.kubelet;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the device plugin directory (inotify on Linux) for a new {@code kubelet.sock}: a kubelet
 * that starts deletes every plugin socket and then listens on a fresh {@code kubelet.sock}, and
 * expects the plugins to serve and register again.
 */
final class KubeletSocketWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubeletSocketWatch.class);
  private static final Duration RETRY = Duration.ofSeconds(1);

  private final Path directory;
  private final Path fileName;
  private final Runnable onCreated;
  private final Thread thread;
  private volatile boolean closed;
  private volatile WatchService watcher;

  KubeletSocketWatch(Path kubeletSocket, Runnable onCreated) {
    this.directory = kubeletSocket.getParent();
    this.fileName = kubeletSocket.getFileName();
    this.onCreated = onCreated;
    this.thread =
        Thread.ofPlatform().name("migd-kubelet-socket-watch").daemon().unstarted(this::run);
  }

  /** Starts watching; returns once the watch is in place (or has failed and will be retried). */
  void start() {
    try {
      watcher = watch();
    } catch (IOException e) {
      log.warn("cannot watch directory={} yet, retrying: {}", directory, e.toString());
    }
    thread.start();
  }

  private WatchService watch() throws IOException {
    var service = FileSystems.getDefault().newWatchService();
    try {
      directory.register(service, ENTRY_CREATE);
      return service;
    } catch (IOException | RuntimeException e) {
      service.close();
      throw e;
    }
  }

  private void run() {
    while (!closed) {
      try {
        var service = watcher;
        if (service == null) {
          service = watch();
          watcher = service;
          log.info("watching directory={} for {} again", directory, fileName);
        }
        WatchKey key = service.poll(RETRY.toMillis(), TimeUnit.MILLISECONDS);
        if (key == null) {
          continue;
        }
        boolean created = false;
        for (var event : key.pollEvents()) {
          // after an overflow the events are lost: assume the kubelet may have restarted
          created |= event.kind() == OVERFLOW || fileName.equals(event.context());
        }
        if (!key.reset()) {
          log.warn("watch of directory={} ended (directory removed?), watching again", directory);
          closeWatcher();
        }
        if (created) {
          onCreated.run();
        }
      } catch (InterruptedException | ClosedWatchServiceException e) {
        if (!closed) {
          log.warn("watch of directory={} interrupted, watching again", directory);
          closeWatcher();
        }
      } catch (Exception e) {
        if (closed) {
          return;
        }
        // never let the watch die: a missed kubelet restart leaves every resource unregistered
        log.error("watch of directory={} failed, retrying in {}", directory, RETRY, e);
        closeWatcher();
        pause();
      }
    }
  }

  private void pause() {
    try {
      Thread.sleep(RETRY);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeWatcher() {
    var service = watcher;
    watcher = null;
    if (service != null) {
      try {
        service.close();
      } catch (IOException e) {
        log.debug("closing the watch of directory={}: {}", directory, e.toString());
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    closeWatcher();
    if (thread.getState() != Thread.State.NEW) {
      thread.interrupt();
      thread.join(Duration.ofSeconds(5));
    }
  }
}
