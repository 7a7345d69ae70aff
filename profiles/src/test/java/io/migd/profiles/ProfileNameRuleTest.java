package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The memory rule of the profile names against every name NVIDIA's tools print (the reference facts
 * copied into reference-profile-names.csv) and against the catalogue.
 */
class ProfileNameRuleTest {

  /** One row of reference-profile-names.csv; totalMib and memoryMib are 0 when not given. */
  record Row(
      String gpu, long totalMib, String profile, long memoryMib, String source, String skip) {
    @Override
    public String toString() {
      return gpu + " " + profile + " " + memoryMib + "/" + totalMib + " MiB (" + source + ")";
    }
  }

  static List<Row> rows() throws IOException {
    try (InputStream in =
        ProfileNameRuleTest.class.getResourceAsStream("reference-profile-names.csv")) {
      var lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines();
      return lines
          .filter(line -> !line.startsWith("#") && !line.startsWith("gpu,") && !line.isBlank())
          .map(line -> Arrays.copyOf(line.split(",", -1), 8))
          .map(f -> new Row(f[0], number(f[1]), f[3], number(f[4]), f[5], f[6]))
          .toList();
    }
  }

  private static long number(String text) {
    return text.isEmpty() ? 0 : Long.parseLong(text);
  }

  static Stream<Row> checkedRows() throws IOException {
    return rows().stream().filter(r -> r.skip().isEmpty());
  }

  @ParameterizedTest
  @MethodSource("checkedRows")
  void derivesTheReferenceName(Row row) {
    assertThat(row.totalMib()).isPositive();
    assertThat(row.memoryMib()).isPositive();

    var name = ProfileName.parse(row.profile());

    assertThat(ProfileName.memoryGigabytes(row.memoryMib(), row.totalMib()))
        .isEqualTo(name.memoryGb());
  }

  @Test
  void checksEveryReferenceNameThatHasBothSizes() throws IOException {
    var rows = rows();

    assertThat(checkedRows().count()).isGreaterThanOrEqualTo(94);
    assertThat(rows)
        .filteredOn(r -> r.totalMib() > 0 && r.memoryMib() > 0)
        .allMatch(r -> r.skip().isEmpty());
    assertThat(rows)
        .filteredOn(r -> !r.skip().isEmpty())
        .allMatch(r -> r.totalMib() == 0 || r.memoryMib() == 0);
  }

  /** GPUs whose reference entry gives profile memory but no device total (GH200 144G). */
  static Stream<String> gpusWithoutTotal() throws IOException {
    return rows().stream()
        .filter(r -> r.totalMib() == 0 && r.memoryMib() > 0)
        .map(Row::gpu)
        .distinct();
  }

  @ParameterizedTest
  @MethodSource("gpusWithoutTotal")
  void someDeviceTotalReproducesTheNamesOfAGpuWithoutOne(String gpu) throws IOException {
    var rows = rows().stream().filter(r -> r.gpu().equals(gpu) && r.memoryMib() > 0).toList();
    long largest = rows.stream().mapToLong(Row::memoryMib).max().orElseThrow();

    var totals =
        LongStream.rangeClosed(largest, 16 * largest)
            .filter(total -> rows.stream().allMatch(r -> derives(r, total)))
            .toArray();

    assertThat(totals).as("totals in MiB that reproduce %s", rows).isNotEmpty();
    // GH200 144G: 144 GiB (147456 MiB) is among them.
    if (gpu.startsWith("GH200")) {
      assertThat(totals).contains(147456L);
    }
  }

  private static boolean derives(Row row, long total) {
    return ProfileName.memoryGigabytes(row.memoryMib(), total)
        == ProfileName.parse(row.profile()).memoryGb();
  }

  static Stream<Row> rowsWithoutProfileMemory() throws IOException {
    return rows().stream().filter(r -> r.memoryMib() == 0);
  }

  @ParameterizedTest
  @MethodSource("rowsWithoutProfileMemory")
  void parsesTheReferenceNamesThatCannotBeDerived(Row row) {
    assertThat(row.skip()).startsWith("no profile memory in the reference");
    assertThat(ProfileName.parse(row.profile())).hasToString(row.profile());
  }

  record Model(GpuModel model) {
    @Override
    public String toString() {
      return model.key();
    }
  }

  static Stream<Model> migModels() {
    return GpuModelCatalog.builtIn().migModels().stream().map(Model::new);
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void everyCatalogueProfileDerivesItsOwnName(Model m) {
    var model = m.model();
    Map<String, Integer> derived =
        model.giProfiles().stream()
            .collect(
                Collectors.toMap(
                    p -> p.name().toString(),
                    p -> ProfileName.memoryGigabytes(p.memoryMib(), model.memoryMib())));
    Map<String, Integer> named =
        model.giProfiles().stream()
            .collect(Collectors.toMap(p -> p.name().toString(), p -> p.name().memoryGb()));

    assertThat(derived).isEqualTo(named);
    assertThat(model.giProfiles()).allMatch(p -> p.name().gpuSlices() == p.slices());
  }

  record Boundary(String why, long profileMiB, long totalMiB, int gb) {
    @Override
    public String toString() {
      return why;
    }
  }

  static Stream<Boundary> boundaries() {
    return Stream.of(
        new Boundary("share exactly one eighth stays one eighth", 5120, 40960, 5),
        new Boundary("one MiB above an eighth rounds up to two eighths", 5121, 40960, 10),
        new Boundary("a product ending in .5 rounds half up (GB200 1g.47gb)", 46592, 190464, 47),
        new Boundary("a product ending in .25 rounds down (GB200 1g.23gb)", 22528, 190464, 23),
        new Boundary("a total one MiB above whole GiB rounds the GiB up", 10240, 81921, 10),
        new Boundary("an odd observed total (H100 PCIe 81559 MiB)", 9984, 81559, 10),
        new Boundary("the whole GPU", 81920, 81920, 80),
        new Boundary("a tiny profile still takes an eighth", 1, 1 << 20, 128));
  }

  @ParameterizedTest
  @MethodSource("boundaries")
  void roundsExactlyAtTheBoundaries(Boundary b) {
    assertThat(ProfileName.memoryGigabytes(b.profileMiB(), b.totalMiB())).isEqualTo(b.gb());
  }

  @Test
  void rejectsSizesThatCannotBeAProfile() {
    assertThatThrownBy(() -> ProfileName.memoryGigabytes(0, 40960))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ProfileName.memoryGigabytes(40961, 40960))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
