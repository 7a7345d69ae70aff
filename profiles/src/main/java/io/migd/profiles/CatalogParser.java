package io.migd.profiles;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@code gpu-models.tsv}: {@code model}, {@code gi} and {@code ci} records, one a line. A
 * {@code gi} line must follow its model and a {@code ci} line its GI profile. Any deviation fails
 * with the line number and the reason.
 */
final class CatalogParser {

  private final String source;
  private final Map<String, ModelDraft> models = new LinkedHashMap<>();
  private int lineNumber;

  CatalogParser(String source) {
    this.source = source;
  }

  GpuModelCatalog parse(String text) {
    for (var line : text.split("\n", -1)) {
      lineNumber++;
      var content = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
      if (!content.isBlank() && !content.startsWith("#")) {
        try {
          record(content.split("\\|", -1));
        } catch (IllegalArgumentException e) {
          throw fail(lineNumber, e.getMessage(), e);
        }
      }
    }
    var built = new ArrayList<GpuModel>();
    for (var model : models.values()) {
      var profiles = new ArrayList<GiProfile>();
      for (var gi : model.gis) {
        if (gi.cis.stream().noneMatch(ci -> ci.slices() == gi.profile.slices())) {
          throw fail(gi.lineNumber, gi.line.fail("no ci line spans its slices").getMessage(), null);
        }
        profiles.add(giProfile(gi.line, gi.cis));
      }
      try {
        built.add(gpuModel(model.line, profiles));
      } catch (IllegalArgumentException e) {
        throw fail(model.lineNumber, e.getMessage(), e);
      }
    }
    try {
      return new GpuModelCatalog(built);
    } catch (IllegalArgumentException e) {
      throw new CatalogFormatException(source + ": " + e.getMessage(), e);
    }
  }

  private void record(String[] parts) {
    var line =
        switch (parts[0]) {
          case "model" -> new CatalogLine(parts, List.of("model key"), CatalogLine.MODEL_FIELDS);
          case "gi" ->
              new CatalogLine(parts, List.of("model key", "GI profile"), CatalogLine.GI_FIELDS);
          case "ci" ->
              new CatalogLine(parts, List.of("model key", "GI profile id"), CatalogLine.CI_FIELDS);
          default ->
              throw new IllegalArgumentException(
                  "unknown record kind \"" + parts[0] + "\" (expected model, gi or ci)");
        };
    try {
      switch (parts[0]) {
        case "model" -> model(line);
        case "gi" -> gi(line);
        default -> ci(line);
      }
    } catch (IllegalArgumentException e) {
      throw line.fail(e.getMessage());
    }
  }

  private void model(CatalogLine line) {
    var key = line.positional(0);
    if (!key.matches("[A-Za-z0-9][A-Za-z0-9-]*")) {
      throw new IllegalArgumentException("the key has characters other than letters, digits, '-'");
    }
    if (models.containsKey(key.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("the model is defined twice");
    }
    if (!line.text("pci").matches("0x[0-9A-F]{8}")) {
      throw new IllegalArgumentException(
          "pci \"" + line.text("pci") + "\" is not 0xDDDDVVVV (upper-case hex)");
    }
    if (!line.text("mig").matches("[01]")) {
      throw new IllegalArgumentException("mig must be 0 or 1, got " + line.text("mig"));
    }
    var name = line.text("name");
    if (name.isBlank() || !name.strip().equals(name)) {
      throw new IllegalArgumentException("name is empty or has surrounding spaces");
    }
    for (var number : List.of("arch", "memory_mib", "sm", "memory_slices")) {
      line.number(number);
    }
    ComputeCapability.parse(line.text("cc"));
    models.put(key.toLowerCase(Locale.ROOT), new ModelDraft(lineNumber, line, new ArrayList<>()));
  }

  private void gi(CatalogLine line) {
    var model = existingModel(line.positional(0));
    if (!model.migCapable()) {
      throw new IllegalArgumentException("model " + model.key() + " has mig=0");
    }
    var profile = giProfile(line, List.of());
    for (var placement : profile.placements()) {
      if (placement.end() > model.memorySlices()) {
        throw new IllegalArgumentException(
            "placement " + placement + " exceeds " + model.memorySlices() + " memory slices");
      }
    }
    for (var other : model.gis) {
      var o = other.profile;
      if (o.name().equals(profile.name())
          || o.id() == profile.id()
          || o.index() == profile.index()) {
        throw new IllegalArgumentException("name, index or id repeats GI profile " + o.name());
      }
    }
    model.gis.add(new GiDraft(lineNumber, line, profile, new ArrayList<>()));
  }

  private void ci(CatalogLine line) {
    var model = existingModel(line.positional(0));
    int giId = Decimal.parse(line.positional(1), "GI profile id");
    var gi =
        model.gis.stream()
            .filter(g -> g.profile.id() == giId)
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no GI profile with id " + giId + " on an earlier line"));
    int slices = line.number("slices");
    if (slices > gi.profile.slices()) {
      throw new IllegalArgumentException("a CI of " + slices + " slices exceeds its GPU instance");
    }
    var ci =
        new CiProfile(
            line.number("index"),
            line.number("id"),
            slices,
            line.number("instances"),
            line.number("sm"),
            CiProfile.slicePlacements(Math.max(1, slices), gi.profile.slices()));
    if (gi.cis.stream().anyMatch(c -> c.index() == ci.index() || c.id() == ci.id())) {
      throw new IllegalArgumentException("CI index or id " + ci.index() + " repeats");
    }
    gi.cis.add(ci);
  }

  private ModelDraft existingModel(String key) {
    var model = models.get(key.toLowerCase(Locale.ROOT));
    if (model == null) {
      throw new IllegalArgumentException("model " + key + " is not defined on an earlier line");
    }
    return model;
  }

  private static GpuModel gpuModel(CatalogLine line, List<GiProfile> profiles) {
    return new GpuModel(
        line.positional(0),
        line.text("name"),
        Integer.parseUnsignedInt(line.text("pci").substring(2), 16),
        line.number("arch"),
        ComputeCapability.parse(line.text("cc")),
        line.number("memory_mib"),
        line.number("sm"),
        line.text("mig").equals("1"),
        line.number("memory_slices"),
        profiles);
  }

  private static GiProfile giProfile(CatalogLine line, List<CiProfile> cis) {
    var placements = new ArrayList<Placement>();
    for (var placement : line.text("placements").split(",", -1)) {
      placements.add(Placement.parse(placement));
    }
    return new GiProfile(
        ProfileName.parse(line.positional(1)),
        line.number("index"),
        line.number("id"),
        line.number("slices"),
        line.number("instances"),
        line.number("memory_mib"),
        line.number("sm"),
        line.number("ce"),
        line.number("dec"),
        line.number("enc"),
        line.number("jpg"),
        line.number("ofa"),
        placements,
        cis);
  }

  private CatalogFormatException fail(int line, String reason, Throwable cause) {
    return new CatalogFormatException(source + " line " + line + ": " + reason, cause);
  }

  private record ModelDraft(int lineNumber, CatalogLine line, List<GiDraft> gis) {
    String key() {
      return line.positional(0);
    }

    boolean migCapable() {
      return line.text("mig").equals("1");
    }

    int memorySlices() {
      return line.number("memory_slices");
    }
  }

  private record GiDraft(
      int lineNumber, CatalogLine line, GiProfile profile, List<CiProfile> cis) {}
}
