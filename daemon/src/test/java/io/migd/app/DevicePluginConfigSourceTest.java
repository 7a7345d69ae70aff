package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.devices.MigStrategy;
import io.migd.profiles.Sharing;
import io.migd.profiles.deviceplugin.NvidiaResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevicePluginConfigSourceTest {
  @TempDir Path dir;

  private static String timeSliced(int replicas, String strategy) {
    return "version: v1\nflags: {migStrategy: "
        + strategy
        + "}\nsharing:\n  timeSlicing:\n    resources:\n    - {name: nvidia.com/gpu, replicas: "
        + replicas
        + "}\n";
  }

  private Optional<Sharing> gpus(DevicePluginConfigSource source) {
    return source.defaults().config().wholeGpus();
  }

  @Test
  void theLabelPicksTheKeyAndTheDefaultServesAnUnlabelledNode() throws Exception {
    Files.writeString(dir.resolve("ts-2"), timeSliced(2, "mixed"));
    Files.writeString(dir.resolve("ts-4"), timeSliced(4, "single"));
    var source = DevicePluginConfigSource.start(dir.toString(), "ts-2", "", Optional.of("ts-4"));

    assertThat(gpus(source)).contains(new Sharing.TimeSliced(4));
    assertThat(source.strategy())
        .as("flags.migStrategy of the config picked at start, migd.mig-strategy unset")
        .isEqualTo(MigStrategy.SINGLE);
    assertThat(source.defaults().source()).isEqualTo(dir.resolve("ts-4").toString());

    assertThat(source.labelSeen(Optional.empty())).isTrue();
    assertThat(gpus(source)).contains(new Sharing.TimeSliced(2));
    assertThat(source.labelSeen(Optional.empty())).isFalse();
  }

  @Test
  void aKeyTheDirectoryLacksIsAProblemNamingIt() throws Exception {
    Files.writeString(dir.resolve("ts-2"), timeSliced(2, "mixed"));
    var source = DevicePluginConfigSource.start(dir.toString(), "", "none", Optional.of("ts-8"));

    assertThat(source.problem())
        .get()
        .asString()
        .contains("has no key \"ts-8\"")
        .contains(DevicePluginConfigSource.LABEL)
        .contains("ts-2");
    assertThat(source.strategy()).isEqualTo(MigStrategy.NONE);
  }

  @Test
  void anEditCountsOnceTwoReadsAgreeAndARefusedOneIsTheProblem() throws Exception {
    Path file = Files.writeString(dir.resolve("config.yaml"), timeSliced(2, "mixed"));
    var source = DevicePluginConfigSource.start(file.toString(), "", "", Optional.empty());

    Files.writeString(file, timeSliced(1, "mixed"));
    assertThat(source.poll()).as("one read of new content").isFalse();
    assertThat(gpus(source)).contains(new Sharing.TimeSliced(2));
    assertThat(source.poll()).as("the second read agrees").isTrue();
    assertThat(source.problem())
        .get()
        .asString()
        .contains("config.yaml")
        .contains("\"sharing.timeSlicing.resources[0].replicas\"");

    Files.writeString(file, timeSliced(3, "mixed"));
    source.poll();
    assertThat(source.poll()).isTrue();
    assertThat(source.problem()).isEmpty();
    assertThat(gpus(source)).contains(new Sharing.TimeSliced(3));
    assertThat(source.defaults().config().resources()).containsOnlyKeys(NvidiaResources.GPU);
  }
}
