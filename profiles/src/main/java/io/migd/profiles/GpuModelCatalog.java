package io.migd.profiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The GPU models migd knows without asking NVML: their PCI ids, memory and MIG profiles.
 *
 * <p>The built-in catalogue is {@code io/migd/profiles/gpu-models.tsv} on the class path, the same
 * data the simulated NVML serves, so a simulated node and the catalogue always agree.
 *
 * @param models the models, in the order of the data file
 */
public record GpuModelCatalog(List<GpuModel> models) {
  private static final String RESOURCE = "gpu-models.tsv";

  /**
   * Copies the list and checks that keys (ignoring case) and PCI device ids are unique.
   *
   * @throws IllegalArgumentException on a duplicate key or PCI device id
   */
  public GpuModelCatalog {
    models = List.copyOf(models);
    var keys = new HashSet<String>();
    var ids = new HashSet<Integer>();
    for (var model : models) {
      if (!keys.add(model.key().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("duplicate model key " + model.key());
      }
      if (!ids.add(model.pciDeviceId())) {
        throw new IllegalArgumentException("duplicate PCI device id " + model.pciDeviceIdHex());
      }
    }
  }

  /**
   * The built-in catalogue, read from the class path on first use and shared afterwards.
   *
   * @return the catalogue
   * @throws CatalogFormatException if the bundled data is malformed (a build defect)
   */
  public static GpuModelCatalog builtIn() {
    return BuiltIn.CATALOG;
  }

  /**
   * Parses catalogue data in the {@code gpu-models.tsv} format, strictly: every record kind, field
   * name and value is checked, and references between records must resolve.
   *
   * @param text the file content
   * @param source a name for messages, such as the file name
   * @return the catalogue
   * @throws CatalogFormatException naming the source, the line number and the reason
   */
  public static GpuModelCatalog parse(String text, String source) {
    return new CatalogParser(source).parse(text);
  }

  /**
   * The model with the given key, ignoring case ({@code a100-sxm4-40gb} finds {@code
   * A100-SXM4-40GB}), as used by {@code --simulate}.
   *
   * @param key the model key
   * @return the model, or empty if there is none
   */
  public Optional<GpuModel> byKey(String key) {
    return models.stream().filter(m -> m.key().equalsIgnoreCase(key)).findFirst();
  }

  /**
   * The model with the given PCI device id, as NVML reports it ({@code 0xDDDDVVVV}).
   *
   * @param pciDeviceId device and vendor id
   * @return the model, or empty if the catalogue does not know the device
   */
  public Optional<GpuModel> byPciDeviceId(int pciDeviceId) {
    return models.stream().filter(m -> m.pciDeviceId() == pciDeviceId).findFirst();
  }

  /**
   * The MIG-capable models, in catalogue order.
   *
   * @return the models with GPU-instance profiles
   */
  public List<GpuModel> migModels() {
    return models.stream().filter(GpuModel::migCapable).toList();
  }

  /** Holder, so the file is read once and only when first asked for. */
  private static final class BuiltIn {
    static final GpuModelCatalog CATALOG = load();

    private static GpuModelCatalog load() {
      try (InputStream in = GpuModelCatalog.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new CatalogFormatException(
              "class-path resource io/migd/profiles/" + RESOURCE + " is missing", null);
        }
        return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), RESOURCE);
      } catch (IOException e) {
        throw new UncheckedIOException("reading class-path resource " + RESOURCE, e);
      }
    }
  }
}
