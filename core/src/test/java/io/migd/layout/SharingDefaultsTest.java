package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.nvml.MigMode;
import io.migd.nvml.PciInfo;
import io.migd.profiles.GpuModel;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigFile;
import io.migd.profiles.MigConfigParser;
import io.migd.profiles.Sharing;
import io.migd.profiles.Sharing.Offer;
import io.migd.profiles.deviceplugin.DevicePluginConfigParser;
import io.migd.profiles.deviceplugin.DevicePluginConfigRead;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NVIDIA's device-plugin config as the sharing of what a config item does not share itself: whole
 * GPUs by {@code nvidia.com/gpu}, slices by their {@code nvidia.com/mig-<profile>} (or {@code
 * nvidia.com/gpu} under {@code single}), the item's own keys winning and saying so.
 */
class SharingDefaultsTest {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  private static final GpuIndex GPU0 = new GpuIndex(0);
  private static final Offer RENAMED_ONE = new Offer(true, true);

  private static final String DEVICE_PLUGIN =
      """
      version: v1
      sharing:
        timeSlicing:
          renameByDefault: true
          failRequestsGreaterThanOne: true
          resources:
          - name: nvidia.com/gpu
            replicas: 4
          - name: nvidia.com/mig-1g.5gb
            replicas: 3
      """;

  record Case(
      String name,
      String model,
      String item,
      boolean slicesAreGpus,
      Sharing wholeGpu,
      Map<String, Sharing> slices,
      String note) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a whole GPU takes nvidia.com/gpu",
            "T4",
            "mig-enabled: false",
            false,
            new Sharing.TimeSliced(4, RENAMED_ONE),
            Map.of(),
            ""),
        new Case(
            "the item's own time-slicing wins and says so",
            "T4",
            "mig-enabled: false\n    time-slicing: {replicas: 2}",
            false,
            new Sharing.TimeSliced(2),
            Map.of(),
            "its config item's own time-slicing overrides the device-plugin config dp/ts"),
        new Case(
            "a GPU without MIG asked for MIG takes nvidia.com/gpu, not the MIG device count",
            "T4",
            "mig-enabled: true\n    mig-devices: {1g.5gb: 7}",
            false,
            new Sharing.TimeSliced(4, RENAMED_ONE),
            Map.of(),
            ""),
        new Case(
            "slices take their own resource under mixed",
            "A100-SXM4-40GB",
            "mig-enabled: true\n    mig-devices: {1g.5gb: 2, 2g.10gb: 1}",
            false,
            new Sharing.TimeSliced(1),
            Map.of("1g.5gb", new Sharing.TimeSliced(3, RENAMED_ONE)),
            ""),
        new Case(
            "slices take nvidia.com/gpu under single",
            "A100-SXM4-40GB",
            "mig-enabled: true\n    mig-devices: {2g.10gb: 3}",
            true,
            new Sharing.TimeSliced(1),
            Map.of("2g.10gb", new Sharing.TimeSliced(4, RENAMED_ONE)),
            ""),
        new Case(
            "the item's own sharing of a profile wins and says so",
            "A100-SXM4-40GB",
            "mig-enabled: true\n    mig-devices: {1g.5gb: 2}\n"
                + "    sharing: {1g.5gb: {mps: {replicas: 2}}}",
            false,
            new Sharing.TimeSliced(1),
            Map.of("1g.5gb", new Sharing.Mps(2)),
            "its config item's own sharing.1g.5gb overrides the device-plugin config dp/ts"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void sharesWhatTheItemDoesNotShareItself(Case c) {
    var config = configOf(c.item());
    var gpu = observed(CATALOG.byKey(c.model()).orElseThrow());
    var read = (DevicePluginConfigRead.Valid) DevicePluginConfigParser.read(DEVICE_PLUGIN, "dp/ts");
    var defaults = new SharingDefaults("dp/ts", read.config(), c.slicesAreGpus());

    var target =
        TargetResolver.resolve(
                config.config("c").orElseThrow(), new ObservedNode(List.of(gpu)), true, defaults)
            .get(GPU0);

    assertThat(target.sharing()).isEqualTo(c.wholeGpu());
    var slices = new HashMap<String, Sharing>();
    target.sliceSharing().forEach((profile, sharing) -> slices.put(profile.toString(), sharing));
    assertThat(slices).isEqualTo(c.slices());
    assertThat(TargetResolver.overriddenDefaults(config.config("c").orElseThrow(), gpu, defaults))
        .isEqualTo(c.note());
  }

  private static MigConfigFile configOf(String item) {
    return MigConfigParser.parse(
        "version: v1\nmig-configs:\n  c:\n  - devices: all\n    " + item + "\n");
  }

  private static ObservedGpu observed(GpuModel model) {
    return new ObservedGpu(
        GPU0,
        "GPU-" + model.key(),
        model.nvmlName(),
        new PciInfo("00000000:10:00.0", 0, 0x10, 0, model.pciDeviceId(), 0),
        model.memoryMib(),
        model.migCapable(),
        new MigMode(model.migCapable(), model.migCapable()),
        List.of(),
        List.of());
  }
}
