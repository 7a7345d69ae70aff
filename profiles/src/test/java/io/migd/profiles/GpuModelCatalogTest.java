package io.migd.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GpuModelCatalogTest {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();

  /** The models migd simulates and knows, as docs/contract.md lists them. */
  record Expected(
      String key, int pci, String nvmlName, int arch, String cc, int computeSlices, int slices) {
    @Override
    public String toString() {
      return key;
    }
  }

  static Stream<Expected> designTable() {
    return Stream.of(
        new Expected("A30", 0x20B710DE, "NVIDIA A30", 7, "8.0", 4, 4),
        new Expected("A100-SXM4-40GB", 0x20B010DE, "NVIDIA A100-SXM4-40GB", 7, "8.0", 7, 8),
        new Expected("A100-SXM4-80GB", 0x20B210DE, "NVIDIA A100-SXM4-80GB", 7, "8.0", 7, 8),
        new Expected("H100-SXM5-80GB", 0x233010DE, "NVIDIA H100 80GB HBM3", 9, "9.0", 7, 8),
        new Expected("H100-NVL", 0x232110DE, "NVIDIA H100 NVL", 9, "9.0", 7, 8),
        new Expected("H200", 0x233510DE, "NVIDIA H200", 9, "9.0", 7, 8),
        new Expected("B200", 0x290110DE, "NVIDIA B200", 10, "10.0", 7, 8),
        new Expected("T4", 0x1EB810DE, "Tesla T4", 6, "7.5", 0, 0),
        new Expected("L4", 0x27B810DE, "NVIDIA L4", 8, "8.9", 0, 0),
        new Expected("L40S", 0x26B910DE, "NVIDIA L40S", 8, "8.9", 0, 0));
  }

  @ParameterizedTest
  @MethodSource("designTable")
  void holdsTheModelsOfTheDesign(Expected e) {
    var model = CATALOG.byKey(e.key()).orElseThrow();

    assertThat(model.pciDeviceId()).isEqualTo(e.pci());
    assertThat(model.nvmlName()).isEqualTo(e.nvmlName());
    assertThat(model.architecture()).isEqualTo(e.arch());
    assertThat(model.computeCapability()).hasToString(e.cc());
    assertThat(model.computeSlices()).isEqualTo(e.computeSlices());
    assertThat(model.memorySlices()).isEqualTo(e.slices());
    assertThat(model.migCapable()).isEqualTo(e.slices() > 0);
    assertThat(CATALOG.byPciDeviceId(e.pci())).contains(model);
    assertThat(CATALOG.byKey(e.key().toLowerCase())).contains(model);
  }

  @Test
  void holdsNothingElse() {
    assertThat(CATALOG.models()).hasSize(10);
    assertThat(CATALOG.migModels()).hasSize(7);
    assertThat(CATALOG.byKey("A100")).isEmpty();
    assertThat(CATALOG.byPciDeviceId(0x20F110DE)).isEmpty();
    assertThat(GpuModelCatalog.builtIn()).isSameAs(CATALOG);
  }

  @Test
  void findsProfilesByNameAndById() {
    var a100 = CATALOG.byKey("A100-SXM4-40GB").orElseThrow();

    assertThat(a100.giProfile(ProfileName.parse("1g.10gb")).orElseThrow().id()).isEqualTo(15);
    assertThat(a100.giProfile(ProfileName.parse("1c.4g.20gb")).orElseThrow().name())
        .hasToString("4g.20gb");
    assertThat(a100.giProfile(ProfileName.parse("1g.10gb+me"))).isEmpty();
    assertThat(a100.giProfileById(9).orElseThrow().name()).hasToString("3g.20gb");
    assertThat(a100.giProfileById(42)).isEmpty();
    assertThat(a100.pciDeviceIdHex()).isEqualTo("0x20B010DE");
  }

  @Test
  void givesEachGpuInstanceItsFullSizeComputeInstance() {
    var h100 = CATALOG.byKey("H100-SXM5-80GB").orElseThrow();
    var gi = h100.giProfile(ProfileName.parse("1g.20gb")).orElseThrow();

    // A 1g.<2x> GI on Hopper gets CI profile 7 (NVML_COMPUTE_INSTANCE_PROFILE_1_SLICE_REV1).
    assertThat(gi.defaultCiProfile().index()).isEqualTo(7);
    assertThat(gi.memorySlices()).isEqualTo(2);
    assertThat(h100.giProfile(ProfileName.parse("4g.40gb")).orElseThrow().ciProfileBySlices(2))
        .hasValueSatisfying(ci -> assertThat(ci.instances()).isEqualTo(2));
  }

  static Stream<GpuModel> migModels() {
    return CATALOG.migModels().stream();
  }

  @ParameterizedTest
  @MethodSource("migModels")
  void hasConsistentProfileData(GpuModel model) {
    for (var gi : model.giProfiles()) {
      assertThat(gi.placements()).extracting(Placement::size).containsOnly(gi.memorySlices());
      assertThat(gi.memoryMib()).isLessThanOrEqualTo(model.memoryMib());
      assertThat(gi.instances()).isLessThanOrEqualTo(gi.placements().size());
      assertThat(gi.ciProfiles()).allMatch(ci -> ci.slices() * ci.instances() <= gi.slices());
      assertThat(gi.defaultCiProfile().slices()).isEqualTo(gi.slices());
    }
  }

  private static final String MODEL =
      "model|X1|name=Test GPU|pci=0x12340000|arch=7|cc=8.0|memory_mib=40960|sm=108|mig=1"
          + "|memory_slices=8|gi_ids=swapped\n";
  private static final String GI =
      "gi|X1|1g.5gb|index=0|id=19|slices=1|instances=7|memory_mib=4864|sm=14|ce=1|dec=0|enc=0"
          + "|jpg=0|ofa=0|placements=0:1,1:1\n";
  private static final String CI = "ci|X1|19|index=0|id=0|slices=1|instances=1|sm=14\n";

  record Malformed(String why, String text, String message) {
    @Override
    public String toString() {
      return why;
    }
  }

  static Stream<Malformed> malformed() {
    var noMig = MODEL.replace("mig=1", "mig=0").replace("memory_slices=8", "memory_slices=0");
    return Stream.of(
        new Malformed(
            "unknown kind",
            "gpu|X1\n",
            "line 1: unknown record kind \"gpu\" (expected model, gi or ci)"),
        new Malformed(
            "line number counts comments and blanks",
            "# c\n\n" + MODEL.replace("sm=108", "sm=many"),
            "line 3: model X1: sm \"many\" is not a decimal number"),
        new Malformed("no key", "model\n", "line 1: field 2 must be the model key"),
        new Malformed(
            "missing field",
            MODEL.replace("|sm=108", ""),
            "line 1: model X1: field \"sm\" is missing"),
        new Malformed(
            "unknown field",
            MODEL.replace("sm=108", "sm=108|smx=1"),
            "line 1: model X1: unknown field \"smx\""),
        new Malformed(
            "repeated field",
            MODEL.replace("sm=108", "sm=108|sm=108"),
            "line 1: model X1: field \"sm\" appears twice"),
        new Malformed(
            "field without name",
            MODEL.replace("sm=108", "108"),
            "line 1: model X1: field \"108\" is not name=value"),
        new Malformed(
            "bad pci",
            MODEL.replace("0x12340000", "0x1234abcd"),
            "line 1: model X1: pci \"0x1234abcd\" is not 0xDDDDVVVV (upper-case hex)"),
        new Malformed(
            "negative number",
            MODEL.replace("arch=7", "arch=-7"),
            "line 1: model X1: arch \"-7\" is not a decimal number"),
        new Malformed(
            "bad compute capability",
            MODEL.replace("cc=8.0", "cc=8"),
            "line 1: model X1: compute capability \"8\" is not major.minor"),
        new Malformed(
            "mig neither 0 nor 1",
            MODEL.replace("mig=1", "mig=yes"),
            "line 1: model X1: mig must be 0 or 1, got yes"),
        new Malformed(
            "model twice", MODEL + GI + CI + MODEL, "line 4: model X1: the model is defined twice"),
        new Malformed(
            "gi before its model",
            GI + MODEL,
            "line 1: gi X1 1g.5gb: model X1 is not defined on an earlier line"),
        new Malformed(
            "bad profile name",
            MODEL + GI.replace("1g.5gb", "1g.5gbx"),
            "line 2: gi X1 1g.5gbx: invalid MIG profile name \"1g.5gbx\": unknown attribute \"x\""
                + " (known: +me, +me.all, -me, +gfx)"),
        new Malformed(
            "name disagrees with slices",
            MODEL + GI.replace("slices=1", "slices=2"),
            "line 2: gi X1 1g.5gb: GI profile 1g.5gb does not name a GPU instance of 2 slices"),
        new Malformed(
            "placement outside the GPU",
            MODEL + GI.replace("1:1", "8:1"),
            "line 2: gi X1 1g.5gb: placement 8:1 exceeds 8 memory slices"),
        new Malformed(
            "placement not start:size",
            MODEL + GI.replace("1:1", "1-1"),
            "line 2: gi X1 1g.5gb: placement \"1-1\" is not start:size"),
        new Malformed(
            "gi repeats an id",
            MODEL + GI + GI.replace("1g.5gb", "1g.5gb+me").replace("index=0", "index=7"),
            "line 3: gi X1 1g.5gb+me: name, index or id repeats GI profile 1g.5gb"),
        new Malformed(
            "ci of an unknown GI",
            MODEL + GI + CI.replace("X1|19", "X1|20"),
            "line 3: ci X1 20: no GI profile with id 20 on an earlier line"),
        new Malformed(
            "ci larger than its GI",
            MODEL + GI + CI.replace("slices=1", "slices=2"),
            "line 3: ci X1 19: a CI of 2 slices exceeds its GPU instance"),
        new Malformed(
            "ci repeats", MODEL + GI + CI + CI, "line 4: ci X1 19: CI index or id 0 repeats"),
        new Malformed(
            "GI without full-size CI",
            MODEL + GI,
            "line 2: gi X1 1g.5gb: no ci line spans its slices"),
        new Malformed(
            "MIG model without profiles",
            MODEL,
            "line 1: model X1: a MIG-capable model needs memory slices and GI profiles,"
                + " others none"),
        new Malformed(
            "gi of a model without MIG", noMig + GI, "line 2: gi X1 1g.5gb: model X1 has mig=0"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void rejectsMalformedDataWithLineAndReason(Malformed c) {
    assertThatThrownBy(() -> GpuModelCatalog.parse(c.text(), "test.tsv"))
        .isInstanceOf(CatalogFormatException.class)
        .hasMessage("test.tsv " + c.message());
  }

  @Test
  void parsesWellFormedData() {
    var catalog = GpuModelCatalog.parse("# models\n" + MODEL + GI + CI, "test.tsv");

    assertThat(catalog.byKey("x1").orElseThrow().giProfiles())
        .singleElement()
        .satisfies(
            gi ->
                assertThat(gi.placements())
                    .containsExactly(new Placement(0, 1), new Placement(1, 1)));
  }
}
