package io.migd.mps;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonRequestsTest {
  @TempDir Path root;

  @Test
  void writesOnlyTheLimitsASpecHas() {
    var requests = new DaemonRequests(new MpsPaths(root), 1024);
    assertThat(requests.content(new DaemonSpec("MIG-a", true, false, List.of())))
        .isEqualTo(
            """
            {
              "device": "MIG-a",
              "multiUser": true,
              "wholeGpu": false,
              "shmSizeBytes": 1024
            }
            """);
    assertThat(
            requests.content(
                new MpsDevice(
                    "GPU-t4",
                    new GpuIndex(2),
                    Usage.WHOLE_GPU,
                    Usage.ALL_COMPUTE_INSTANCES,
                    4,
                    15360)))
        .isEqualTo(
            """
            {
              "device": "GPU-t4",
              "multiUser": false,
              "wholeGpu": true,
              "activeThreadPercentage": 25,
              "pinnedMemoryLimitMib": 3840,
              "shmSizeBytes": 1024
            }
            """);
  }

  @Test
  void leavesTheDaemonsOfClaimsOutOfTheReconcilesRequests() throws Exception {
    var requests = new DaemonRequests(new MpsPaths(root), 1024);
    requests.request(
        new MpsDevice(
            "GPU-t4", new GpuIndex(2), Usage.WHOLE_GPU, Usage.ALL_COMPUTE_INSTANCES, 4, 15360));
    String claims = ClaimDaemons.id("uid-1", "gpu-2");
    requests.request(claims, new DaemonSpec("GPU-t4", false, true, List.of()));
    assertThat(Files.exists(root.resolve(claims).resolve("daemon.json"))).isTrue();
    assertThat(requests.requested()).containsExactly("GPU-t4");
    assertThat(claims).startsWith("dra-").hasSize(20);
  }
}
