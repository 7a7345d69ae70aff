package io.migd.layout;

import io.migd.nvml.GpuInstanceProfile;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import io.migd.profiles.ProfileName;
import io.migd.profiles.ProfileNameException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names a GPU-instance profile the driver reports: NVML's own name ("MIG 1g.10gb") wins; older
 * drivers leave it empty, and then the catalogue names the profile id, else the naming rule ({@link
 * ProfileName#memoryGigabytes}).
 */
final class DriverProfileNames {
  private static final Logger log = LoggerFactory.getLogger(DriverProfileNames.class);
  private static final String MIG_NAME_PREFIX = "MIG ";

  private DriverProfileNames() {}

  static ProfileName of(GpuInstanceProfile profile, long gpuMemoryMiB, Optional<GpuModel> known) {
    String driverName = profile.name();
    if (driverName.startsWith(MIG_NAME_PREFIX)) {
      try {
        return ProfileName.parse(driverName.substring(MIG_NAME_PREFIX.length()));
      } catch (ProfileNameException e) {
        log.warn(
            "NVML profile name does not parse, naming it from the catalogue name={} reason={}",
            driverName,
            e.getMessage());
      }
    }
    return known
        .flatMap(model -> model.giProfileById(profile.id()))
        .map(GiProfile::name)
        .orElseGet(
            () ->
                ProfileName.of(
                    profile.sliceCount(),
                    ProfileName.memoryGigabytes(profile.memorySizeMiB(), gpuMemoryMiB)));
  }
}
