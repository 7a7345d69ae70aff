package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.InternalChannelz;
import io.migd.kubelet.FakePodResources;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A one-shot command on a kubelet's node asks PodResources which slices pods hold, then closes its
 * channel to it (issue 17: the channel was left open). Run in this JVM, whose gRPC channels
 * channelz lists until they have terminated.
 */
class OneShotChannelsIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"plan", "apply"})
  void closesItsChannelToThePodResourcesServer(String command) throws Exception {
    Path socketDir = Files.createTempDirectory(Path.of("/tmp"), "migd-pr");
    Path socket = socketDir.resolve("pod-resources.sock");
    try (var podResources = FakePodResources.start(socket)) {
      var err = new StringWriter();
      var commandLine = MigdCommand.commandLine();
      commandLine.setOut(new PrintWriter(new StringWriter()));
      commandLine.setErr(new PrintWriter(err));

      int status =
          commandLine.execute(
              command,
              "-c",
              "all-1g.5gb",
              "--simulate=A100-SXM4-40GB",
              "--migd.kubelet.pod-resources-socket=" + socket,
              "--migd.nvml.extract-dir=" + dir.resolve("nvml"),
              "--migd.state-dir=" + dir.resolve("state"));

      assertThat(status).as("%s", err).isZero();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(channelsTo(socket)).isEmpty());
    } finally {
      Files.deleteIfExists(socket);
      Files.deleteIfExists(socketDir);
    }
  }

  private static List<String> channelsTo(Path socket) throws Exception {
    var targets = new ArrayList<String>();
    for (var channel : InternalChannelz.instance().getRootChannels(0, 1000).channels) {
      String target = channel.getStats().get(10, TimeUnit.SECONDS).target;
      if (target.contains(socket.toString())) {
        targets.add(target);
      }
    }
    return targets;
  }
}
