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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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
  void keepsDynamicGpusAndSharesAcrossARestart() {
    var store = new IntentStore(dir);
    var layout =
        new Desired(
            Desired.Source.REST,
            new Desired.Intent.Layout(
                List.of(
                    GpuTarget.dynamic(new GpuIndex(0)),
                    GpuTarget.whole(new GpuIndex(1), 1),
                    GpuTarget.dynamic(new GpuIndex(2), true),
                    GpuTarget.sharedWhole(new GpuIndex(3)))),
            4,
            "",
            "",
            Map.of(0, "GPU-a", 1, "GPU-b", 2, "GPU-c", 3, "GPU-d"));

    store.save(layout);

    var loaded = new IntentStore(dir).load().orElseThrow();
    assertThat(loaded).isEqualTo(layout);
    var targets = ((Desired.Intent.Layout) loaded.intent()).gpus();
    assertThat(targets).extracting(GpuTarget::dynamic).containsExactly(true, false, true, false);
    assertThat(targets).extracting(GpuTarget::shares).containsExactly(false, false, true, true);
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

  /** A file every key of which is set, with a slice shared by MPS. */
  private static final String FULL =
      """
      {"formatVersion":1,"source":"REST","config":"","generation":2,"labelValue":"",
       "configDigest":"","gpuUuids":{"0":"GPU-a"},
       "gpus":[{"gpu":0,"migEnabled":true,"replicas":1,"sharing":"time-slicing",
                "gpuInstances":[{"profile":"3g.20gb","computeInstanceSlices":[3]}],
                "sliceSharing":{"3g.20gb":{"strategy":"mps","replicas":2}}}]}
      """;

  /** The keys a file must have, as paths into {@link #FULL}. */
  private static final List<String> REQUIRED =
      List.of(
          "formatVersion",
          "source",
          "config",
          "generation",
          "labelValue",
          "gpuUuids",
          "gpus",
          "gpus/0/gpu",
          "gpus/0/migEnabled",
          "gpus/0/replicas",
          "gpus/0/gpuInstances",
          "gpus/0/gpuInstances/0/profile",
          "gpus/0/gpuInstances/0/computeInstanceSlices",
          "gpus/0/sliceSharing/3g.20gb/strategy",
          "gpus/0/sliceSharing/3g.20gb/replicas");

  /** Elements of lists, which may be removed (an empty list is an intent) but not null. */
  private static final List<String> ELEMENTS = List.of("gpus/0", "gpus/0/gpuInstances/0");

  /** Keys older files lack. */
  private static final List<String> OPTIONAL =
      List.of("configDigest", "gpus/0/sharing", "gpus/0/sliceSharing");

  record Damage(String name, String content) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Damage> damages() {
    var damages = new ArrayList<Damage>();
    for (String key : REQUIRED) {
      damages.add(
          new Damage("missing " + key, edited(key, (parent, name) -> remove(parent, name))));
      damages.add(
          new Damage("null " + key, edited(key, (parent, name) -> put(parent, name, null))));
    }
    for (String element : ELEMENTS) {
      damages.add(
          new Damage(
              "null " + element, edited(element, (parent, name) -> put(parent, name, null))));
    }
    for (String key : concat(concat(REQUIRED, ELEMENTS), OPTIONAL)) {
      damages.add(
          new Damage(
              "wrong type " + key,
              edited(
                  key, (parent, name) -> put(parent, name, JSON.createObjectNode().put("x", 1)))));
    }
    damages.add(new Damage("null document", "null"));
    damages.add(new Damage("an array", "[]"));
    damages.add(new Damage("a number", "42"));
    damages.add(new Damage("unknown source", FULL.replace("\"REST\"", "\"GIT\"")));
    damages.add(new Damage("bad profile", FULL.replace("\"3g.20gb\"", "\"3x.20gb\"")));
    return damages.stream();
  }

  @ParameterizedTest
  @MethodSource("damages")
  void anIntentFileOfTheWrongShapeIsUnreadableWithTheRemedy(Damage damage) throws Exception {
    Files.writeString(dir.resolve(IntentStore.FILE_NAME), damage.content());

    assertThatThrownBy(() -> new IntentStore(dir).load())
        .isInstanceOf(IntentStore.UnreadableException.class)
        .hasMessageContaining(IntentStore.FILE_NAME)
        .hasMessageContaining("fix or remove it");
  }

  @Test
  void aMissingKeyIsNamed() throws Exception {
    Files.writeString(
        dir.resolve(IntentStore.FILE_NAME),
        edited("gpus/0/gpuInstances/0/profile", (parent, name) -> remove(parent, name)));

    assertThatThrownBy(() -> new IntentStore(dir).load())
        .hasMessageContaining("\"gpus[0].gpuInstances[0].profile\" is missing or null");
  }

  @ParameterizedTest
  @MethodSource("optionalKeys")
  void aFileWithoutAKeyOlderFilesLackIsRead(String key) throws Exception {
    Files.writeString(
        dir.resolve(IntentStore.FILE_NAME), edited(key, (parent, name) -> remove(parent, name)));

    assertThat(new IntentStore(dir).load()).isPresent();
  }

  static List<String> optionalKeys() {
    return OPTIONAL;
  }

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** {@link #FULL} with {@code edit} applied to the parent of {@code path} and its last name. */
  private static String edited(String path, BiConsumer<JsonNode, String> edit) {
    JsonNode root = JSON.readTree(FULL);
    var names = path.split("/");
    JsonNode parent = root;
    for (int i = 0; i < names.length - 1; i++) {
      parent = parent.isArray() ? parent.get(Integer.parseInt(names[i])) : parent.get(names[i]);
    }
    edit.accept(parent, names[names.length - 1]);
    return JSON.writeValueAsString(root);
  }

  private static void remove(JsonNode parent, String name) {
    if (parent instanceof ArrayNode array) {
      array.remove(Integer.parseInt(name));
    } else {
      ((ObjectNode) parent).remove(name);
    }
  }

  private static void put(JsonNode parent, String name, JsonNode value) {
    JsonNode node = value == null ? JSON.nullNode() : value;
    if (parent instanceof ArrayNode array) {
      array.set(Integer.parseInt(name), node);
    } else {
      ((ObjectNode) parent).set(name, node);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    var all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
