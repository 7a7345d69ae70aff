package io.migd.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The image definition ({@code daemon/Dockerfile}) agrees with the build and with the chart. No
 * image is built here: these are the mistakes that would only show when one is, or on a node.
 */
class ImageDefinitionTest {
  private static final Path DOCKERFILE = Path.of("..", "daemon", "Dockerfile");
  private static final Path DAEMON_POM = Path.of("..", "daemon", "pom.xml");
  private static final Path FOOTPRINT = Path.of("..", "bench", "src", "main", "java", "io", "migd");
  private static final Path TRAINING =
      FOOTPRINT.resolve(Path.of("bench", "footprint", "AotTrain.java"));
  private static final Path TRAINING_RUN =
      FOOTPRINT.resolve(Path.of("bench", "footprint", "MigdProcess.java"));

  private final String dockerfile = read(DOCKERFILE);

  @Test
  void extractsTheJarTheDaemonModuleBuilds() {
    String jar = only(Pattern.compile("<finalName>([^<]+)</finalName>"), read(DAEMON_POM)) + ".jar";

    assertThat(dockerfile).contains("./mvnw -B -ntp -q -pl daemon,bench -am package -DskipTests");
    assertThat(only(Pattern.compile("java -Djarmode=tools -jar (\\S+) extract"), dockerfile))
        .isEqualTo("daemon/target/" + jar);
    String destination = only(Pattern.compile("extract --destination (\\S+)"), dockerfile);
    assertThat(dockerfile).contains("COPY --from=build " + destination + " " + destination);
    assertThat(jarOf(entrypoint())).isEqualTo(destination + "/" + jar);
  }

  @Test
  void startsWithTheAotCacheOfItsModeThatItsTrainingStepMakesInTheFinalLayout() {
    var training =
        Pattern.compile(
                "RUN --mount=type=bind,from=build,source=(\\S+),target=(\\S+) \\\\\n\\s+"
                    + "(\\S+/aot-train\\.sh) (\\S+) (\\S+) (\\S+)\n")
            .matcher(dockerfile);
    assertThat(training.find()).as("a RUN of aot-train.sh in %s", DOCKERFILE).isTrue();
    // the harness is the build stage's bench jar, mounted for the step and handed to the script
    assertThat(training.group(1)).isEqualTo("/src/bench/target/benchmarks.jar");
    assertThat(training.group(4)).isEqualTo(training.group(2));
    assertThat(dockerfile).doesNotContain("COPY --from=build /src/bench");
    // made in the layout the entrypoint runs, where the image's options name the cache
    assertThat(training.group(5) + "/" + Path.of(jarOf(entrypoint())).getFileName())
        .isEqualTo(jarOf(entrypoint()));
    String caches = training.group(6);
    assertThat(imageOptions()).endsWith(" -XX:AOTCache=" + caches + "/migd-device-plugin.aot");
    assertThat(entrypoint()).noneMatch(option -> option.startsWith("-XX:AOTCache"));
    // the training step comes after the layout it is made for, in the last stage
    assertThat(dockerfile.indexOf(training.group()))
        .isGreaterThan(dockerfile.lastIndexOf("FROM "))
        .isGreaterThan(dockerfile.lastIndexOf("COPY "));
    // a cache made without native access enabled is refused by a JVM that has it, and vice versa
    assertThat(entrypoint()).contains("--enable-native-access=ALL-UNNAMED");
    assertThat(read(TRAINING_RUN)).contains("--enable-native-access=ALL-UNNAMED");
    assertThat(read(TRAINING)).contains("\"migd-\" + mode.label + \".aot\"", "-XX:AOTCacheOutput=");
    assertThat(read(Path.of("..", "daemon", "docker", "aot-train.sh")))
        .contains("io.migd.bench.footprint.AotTrain", "JAVA_TOOL_OPTIONS");
    assertThat(Files.isExecutable(Path.of("..", "daemon", "docker", "aot-train.sh"))).isTrue();
  }

  @Test
  void theChartsDefaultJvmOptionsAreTheOnesTheCacheWasMadeWith() {
    assertThat(Chart.render().env().get("JAVA_TOOL_OPTIONS")).isEqualTo(imageOptions());
  }

  @Test
  void eachNodeGroupRunsTheCacheOfItsKubeletMode() {
    String options = imageOptions().substring(0, imageOptions().indexOf(" -XX:AOTCache="));

    assertThat(
            Chart.render(Map.of("nodeGroups[0].kubelet.mode", "dra"), "1.36.0")
                .env()
                .get("JAVA_TOOL_OPTIONS"))
        .isEqualTo(options + " -XX:AOTCache=/opt/migd/migd-dra.aot");
    assertThat(
            Chart.render(Map.of("jvmOptions", "-XX:+UseSerialGC -Xmx96m"))
                .env()
                .get("JAVA_TOOL_OPTIONS"))
        .isEqualTo("-XX:+UseSerialGC -Xmx96m -XX:AOTCache=/opt/migd/migd-device-plugin.aot");
  }

  private String imageOptions() {
    return only(Pattern.compile("ENV JAVA_TOOL_OPTIONS=\"([^\"]+)\""), dockerfile);
  }

  @Test
  void theChartsDefaultMallocArenasAndApiDocsAreTheImagesAndItsCaches() {
    var chart = Chart.render().env();

    for (String name :
        List.of("MALLOC_ARENA_MAX", "SPRINGDOC_API_DOCS_ENABLED", "SPRINGDOC_SWAGGER_UI_ENABLED")) {
      String image = only(Pattern.compile("\\b" + name + "=(\\S+)"), dockerfile);
      assertThat(chart.get(name)).as(name).isEqualTo(image);
    }
    // made by the training run after the ENV lines, so the cache matches what a pod loads
    assertThat(dockerfile.indexOf("SPRINGDOC_API_DOCS_ENABLED="))
        .isLessThan(dockerfile.indexOf("aot-train.sh /tmp/aot-train.jar"));
  }

  @Test
  void reachesNvmlThroughTheNvidiaRuntimeAndHasNsenter() {
    assertThat(dockerfile)
        .contains("NVIDIA_VISIBLE_DEVICES=all", "NVIDIA_DRIVER_CAPABILITIES=compute,utility")
        .contains("util-linux")
        .contains("FROM eclipse-temurin:25-jre");
  }

  @Test
  void carriesNvidiaCtkAndTheCdiHookFromTheToolkitsBasePackageInTheFinalStage() {
    String last = dockerfile.substring(dockerfile.lastIndexOf("FROM "));

    assertThat(last)
        .contains("nvidia-container-toolkit-base=${NVIDIA_CONTAINER_TOOLKIT_VERSION}")
        .contains("nvidia.github.io/libnvidia-container")
        .contains("nvidia-ctk --version && command -v nvidia-cdi-hook");
  }

  private List<String> entrypoint() {
    String array = only(Pattern.compile("ENTRYPOINT \\[(.+)]"), dockerfile);
    return Arrays.stream(array.split(","))
        .map(String::strip)
        .map(s -> s.substring(1, s.length() - 1))
        .toList();
  }

  private static String jarOf(List<String> command) {
    return command.get(command.indexOf("-jar") + 1);
  }

  private static String only(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    assertThat(matcher.find()).as("%s in the file", pattern).isTrue();
    String found = matcher.group(1);
    assertThat(matcher.find()).as("%s only once", pattern).isFalse();
    return found;
  }

  private static String read(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
