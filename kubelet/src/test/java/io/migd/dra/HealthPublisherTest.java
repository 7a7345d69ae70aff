package io.migd.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class HealthPublisherTest {
  static final List<DeviceHealth> ONE = List.of(DeviceHealth.healthy("node-a", "gpu-0"));

  @Test
  void aFailingStreamIsDroppedAndTheOthersKeepReceiving() throws Exception {
    try (var publisher = new HealthPublisher(Duration.ofHours(1))) {
      var failing = new CopyOnWriteArrayList<List<DeviceHealth>>();
      var healthy = new CopyOnWriteArrayList<List<DeviceHealth>>();
      publisher.attach(
          list -> {
            failing.add(list);
            throw new IllegalStateException("stream closed");
          });
      publisher.attach(healthy::add);
      await().until(() -> healthy.size() == 1 && failing.size() == 1);

      publisher.publish(ONE);

      await().until(() -> healthy.size() == 2);
      assertThat(healthy).containsExactly(List.of(), ONE);
      assertThat(failing).containsExactly(List.of());
    }
  }

  @Test
  void anUnchangedListIsNotSentAgainBeforeTheResend() throws Exception {
    try (var publisher = new HealthPublisher(Duration.ofHours(1))) {
      var received = new CopyOnWriteArrayList<List<DeviceHealth>>();
      publisher.publish(ONE);
      publisher.attach(received::add);
      await().until(() -> received.size() == 1);
      publisher.publish(List.copyOf(ONE));
      publisher.publish(List.of());

      await().until(() -> received.size() == 2);
      assertThat(received).containsExactly(ONE, List.of());
    }
  }
}
