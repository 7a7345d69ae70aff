package io.migd.profiles;

import java.util.List;
import java.util.Objects;

/**
 * A named config of a mig-parted config file ({@code all-1g.10gb}, {@code all-balanced}, ...): the
 * name a node label, {@code migd.config} or REST selects, and its items in file order.
 *
 * @param name the config name, a key under {@code mig-configs}
 * @param items the items, at least one
 */
public record MigConfig(String name, List<MigConfigItem> items) {

  /**
   * Validates and copies.
   *
   * @throws IllegalArgumentException if the name is blank or there is no item
   */
  public MigConfig {
    Objects.requireNonNull(name, "name");
    items = List.copyOf(items);
    if (name.isBlank()) {
      throw new IllegalArgumentException("config name is blank");
    }
    if (items.isEmpty()) {
      throw new IllegalArgumentException("config \"" + name + "\" has no items");
    }
  }
}
