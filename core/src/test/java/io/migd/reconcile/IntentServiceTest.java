package io.migd.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node label as an intent: when it makes a new generation, what removing it does, at start. */
class IntentServiceTest {
  private static final Optional<IntentService.FileConfig> FILE =
      Optional.of(new IntentService.FileConfig("all-balanced", "d1"));

  @TempDir Path dir;

  private IntentService start(Optional<IntentService.FileConfig> file) {
    return new IntentService(new IntentStore(dir), file);
  }

  @Test
  void concurrentWritersEachGetTheirOwnGenerationAndOnlyOneIfMatchWins() throws Exception {
    var intents = start(FILE);
    long start = intents.current().generation();
    int writers = 16;
    var generations = new ConcurrentLinkedQueue<Long>();
    var conditional = new AtomicInteger();
    try (var pool = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < writers; i++) {
        var intent = new Desired.Intent.NamedConfig("config-" + i);
        pool.submit(
            () -> generations.add(intents.change(Desired.Source.REST, intent).generation()));
        pool.submit(
            () ->
                intents
                    .changeIf(start, Desired.Source.REST, intent)
                    .ifPresent(d -> conditional.incrementAndGet()));
      }
    }
    assertThat(generations).doesNotHaveDuplicates().hasSize(writers);
    assertThat(conditional.get()).isLessThanOrEqualTo(1);
    assertThat(intents.current().generation()).isEqualTo(start + writers + conditional.get());
    assertThat(new IntentStore(dir).load()).contains(intents.current());
  }

  @Test
  void aLabelValueIsANewLabelIntentOnlyWhenItChanges() {
    var intents = start(Optional.empty());
    assertThat(intents.labelSeen(Optional.of("all-1g.5gb"))).isTrue();
    Desired first = intents.current();
    assertThat(first.source()).isEqualTo(Desired.Source.LABEL);
    assertThat(first.intent()).isEqualTo(new Desired.Intent.NamedConfig("all-1g.5gb"));
    assertThat(first.labelValue()).isEqualTo("all-1g.5gb");
    assertThat(first.generation()).isEqualTo(1);

    assertThat(intents.labelSeen(Optional.of("all-1g.5gb"))).as("the same value again").isFalse();
    assertThat(intents.current()).isEqualTo(first);

    assertThat(intents.labelSeen(Optional.of("all-7g.40gb"))).isTrue();
    assertThat(intents.current().intent()).isEqualTo(new Desired.Intent.NamedConfig("all-7g.40gb"));
    assertThat(intents.current().generation()).isEqualTo(2);
    assertThat(new IntentStore(dir).load()).contains(intents.current());
  }

  @Test
  void removingTheLabelBringsBackTheFileConfig() {
    var intents = start(FILE);
    assertThat(intents.current().source()).isEqualTo(Desired.Source.FILE);
    intents.labelSeen(Optional.of("all-1g.5gb"));
    assertThat(intents.current().source()).isEqualTo(Desired.Source.LABEL);

    assertThat(intents.labelSeen(Optional.empty())).isTrue();
    assertThat(intents.current().source()).isEqualTo(Desired.Source.FILE);
    assertThat(intents.current().intent())
        .isEqualTo(new Desired.Intent.NamedConfig("all-balanced"));
    assertThat(intents.current().generation()).isEqualTo(3);
    assertThat(intents.current().labelValue()).isEmpty();
  }

  @Test
  void removingTheLabelWithoutAFileConfigLeavesNoIntent() {
    var intents = start(Optional.empty());
    intents.labelSeen(Optional.of("all-1g.5gb"));
    assertThat(intents.labelSeen(Optional.empty())).isTrue();
    assertThat(intents.current().source()).isEqualTo(Desired.Source.NONE);
    assertThat(intents.current().intent()).isEqualTo(new Desired.Intent.Nothing());
    assertThat(intents.current().generation()).isEqualTo(2);
    assertThat(intents.labelSeen(Optional.empty())).as("no label, still none").isFalse();
  }

  @Test
  void aRestIntentStaysWhenTheLabelIsRemovedAndASetLabelOverridesItAgain() {
    var intents = start(Optional.empty());
    intents.labelSeen(Optional.of("all-1g.5gb"));
    Desired rest =
        intents.change(Desired.Source.REST, new Desired.Intent.NamedConfig("all-7g.40gb"));
    assertThat(rest.labelValue()).as("the label is unchanged by REST").isEqualTo("all-1g.5gb");
    assertThat(intents.labelSeen(Optional.of("all-1g.5gb"))).isFalse();
    assertThat(intents.current()).isEqualTo(rest);

    assertThat(intents.labelSeen(Optional.empty())).isFalse();
    assertThat(intents.current().source()).isEqualTo(Desired.Source.REST);
    assertThat(intents.current().generation()).isEqualTo(rest.generation());

    assertThat(intents.labelSeen(Optional.of("all-1g.5gb")))
        .as("the label set again after its removal is a change")
        .isTrue();
    assertThat(intents.current().source()).isEqualTo(Desired.Source.LABEL);
  }

  @Test
  void atStartALabelChangedWhileDownWinsAndAnUnchangedOneKeepsTheRestIntent() {
    var before = start(FILE);
    before.labelSeen(Optional.of("all-1g.5gb"));
    Desired rest =
        before.change(Desired.Source.REST, new Desired.Intent.NamedConfig("all-7g.40gb"));

    var unchanged = start(FILE);
    assertThat(unchanged.current()).as("persisted REST intent").isEqualTo(rest);
    assertThat(unchanged.labelSeen(Optional.of("all-1g.5gb"))).isFalse();
    assertThat(unchanged.current()).isEqualTo(rest);

    var changed = start(FILE);
    assertThat(changed.labelSeen(Optional.of("all-2g.10gb"))).isTrue();
    assertThat(changed.current().source()).isEqualTo(Desired.Source.LABEL);
    assertThat(changed.current().intent()).isEqualTo(new Desired.Intent.NamedConfig("all-2g.10gb"));
    assertThat(changed.current().generation()).isEqualTo(rest.generation() + 1);
  }

  @Test
  void atStartALabelBeatsTheFileConfig() {
    var intents = start(FILE);
    assertThat(intents.labelSeen(Optional.of("all-1g.5gb"))).isTrue();
    var restarted = start(FILE);
    assertThat(restarted.current().source())
        .as("the file config does not replace a label intent at start")
        .isEqualTo(Desired.Source.LABEL);
    assertThat(restarted.labelSeen(Optional.of("all-1g.5gb"))).isFalse();
  }

  @Test
  void anEditOfTheNamedConfigIsANewGenerationUnderTheLabelOrTheFileOnly() {
    Function<String, String> before = name -> "old-" + name;
    Function<String, String> edited = name -> name.equals("all-balanced") ? "new" : "old-" + name;

    var fromFile = start(FILE);
    long generation = fromFile.current().generation();
    assertThat(fromFile.configEdited(before, edited)).isTrue();
    assertThat(fromFile.current().generation()).isEqualTo(generation + 1);
    assertThat(fromFile.current().configDigest()).isEqualTo("new");
    assertThat(fromFile.current().source()).isEqualTo(Desired.Source.FILE);
    assertThat(new IntentStore(dir).load()).contains(fromFile.current());

    assertThat(fromFile.labelSeen(Optional.of("all-1g.5gb"))).isTrue();
    Desired label = fromFile.current();
    assertThat(fromFile.configEdited(before, edited)).as("another config edited").isFalse();
    assertThat(fromFile.current()).isEqualTo(label);
    assertThat(fromFile.configEdited(before, name -> "newer")).isTrue();
    assertThat(fromFile.current().source()).isEqualTo(Desired.Source.LABEL);
    assertThat(fromFile.current().labelValue()).isEqualTo("all-1g.5gb");
    assertThat(fromFile.current().generation()).isEqualTo(label.generation() + 1);

    Desired rest = fromFile.change(Desired.Source.REST, new Desired.Intent.NamedConfig("mine"));
    assertThat(fromFile.configEdited(before, name -> "newest")).as("under REST").isFalse();
    assertThat(fromFile.current()).isEqualTo(rest);
  }
}
