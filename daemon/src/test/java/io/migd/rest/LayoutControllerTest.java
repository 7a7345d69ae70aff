package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** How If-Match names a generation: quoted, bare or weak; {@code *} names none. */
class LayoutControllerTest {
  record Case(String header, OptionalLong generation) {
    @Override
    public String toString() {
      return String.valueOf(header);
    }
  }

  static Stream<Case> headers() {
    return Stream.of(
        new Case(null, OptionalLong.empty()),
        new Case("*", OptionalLong.empty()),
        new Case("\"7\"", OptionalLong.of(7)),
        new Case("7", OptionalLong.of(7)),
        new Case(" W/\"7\" ", OptionalLong.of(7)),
        new Case("\"abc\"", OptionalLong.of(-1)),
        new Case("\"99999999999999999999\"", OptionalLong.of(-1)));
  }

  @ParameterizedTest
  @MethodSource("headers")
  void readsTheGenerationIfMatchNames(Case c) {
    assertThat(LayoutController.ifMatch(c.header())).isEqualTo(c.generation());
  }
}
