package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.execute.Backoff;
import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.layout.NodeObserver;
import io.migd.nvml.Nvml;
import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.ffm.FfmNvml;
import io.migd.nvml.ffm.NvmlLibrary;
import io.migd.profiles.GpuModelCatalog;
import io.migd.profiles.MigConfigParser;
import io.migd.reconcile.Desired;
import io.migd.reconcile.GpuReset;
import io.migd.reconcile.GpuResult;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.Reconciler;
import io.migd.sim.SimulatedNvml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;

/** The commands migd runs (reset, reboot): argument lists, drained output, exit status checked. */
class CommandsIT {
  private static final GpuModelCatalog CATALOG = GpuModelCatalog.builtIn();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Backoff QUICK = new Backoff(Duration.ofMillis(10), Duration.ofMillis(40));

  @TempDir Path dir;
  private SimulatedNvml sim;
  private Nvml nvml;

  @BeforeEach
  void open() {
    sim = SimulatedNvml.extract(Path.of("target", "sim-commands").toAbsolutePath());
    sim.init("A100-SXM4-80GB");
    nvml = FfmNvml.open(NvmlLibrary.load(sim.libraryPath().toString()), NvmlCallObserver.NONE);
  }

  @AfterEach
  void close() {
    nvml.close();
  }

  @Test
  void aResetCommandPrintingMoreThanAMebibyteFinishes() {
    var gpu = new NodeObserver(nvml, CATALOG).observe(new GpuIndex(0));
    var reset =
        new CommandReset(
            List.of(
                "sh",
                "-c",
                "head -c 3000000 /dev/zero | tr '\\0' x; echo; echo reset $0",
                "{pciBusId}"),
            nvml);
    GpuReset.Result result = reset.reset(gpu);
    assertThat(result).isInstanceOf(GpuReset.Result.Done.class);
    assertThat(((GpuReset.Result.Done) result).detail()).contains("exited 0").contains("xxxx");
    assertThat(nvml.deviceCount()).as("NVML is initialised again").isEqualTo(1);
  }

  @Test
  void nvmlThatDoesNotInitialiseAfterAResetIsRetriedUntilItDoes() {
    var gpu = new NodeObserver(nvml, CATALOG).observe(new GpuIndex(0));
    sim.require("faults", "nvmlInit_v2#1=NVML_ERROR_DRIVER_NOT_LOADED");
    var reset = new CommandReset(List.of("true", "{pciBusId}"), nvml, TIMEOUT, QUICK, 3);

    GpuReset.Result result = reset.reset(gpu);

    assertThat(result).isInstanceOf(GpuReset.Result.Done.class);
    assertThat(nvml.deviceCount()).as("NVML is initialised again").isEqualTo(1);
  }

  @Test
  void nvmlThatStaysDownAfterAResetIsReportedAsDown() {
    var gpu = new NodeObserver(nvml, CATALOG).observe(new GpuIndex(0));
    sim.require("faults", "nvmlInit_v2=NVML_ERROR_DRIVER_NOT_LOADED");
    var reset = new CommandReset(List.of("true", "{pciBusId}"), nvml, TIMEOUT, QUICK, 2);

    GpuReset.Result result = reset.reset(gpu);

    assertThat(result).isInstanceOf(GpuReset.Result.NvmlDown.class);
    assertThat(result.toString())
        .contains("NVML did not initialise again")
        .contains("NVML_ERROR_DRIVER_NOT_LOADED")
        .contains("3 attempts");
    sim.require("faults", "");
    nvml.whileReleased(() -> null);
    assertThat(nvml.deviceCount()).as("NVML comes back once the driver does").isEqualTo(1);
  }

  @Test
  void aResetCommandThatFailsSaysHowWithItsOutput() {
    var gpu = new NodeObserver(nvml, CATALOG).observe(new GpuIndex(0));
    var reset =
        new CommandReset(
            List.of("sh", "-c", "echo cannot reset $0 >&2; exit 3", "{pciBusId}"), nvml);
    GpuReset.Result result = reset.reset(gpu);
    assertThat(result).isInstanceOf(GpuReset.Result.NotDone.class);
    assertThat(((GpuReset.Result.NotDone) result).detail())
        .contains("exited 3")
        .contains("cannot reset " + gpu.pci().busId());
  }

  @Test
  void aRebootCommandThatExitsOneFailsTheGpuWithItsOutputAndIsNotRunAgain() throws Exception {
    sim.require("passthrough", "--gpu", "0", "on");
    Path runs = dir.resolve("runs");
    var reboot =
        new CommandReboot(
            true,
            List.of(
                "sh", "-c", "echo ran >> \"$0\"; echo no reboot for you; exit 1", runs.toString()),
            dir.resolve("state"));
    var shipped = MigConfigParser.parse(Path.of("..", "profiles", "configs", "default.yaml"));
    Reconciler reconciler =
        Reconciler.over(
            nvml, CATALOG, shipped::config, ProgressListener.NONE, GpuReset.NONE, reboot);

    for (int attempt = 1; attempt <= 2; attempt++) {
      Outcome outcome = reconciler.reconcile(Desired.config(Desired.Source.FILE, "all-enabled", 7));
      GpuResult gpu0 = outcome.results().get(new GpuIndex(0));
      assertThat(gpu0).as("attempt %d", attempt).isInstanceOf(GpuResult.Failed.class);
      assertThat(gpu0.reason()).contains("no reboot for you").contains("exited 1");
    }
    assertThat(Files.readAllLines(runs)).containsExactly("ran");
    assertThat(dir.resolve("state").resolve(CommandReboot.FILE_NAME)).content().startsWith("7\n");
  }

  @Test
  void aCommandElementHoldingWhitespaceIsRefusedAtStartWithTheListForm() {
    assertThatThrownBy(
            () ->
                SpringApplication.run(
                        MigdApplication.class,
                        "--server.port=0",
                        "--migd.simulate=A100-SXM4-40GB",
                        "--migd.state-dir=" + dir,
                        "--migd.reset-command=nvidia-smi -r -i {pciBusId}")
                    .close())
        .hasRootCauseInstanceOf(CommandList.InvalidCommandException.class)
        .rootCause()
        .hasMessageContaining("migd.reset-command")
        .hasMessageContaining("--migd.reset-command=nvidia-smi,-r,-i,{pciBusId}");
    assertThatThrownBy(() -> CommandList.check("migd.reboot.command", List.of("systemctl reboot")))
        .hasMessageContaining("--migd.reboot.command=systemctl,reboot");
  }
}
