package io.migd.sharing;

import io.migd.sharing.NvidiaConfig.DeviceType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which configuration applies to an allocated device, as NVIDIA's driver decides it: class
 * configurations below the claim's, a later one above an earlier one; from the highest, the first
 * that names the device's request applies (its kind must fit the device), else the first that names
 * no request and whose kind fits; none leaves the device exclusive.
 */
public final class ConfigMatching {
  private ConfigMatching() {}

  /**
   * How the device {@code device} of {@code type}, allocated for {@code request} ({@code <request>}
   * or {@code <request>/<subrequest>}), is shared.
   *
   * @throws ConfigRefused when the configuration naming its request is of another kind
   */
  public static DeviceSharing sharingOf(
      List<SharingConfig> configs, String request, String device, DeviceType type) {
    List<SharingConfig> highestFirst = new ArrayList<>(configs);
    // stable: within a source, later entries stay after earlier ones; then reversed
    highestFirst.sort(Comparator.comparing(c -> !c.fromClass()));
    highestFirst = highestFirst.reversed();
    String parent = request.contains("/") ? request.substring(0, request.indexOf('/')) : request;
    for (SharingConfig c : highestFirst) {
      if (c.requests().contains(request) || c.requests().contains(parent)) {
        if (!c.config().fits(type)) {
          throw new ConfigRefused(
              "cannot apply "
                  + c.config().kind()
                  + " to device "
                  + device
                  + " of type "
                  + type.attribute()
                  + " (request "
                  + request
                  + ")");
        }
        return c.config().sharing();
      }
    }
    for (SharingConfig c : highestFirst) {
      if (c.requests().isEmpty() && c.config().fits(type)) {
        return c.config().sharing();
      }
    }
    return new DeviceSharing.Exclusive();
  }
}
