package io.migd.profiles.deviceplugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import io.migd.profiles.Sharing.Offer;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DevicePluginConfigParserTest {
  private static final String SOURCE = "dp/ts";

  /** A config as NVIDIA's documentation writes one: time-slicing each GPU into 4 replicas. */
  private static final String TIME_SLICING_4 =
      """
      version: v1
      sharing:
        timeSlicing:
          resources:
          - name: nvidia.com/gpu
            replicas: 4
      """;

  /** NVIDIA's documented MIG example: 10 replicas of a GPU and of each 1g.5gb slice. */
  private static final String TIME_SLICING_10_MIG =
      """
      version: v1
      flags:
        migStrategy: mixed
      sharing:
        timeSlicing:
          resources:
          - name: nvidia.com/gpu
            replicas: 10
          - name: nvidia.com/mig-1g.5gb
            replicas: 10
      """;

  private static final String RENAME_BY_DEFAULT =
      """
      version: v1
      sharing:
        timeSlicing:
          renameByDefault: true
          failRequestsGreaterThanOne: true
          resources:
          - name: nvidia.com/gpu
            replicas: 4
      """;

  private static final String MPS_10 =
      """
      version: v1
      sharing:
        mps:
          resources:
          - name: nvidia.com/gpu
            replicas: 10
      """;

  record Example(String name, String yaml, DevicePluginConfig expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Example> examples() {
    var mig = NvidiaResources.mig(ProfileName.parse("1g.5gb"));
    return Stream.of(
        new Example(
            "time-slicing, 4 replicas",
            TIME_SLICING_4,
            new DevicePluginConfig(
                "", Map.of(NvidiaResources.GPU, new Sharing.TimeSliced(4, Offer.PLAIN)))),
        new Example(
            "time-slicing of GPUs and MIG slices, 10 replicas",
            TIME_SLICING_10_MIG,
            new DevicePluginConfig(
                "mixed",
                Map.of(
                    NvidiaResources.GPU,
                    new Sharing.TimeSliced(10),
                    mig,
                    new Sharing.TimeSliced(10)))),
        new Example(
            "renameByDefault and failRequestsGreaterThanOne",
            RENAME_BY_DEFAULT,
            new DevicePluginConfig(
                "", Map.of(NvidiaResources.GPU, new Sharing.TimeSliced(4, new Offer(true, true))))),
        new Example(
            "MPS, 10 replicas, one per request by default",
            MPS_10,
            new DevicePluginConfig(
                "", Map.of(NvidiaResources.GPU, new Sharing.Mps(10, new Offer(false, true))))),
        new Example(
            "version left out, domain left out, rename to .shared",
            """
            sharing:
              timeSlicing:
                resources:
                - name: gpu
                  rename: gpu.shared
                  replicas: 2
            """,
            new DevicePluginConfig(
                "",
                Map.of(NvidiaResources.GPU, new Sharing.TimeSliced(2, new Offer(true, false))))),
        new Example("an empty config", "", DevicePluginConfig.EMPTY));
  }

  @ParameterizedTest
  @MethodSource("examples")
  void readsNvidiasDocumentedExamples(Example example) {
    assertThat(DevicePluginConfigParser.read(example.yaml(), SOURCE))
        .isEqualTo(new DevicePluginConfigRead.Valid(example.expected(), List.of()));
  }

  @Test
  void sharesSlicesOfTheSingleStrategyAsGpus() {
    var config =
        ((DevicePluginConfigRead.Valid) DevicePluginConfigParser.read(TIME_SLICING_4, SOURCE))
            .config();

    assertThat(config.slices(ProfileName.parse("3g.20gb"), true))
        .contains(new Sharing.TimeSliced(4));
    assertThat(config.slices(ProfileName.parse("3g.20gb"), false)).isEmpty();
    assertThat(config.wholeGpus()).contains(new Sharing.TimeSliced(4));
  }

  record Refusal(String name, String yaml, String key) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Refusal> refusals() {
    return Stream.of(
        new Refusal("an unknown version", "version: v2\n", "\"version\""),
        new Refusal(
            "an unknown MIG strategy", "flags:\n  migStrategy: half\n", "\"flags.migStrategy\""),
        new Refusal(
            "no resources",
            "sharing:\n  timeSlicing:\n    renameByDefault: true\n",
            "\"sharing.timeSlicing.resources\""),
        new Refusal(
            "an empty resource list",
            "sharing:\n  mps:\n    resources: []\n",
            "\"sharing.mps.resources\""),
        new Refusal(
            "replicas below 2",
            resources("timeSlicing", "name: nvidia.com/gpu\n    replicas: 1"),
            "\"sharing.timeSlicing.resources[0].replicas\""),
        new Refusal(
            "replicas missing",
            resources("timeSlicing", "name: nvidia.com/gpu"),
            "\"sharing.timeSlicing.resources[0].replicas\""),
        new Refusal(
            "MPS replicas above 48",
            resources("mps", "name: nvidia.com/gpu\n    replicas: 49"),
            "\"sharing.mps.resources[0].replicas\""),
        new Refusal(
            "a malformed device reference",
            resources(
                "timeSlicing", "name: nvidia.com/gpu\n    replicas: 2\n    devices: [0, GPU-x]"),
            "\"sharing.timeSlicing.resources[0].devices[1]\""),
        new Refusal(
            "a devices string other than all",
            resources("timeSlicing", "name: nvidia.com/gpu\n    replicas: 2\n    devices: some"),
            "\"sharing.timeSlicing.resources[0].devices\""),
        new Refusal(
            "MPS on a MIG resource",
            resources("mps", "name: nvidia.com/mig-1g.10gb\n    replicas: 2"),
            "\"sharing.mps.resources[0].name\""),
        new Refusal(
            "a resource of another vendor",
            resources("timeSlicing", "name: example.com/fpga\n    replicas: 2"),
            "\"sharing.timeSlicing.resources[0].name\""),
        new Refusal(
            "renameByDefault of the wrong type",
            "sharing:\n  timeSlicing:\n    renameByDefault: yes please\n    resources: []\n",
            "\"sharing.timeSlicing.renameByDefault\""),
        new Refusal("not YAML", "sharing: [unclosed\n", "not valid YAML"));
  }

  private static String resources(String section, String entry) {
    return "sharing:\n  "
        + section
        + ":\n    resources:\n    - "
        + entry.replace("\n    ", "\n      ")
        + "\n";
  }

  @ParameterizedTest
  @MethodSource("refusals")
  void refusesAsNvidiasPluginDoesNamingTheKey(Refusal refusal) {
    var read = DevicePluginConfigParser.read(refusal.yaml(), SOURCE);

    assertThat(read).isInstanceOf(DevicePluginConfigRead.Refused.class);
    assertThat(((DevicePluginConfigRead.Refused) read).reason())
        .startsWith("device-plugin config \"" + SOURCE + "\": ")
        .contains(refusal.key());
  }

  @Test
  void ignoresWhatNvidiaIgnoresWithOneWarningEach() {
    var read =
        DevicePluginConfigParser.read(
            """
            version: v1
            flags:
              migStrategy: single
              failOnInitError: true
              plugin:
                deviceListStrategy: envvar
            resources:
              gpus:
              - pattern: "*"
                name: gpu
            colour: green
            sharing:
              timeSlicing:
                strategy: packed
                resources:
                - name: nvidia.com/gpu
                  rename: nvidia.com/shared-gpu
                  devices: [0, "1:0", GPU-8e2a6b1c-1111-2222-3333-444455556666]
                  replicas: 3
                - name: nvidia.com/mig-1g.10gb
                  devices: 2
                  replicas: 2
            """,
            SOURCE);

    assertThat(read).isInstanceOf(DevicePluginConfigRead.Valid.class);
    var valid = (DevicePluginConfigRead.Valid) read;
    assertThat(valid.config())
        .isEqualTo(
            new DevicePluginConfig(
                "single",
                Map.of(
                    NvidiaResources.GPU,
                    new Sharing.TimeSliced(3),
                    "nvidia.com/mig-1g.10gb",
                    new Sharing.TimeSliced(2))));
    assertThat(valid.warnings())
        .hasSize(8)
        .allMatch(w -> w.startsWith("device-plugin config \"" + SOURCE + "\": "))
        .anyMatch(w -> w.contains("\"flags.failOnInitError\""))
        .anyMatch(w -> w.contains("\"flags.plugin\""))
        .anyMatch(w -> w.contains("\"resources\" is ignored"))
        .anyMatch(w -> w.contains("\"colour\""))
        .anyMatch(w -> w.contains("\"sharing.timeSlicing.strategy\""))
        .anyMatch(w -> w.contains("\"sharing.timeSlicing.resources[0].rename\""))
        .anyMatch(w -> w.contains("\"sharing.timeSlicing.resources[0].devices\""))
        .anyMatch(w -> w.contains("\"sharing.timeSlicing.resources[1].devices\""));
  }

  @Test
  void takesMpsOverTimeSlicingWithAWarning() {
    var read =
        DevicePluginConfigParser.read(
            """
            sharing:
              timeSlicing:
                resources:
                - name: nvidia.com/gpu
                  replicas: 4
              mps:
                failRequestsGreaterThanOne: false
                resources:
                - name: nvidia.com/gpu
                  replicas: 2
            """,
            SOURCE);

    assertThat(read)
        .isEqualTo(
            new DevicePluginConfigRead.Valid(
                new DevicePluginConfig("", Map.of(NvidiaResources.GPU, new Sharing.Mps(2))),
                List.of(
                    "device-plugin config \""
                        + SOURCE
                        + "\": \"sharing.timeSlicing\" is ignored: \"sharing.mps\" is set, and"
                        + " MPS wins")));
  }

  @Test
  void readsMigResourceNamesBackToProfiles() {
    assertThat(NvidiaResources.profileOf("nvidia.com/mig-1g.10gb.me"))
        .contains(ProfileName.parse("1g.10gb+me"));
    assertThat(NvidiaResources.profileOf("nvidia.com/mig-3g.40gb"))
        .contains(ProfileName.parse("3g.40gb"));
    assertThat(NvidiaResources.profileOf("nvidia.com/mig-huge")).isEmpty();
    assertThat(NvidiaResources.profileOf(NvidiaResources.GPU)).isEmpty();
  }
}
