package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.layout.GpuIndex;
import io.migd.layout.GpuInstanceSpec;
import io.migd.layout.GpuTarget;
import io.migd.profiles.ProfileName;
import io.migd.profiles.Sharing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IntentStoreTest {
  @TempDir Path dir;

  @Test
  void keepsEveryKindOfIntentAcrossARestart() {
    var store = new IntentStore(dir);
    assertThat(store.load()).isEmpty();
    var layout =
        new Desired(
            Desired.Source.REST,
            new Desired.Intent.Layout(
                List.of(
                    GpuTarget.mig(
                        new GpuIndex(0),
                        List.of(
                            new GpuInstanceSpec(ProfileName.parse("4g.20gb"), List.of(1, 1, 2)))),
                    GpuTarget.whole(new GpuIndex(1), 4))),
            7,
            "",
            "",
            Map.of(0, "GPU-a", 1, "GPU-b"));
    store.save(layout);
    assertThat(new IntentStore(dir).load()).contains(layout);

    var named = Desired.config(Desired.Source.LABEL, "all-balanced", 8);
    store.save(named);
    assertThat(new IntentStore(dir).load()).contains(named);
    assertThat(dir.resolve(IntentStore.FILE_NAME + ".tmp")).doesNotExist();
  }

  @Test
  void keepsTheSharingOfSlicesAndGpus() {
    var store = new IntentStore(dir);
    var layout =
        new Desired(
            Desired.Source.REST,
            new Desired.Intent.Layout(
                List.of(
                    GpuTarget.mig(
                        new GpuIndex(0),
                        List.of(
                            GpuInstanceSpec.whole(ProfileName.parse("3g.20gb")),
                            GpuInstanceSpec.whole(ProfileName.parse("1g.5gb"))),
                        Map.of(
                            ProfileName.parse("3g.20gb"), new Sharing.Mps(2),
                            ProfileName.parse("1g.5gb"), new Sharing.TimeSliced(3))),
                    GpuTarget.whole(new GpuIndex(1), new Sharing.Mps(4)))),
            3,
            "",
            "",
            Map.of(0, "GPU-a", 1, "GPU-b"));

    store.save(layout);

    assertThat(new IntentStore(dir).load()).contains(layout);
  }

  @Test
  void readsAFileWrittenBeforeSharingAsTimeSlicing() throws Exception {
    Files.writeString(
        dir.resolve(IntentStore.FILE_NAME),
        """
        {"formatVersion":1,"source":"REST","config":"","generation":2,"labelValue":"",
         "gpus":[{"gpu":1,"migEnabled":false,"gpuInstances":[],"replicas":4}],"gpuUuids":{}}
        """);

    var loaded = new IntentStore(dir).load().orElseThrow();

    assertThat(loaded.intent())
        .isEqualTo(new Desired.Intent.Layout(List.of(GpuTarget.whole(new GpuIndex(1), 4))));
  }

  @Test
  void aDamagedFileStopsStartWithTheRemedy() throws Exception {
    Files.writeString(dir.resolve(IntentStore.FILE_NAME), "{not json");
    assertThatThrownBy(() -> new IntentStore(dir).load())
        .hasMessageContaining(IntentStore.FILE_NAME)
        .hasMessageContaining("fix or remove it");
  }

  @Test
  void theFileConfigIsTheIntentOnlyWhenNothingElseWasGiven() {
    var store = new IntentStore(dir);
    var first =
        new IntentService(store, Optional.of(new IntentService.FileConfig("all-balanced", "d1")));
    assertThat(first.current().intent()).isEqualTo(new Desired.Intent.NamedConfig("all-balanced"));
    assertThat(first.current().generation()).isEqualTo(1);

    var restarted =
        new IntentService(store, Optional.of(new IntentService.FileConfig("all-balanced", "d1")));
    assertThat(restarted.current().generation())
        .as("same file config, same generation")
        .isEqualTo(1);

    restarted.change(
        Desired.Source.LABEL, new Desired.Intent.NamedConfig("all-1g.10gb"), "all-1g.10gb");
    var afterLabel =
        new IntentService(store, Optional.of(new IntentService.FileConfig("all-balanced", "d1")));
    assertThat(afterLabel.current().source()).isEqualTo(Desired.Source.LABEL);
    assertThat(afterLabel.current().intent())
        .isEqualTo(new Desired.Intent.NamedConfig("all-1g.10gb"));
    assertThat(afterLabel.current().generation()).isEqualTo(2);
  }

  @Test
  void newContentUnderTheSameConfigNameIsANewGeneration() {
    var store = new IntentStore(dir);
    new IntentService(store, Optional.of(new IntentService.FileConfig("all-balanced", "d1")));
    var edited =
        new IntentService(store, Optional.of(new IntentService.FileConfig("all-balanced", "d9")));
    assertThat(edited.current().generation()).isEqualTo(2);
    assertThat(edited.current().configDigest()).isEqualTo("d9");
  }

  @Test
  void aNewFileConfigIsANewGeneration() {
    var store = new IntentStore(dir);
    new IntentService(store, Optional.of(new IntentService.FileConfig("all-balanced", "d1")));
    var changed =
        new IntentService(store, Optional.of(new IntentService.FileConfig("all-7g.40gb", "d2")));
    assertThat(changed.current().generation()).isEqualTo(2);
    assertThat(new IntentService(store, Optional.empty()).current().generation()).isEqualTo(2);
  }
}
