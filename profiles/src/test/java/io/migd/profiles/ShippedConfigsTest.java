package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ShippedConfigsTest {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  static Stream<Path> shippedFiles() throws IOException {
    try (var files = Files.list(Path.of("configs"))) {
      return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }

  @Test
  void shipsTheDefaultAndTheExamples() throws IOException {
    assertThat(shippedFiles().map(p -> p.getFileName().toString()))
        .contains("default.yaml", "examples.yaml");
  }

  @ParameterizedTest
  @MethodSource("shippedFiles")
  void namesOnlyProfilesTheSelectedModelsOffer(Path path) throws IOException {
    var file = MigConfigParser.parse(path);

    assertThat(CatalogCheck.problems(file, CATALOG)).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("shippedFiles")
  void filtersOnlyOnCatalogueModels(Path path) throws IOException {
    var file = MigConfigParser.parse(path);

    for (var config : file.configs()) {
      for (var item : config.items()) {
        assertThat(item.deviceFilters())
            .as("config %s", config.name())
            .allMatch(f -> CATALOG.byPciDeviceId(f.deviceId()).isPresent());
        if (!item.migDevices().isEmpty()) {
          assertThat(CatalogCheck.modelsSelectedBy(item, CATALOG)).isNotEmpty();
        }
      }
    }
  }

  @Test
  void examplesShowEveryFeature() throws IOException {
    var items =
        MigConfigParser.parse(Path.of("configs", "examples.yaml")).configs().stream()
            .flatMap(c -> c.items().stream())
            .toList();
    var a100 = CATALOG.byKey("A100-SXM4-40GB").orElseThrow();
    var h100 = CATALOG.byKey("H100-SXM5-80GB").orElseThrow();

    assertThat(items)
        .anyMatch(
            i -> i.devices() instanceof DeviceSelection.Indexes(var x) && x.equals(List.of(1, 2)));
    assertThat(items)
        .anyMatch(
            i -> i.devices() instanceof DeviceSelection.Indexes(var x) && x.equals(List.of(0)));
    assertThat(items).anyMatch(i -> i.migDevices().containsKey(ProfileName.parse("1c.4g.20gb")));
    assertThat(items).anyMatch(i -> i.timeSlicing() instanceof TimeSlicing.Replicas);
    assertThat(items).anyMatch(i -> i.mps() instanceof MpsSharing.Replicas);
    assertThat(items)
        .anyMatch(i -> i.sharing().values().stream().anyMatch(s -> s instanceof Sharing.Mps));
    assertThat(items)
        .anyMatch(
            i -> i.sharing().values().stream().anyMatch(s -> s instanceof Sharing.TimeSliced));
    assertThat(items).anyMatch(i -> i.mayApplyTo(a100) && !i.deviceFilters().isEmpty());
    assertThat(items).anyMatch(i -> i.mayApplyTo(h100) && !i.deviceFilters().isEmpty());
  }
}
