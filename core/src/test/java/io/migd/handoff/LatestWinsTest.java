package io.migd.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The handoff of the newest inventory: an older value never follows a newer one. */
class LatestWinsTest {
  @Test
  void anOlderValueOfferedAfterANewerOneIsNeverHandedOver() {
    var handed = new ArrayList<String>();
    var publishing = new LatestWins<String>(handed::add);
    publishing.offerAndWait(2, "two");
    publishing.offer(1, "one");
    publishing.offer(3, "three");
    assertThat(handed).containsExactly("two", "three");
  }

  @Test
  void aFailingConsumerFailsTheThreadHandingOverAndTheNextOfferStillGoes() {
    var handed = new ArrayList<String>();
    var publishing =
        new LatestWins<String>(
            value -> {
              if (value.equals("bad")) {
                throw new IllegalStateException("kubelet gone");
              }
              handed.add(value);
            });
    assertThatThrownBy(() -> publishing.offerAndWait(1, "bad")).hasMessage("kubelet gone");
    publishing.offerAndWait(2, "good");
    assertThat(handed).isEqualTo(List.of("good"));
  }
}
