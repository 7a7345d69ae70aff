package io.migd.profiles;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Checks a config file against the GPU model catalogue before any GPU is touched: that every
 * profile an item names exists, with no more instances than the profile allows, on the models the
 * item can select. Used by {@code migd plan}/{@code apply} to warn early and by the tests of the
 * shipped files. A node still decides per GPU: a problem here becomes {@code Infeasible} there.
 */
public final class CatalogCheck {
  private CatalogCheck() {}

  /**
   * The catalogue models an item can apply to: those its {@code device-filter} names, or every
   * MIG-capable model when it has no filter.
   *
   * @param item a config item
   * @param catalog the catalogue
   * @return the models, in catalogue order; empty if a filter names only unknown devices
   */
  public static List<GpuModel> modelsSelectedBy(MigConfigItem item, GpuModelCatalog catalog) {
    var candidates = item.deviceFilters().isEmpty() ? catalog.migModels() : catalog.models();
    return candidates.stream().filter(item::mayApplyTo).toList();
  }

  /**
   * Every profile problem of the file, one sentence each. An item with a {@code device-filter} must
   * suit every model the filter names; an item without one must suit at least one MIG model (on a
   * mixed node the same item meets several models). Filters that name only devices unknown to the
   * catalogue are not checked: NVML will answer for them on the node.
   *
   * @param file a parsed config file
   * @param catalog the catalogue
   * @return the problems, empty if there are none
   */
  public static List<String> problems(MigConfigFile file, GpuModelCatalog catalog) {
    var problems = new ArrayList<String>();
    for (var config : file.configs()) {
      int index = 0;
      for (var item : config.items()) {
        var where = "config \"" + config.name() + "\", item " + index++ + ": ";
        var models = modelsSelectedBy(item, catalog);
        item.migDevices()
            .forEach(
                (name, count) -> {
                  var failing =
                      models.stream().filter(m -> problem(m, name, count) != null).toList();
                  var reasons =
                      failing.stream()
                          .map(m -> m.key() + " " + problem(m, name, count))
                          .collect(Collectors.joining("; "));
                  if (!item.deviceFilters().isEmpty() && !failing.isEmpty()) {
                    problems.add(where + reasons);
                  } else if (!models.isEmpty() && failing.size() == models.size()) {
                    problems.add(
                        where + "no MIG model of the catalogue suits it (" + reasons + ")");
                  }
                });
      }
    }
    return problems;
  }

  /** Why the model cannot hold {@code count} × {@code name}, or null if it can. */
  private static String problem(GpuModel model, ProfileName name, int count) {
    var profile = model.giProfile(name);
    if (profile.isEmpty()) {
      return "has no profile " + name;
    }
    var gi = profile.get();
    int max = GeneratedConfigs.maxCount(gi);
    if (name.hasComputeInstancePart()) {
      // mig-parted fills one GPU instance with compute instances before it creates the next.
      var ci = gi.ciProfileBySlices(name.computeSlices());
      if (ci.isEmpty()) {
        return gi.name() + " has no " + name.computeSlices() + "-slice compute instance";
      }
      max *= ci.get().instances();
    }
    return count > max ? "fits at most " + max + " × " + name + ", not " + count : null;
  }
}
