package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code migd.dra.shares} and {@code migd.dra.shares.namespaces} bind together, though one name is
 * the other's prefix, and both are known to the typo check.
 */
class SharesPropertiesTest {
  private static DraProperties bind(Map<String, String> properties) {
    return new Binder(new MapConfigurationPropertySource(properties))
        .bindOrCreate("migd", MigdProperties.class)
        .dra();
  }

  @Test
  void sharesAreOffAndOfAnyNamespaceByDefault() {
    var dra = bind(Map.of());

    assertThat(dra.shares()).isFalse();
    assertThat(dra.sharesNamespaces()).isEqualTo(ShareNamespaces.ANY);
  }

  @Test
  void bindsSharesAndTheirNamespacesTogether() {
    var dra = bind(Map.of("migd.dra.shares", "true", "migd.dra.shares.namespaces", "single"));

    assertThat(dra.shares()).isTrue();
    assertThat(dra.sharesNamespaces()).isEqualTo(ShareNamespaces.SINGLE);
    assertThat(bind(Map.of("migd.dra.shares.namespaces", "single")).shares()).isFalse();
  }

  @Test
  void bothNamesAreKnownInEverySpelling() {
    assertThat(
            KnownProperties.ofMigd()
                .firstUnknown(
                    List.of("--migd.dra.shares=true", "--migd.dra.shares.namespaces=any"),
                    Map.of("MIGD_DRA_SHARES", "true", "MIGD_DRA_SHARES_NAMESPACES", "single")))
        .isEmpty();
  }
}
