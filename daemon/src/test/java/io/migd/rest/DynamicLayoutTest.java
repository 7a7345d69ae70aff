package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.api.rest.GpuLayout;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.profiles.GeneratedConfigs;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.Desired;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code "dynamic": true} in a {@code PUT /api/v1/layout} body: read into a dynamic target, shown
 * back as given, and refused with the other keys that say what a GPU holds or how it is shared.
 * Whether the kubelet mode allows it is the loop's decision (DynamicGpusIT, LayoutApiIT).
 */
class DynamicLayoutTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final LayoutRequests REQUESTS = requests();

  private static LayoutRequests requests() {
    var file = GeneratedConfigs.forModels(GpuModelCatalog.builtIn().models());
    return new LayoutRequests(file::config, () -> file);
  }

  private static Desired.Intent intent(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return REQUESTS.intent(LayoutRequests.read(new ByteArrayInputStream(bytes), bytes.length));
  }

  @Test
  void readsADynamicGpuAndShowsItBackAsGiven() {
    var intent =
        intent("{\"gpus\":[{\"gpu\":0,\"dynamic\":true},{\"gpu\":1,\"migEnabled\":false}]}");

    assertThat(intent)
        .isEqualTo(
            new Desired.Intent.Layout(
                List.of(GpuTarget.dynamic(new GpuIndex(0)), GpuTarget.whole(new GpuIndex(1), 1))));
    var shown = RestViews.layout(GpuTarget.dynamic(new GpuIndex(0)));
    assertThat(shown).isEqualTo(new GpuLayout(0, true, null, null, null, null, true, null));
    assertThat(JSON.writeValueAsString(shown))
        .isEqualTo("{\"gpu\":0,\"migEnabled\":true,\"dynamic\":true}");
    assertThat(JSON.writeValueAsString(RestViews.layout(GpuTarget.whole(new GpuIndex(1), 1))))
        .doesNotContain("dynamic");
  }

  @Test
  void readsTheSharesOfADynamicAndAWholeGpuAndShowsThemBackAsGiven() {
    var intent =
        intent(
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"shares\":true},"
                + "{\"gpu\":1,\"migEnabled\":false,\"shares\":true},{\"gpu\":2,\"shares\":true}]}");

    var shared =
        List.of(GpuTarget.dynamic(new GpuIndex(0), true), GpuTarget.sharedWhole(new GpuIndex(1)));
    assertThat(intent)
        .isEqualTo(
            new Desired.Intent.Layout(
                List.of(shared.get(0), shared.get(1), GpuTarget.sharedWhole(new GpuIndex(2)))));
    assertThat(shared.stream().map(t -> JSON.writeValueAsString(RestViews.layout(t))))
        .containsExactly(
            "{\"gpu\":0,\"migEnabled\":true,\"dynamic\":true,\"shares\":true}",
            "{\"gpu\":1,\"migEnabled\":false,\"shares\":true}");
    assertThat(JSON.writeValueAsString(RestViews.layout(GpuTarget.dynamic(new GpuIndex(0)))))
        .doesNotContain("shares");
  }

  @Test
  void readsDynamicFalseAsAStaticGpu() {
    assertThat(intent("{\"gpus\":[{\"gpu\":0,\"dynamic\":false,\"migDevices\":{\"1g.5gb\":7}}]}"))
        .isInstanceOfSatisfying(
            Desired.Intent.Layout.class,
            layout -> assertThat(layout.gpus().getFirst().dynamic()).isFalse());
  }

  record Refused(String name, String body, String detail) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Refused> refused() {
    return Stream.of(
        new Refused(
            "MIG disabled",
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"migEnabled\":false}]}",
            "GPU 0: \"dynamic\": true needs MIG enabled, but \"migEnabled\" is false"),
        new Refused(
            "MIG devices",
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"migDevices\":{\"1g.5gb\":1}}]}",
            "GPU 0: \"dynamic\": true takes no \"migDevices\""),
        new Refused(
            "time-slicing",
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"timeSlicing\":{\"replicas\":2}}]}",
            "GPU 0: \"dynamic\": true takes no \"timeSlicing\""),
        new Refused(
            "MPS and sharing",
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"mps\":{\"replicas\":2},"
                + "\"sharing\":{\"1g.5gb\":{\"mps\":{\"replicas\":2}}}}]}",
            "GPU 0: \"dynamic\": true takes no \"mps\", \"sharing\""),
        new Refused(
            "shares of static MIG slices",
            "{\"gpus\":[{\"gpu\":0,\"shares\":true,\"migEnabled\":true}]}",
            "GPU 0: \"shares\": true needs \"dynamic\": true or \"migEnabled\": false"),
        new Refused(
            "shares of a time-sliced GPU",
            "{\"gpus\":[{\"gpu\":0,\"shares\":true,\"timeSlicing\":{\"replicas\":2}}]}",
            "GPU 0: \"shares\": true takes no \"timeSlicing\""),
        new Refused(
            "shares of a dynamic GPU with MIG devices",
            "{\"gpus\":[{\"gpu\":0,\"dynamic\":true,\"shares\":true,\"migDevices\":{}}]}",
            "GPU 0: \"dynamic\": true takes no \"migDevices\""));
  }

  @ParameterizedTest
  @MethodSource("refused")
  void refusesDynamicWithWhatClaimsDecide(Refused c) {
    assertThatThrownBy(() -> intent(c.body()))
        .isInstanceOfSatisfying(
            RestProblem.class,
            p -> {
              assertThat(p.status().value()).isEqualTo(422);
              assertThat(p.getMessage()).contains(c.detail());
            });
  }

  @Test
  void refusesADynamicThatIsNotABoolean() {
    assertThatThrownBy(() -> intent("{\"gpus\":[{\"gpu\":0,\"dynamic\":\"yes\"}]}"))
        .isInstanceOfSatisfying(
            RestProblem.class,
            p -> {
              assertThat(p.status().value()).isEqualTo(400);
              assertThat(p.getMessage()).contains("gpus[0].dynamic");
            });
  }
}
