package io.migd.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.profiles.ProfileName;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetResolverTest {
  private static ProfileName p(String name) {
    return ProfileName.parse(name);
  }

  @Test
  void computeInstanceProfilesPackAsManyToAGpuInstanceAsFit() {
    var devices = new LinkedHashMap<ProfileName, Integer>();
    devices.put(p("1c.4g.20gb"), 5);
    devices.put(p("2g.10gb"), 1);
    assertThat(TargetResolver.gpuInstances(devices))
        .containsExactly(
            new GpuInstanceSpec(p("4g.20gb"), List.of(1, 1, 1, 1)),
            new GpuInstanceSpec(p("4g.20gb"), List.of(1)),
            GpuInstanceSpec.whole(p("2g.10gb")));
  }

  @Test
  void aGpuInstanceNameAsksForThatManyWholeInstances() {
    var devices = new LinkedHashMap<ProfileName, Integer>();
    devices.put(p("1g.5gb"), 2);
    devices.put(p("3g.20gb"), 0);
    assertThat(TargetResolver.gpuInstances(devices))
        .containsExactly(GpuInstanceSpec.whole(p("1g.5gb")), GpuInstanceSpec.whole(p("1g.5gb")));
  }
}
