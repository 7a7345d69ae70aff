package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PlacementTest {

  record Pair(Placement a, Placement b, boolean overlap) {
    @Override
    public String toString() {
      return a + " vs " + b;
    }
  }

  static Stream<Pair> pairs() {
    return Stream.of(
        new Pair(new Placement(0, 4), new Placement(4, 4), false),
        new Pair(new Placement(0, 4), new Placement(3, 1), true),
        new Pair(new Placement(0, 8), new Placement(6, 2), true),
        new Pair(new Placement(2, 2), new Placement(0, 2), false),
        new Pair(new Placement(1, 1), new Placement(1, 1), true),
        new Pair(new Placement(0, 2), new Placement(1, 1), true));
  }

  @ParameterizedTest
  @MethodSource("pairs")
  void overlapsWhenTheyShareAMemorySlice(Pair p) {
    assertThat(p.a().overlaps(p.b())).isEqualTo(p.overlap());
    assertThat(p.b().overlaps(p.a())).isEqualTo(p.overlap());
  }

  @Test
  void endsAfterItsLastSliceAndPrintsAsStartColonSize() {
    assertThat(new Placement(4, 2).end()).isEqualTo(6);
    assertThat(Placement.parse("4:2")).isEqualTo(new Placement(4, 2)).hasToString("4:2");
  }

  @Test
  void rejectsImpossibleRanges() {
    assertThatThrownBy(() -> new Placement(-1, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Placement(0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Placement.parse("0:1:2")).isInstanceOf(IllegalArgumentException.class);
  }
}
