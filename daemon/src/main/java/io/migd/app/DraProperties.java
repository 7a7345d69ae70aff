package io.migd.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

/**
 * DRA mode's properties ({@code migd.dra.*}).
 *
 * @param driverName the DRA driver's name; NVIDIA's by default, so claims and DeviceClasses written
 *     for NVIDIA's driver select migd's devices
 * @param registryDir the kubelet's plugin registry, where the registration socket goes
 * @param pluginDir where the DRA socket goes; empty for {@code /var/lib/kubelet/plugins/<driver>}
 * @param qps how many ResourceSlice writes per second at most
 * @param burst how many ResourceSlice writes at once at most
 * @param partitionable publish dynamic devices on Kubernetes 1.35 (the operator enabled the alpha
 *     gate DRAPartitionableDevices in the API server and the scheduler)
 * @param procRoot where {@code /proc} is (the MIG capability files and the boot id)
 * @param reclaimAfter how long an unprepared claim's MIG instance is kept idle for reuse
 * @param claimCheck how often each prepared claim is read back; one that is gone or no longer
 *     allocated here is unprepared
 * @param timesliceCommand sets a whole GPU's time slice for a claim's {@code TimeSlicing} config,
 *     as an argument list; {@code {uuid}} and {@code {interval}} (0 to 3) are replaced
 * @param shares publish shareable twins where a config item says {@code shares: true}: the operator
 *     asserts every kube-scheduler is 1.36.2 or later with DRAConsumableCapacity on
 * @param sharesNamespaces {@code migd.dra.shares.namespaces}: {@code single} fails a share whose
 *     namespace differs from the device's prepared shares
 */
public record DraProperties(
    @DefaultValue("gpu.nvidia.com") String driverName,
    @DefaultValue("/var/lib/kubelet/plugins_registry") Path registryDir,
    @DefaultValue("") String pluginDir,
    @DefaultValue("20") double qps,
    @DefaultValue("40") int burst,
    @DefaultValue("false") boolean partitionable,
    @DefaultValue("/proc") Path procRoot,
    @DefaultValue("0s") Duration reclaimAfter,
    @DefaultValue("10m") Duration claimCheck,
    @DefaultValue("nvidia-smi,compute-policy,-i,{uuid},--set-timeslice,{interval}")
        List<String> timesliceCommand,
    @DefaultValue("false") boolean shares,
    @Name("shares.namespaces") @DefaultValue("any") ShareNamespaces sharesNamespaces) {
  /** Refuses rates and periods that cannot work. */
  public DraProperties {
    timesliceCommand = CommandList.check("migd.dra.timeslice-command", timesliceCommand);
    if (qps <= 0 || burst < 1) {
      throw new IllegalArgumentException(
          "migd.dra.qps must be positive and migd.dra.burst at least 1, got %s and %d"
              .formatted(qps, burst));
    }
    if (reclaimAfter.isNegative() || claimCheck.isNegative() || claimCheck.isZero()) {
      throw new IllegalArgumentException(
          "migd.dra.reclaim-after must not be negative and migd.dra.claim-check must be"
              + " positive");
    }
  }

  /** The DRA socket's directory: {@code pluginDir}, or the kubelet's default for the driver. */
  public Path pluginDirectory() {
    return pluginDir.isBlank()
        ? Path.of("/var/lib/kubelet/plugins").resolve(driverName)
        : Path.of(pluginDir);
  }
}
