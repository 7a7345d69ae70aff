package io.migd.pool;

import java.util.Objects;

/** A device attribute's value: exactly one of the four kinds ResourceSlice allows. */
public sealed interface Attribute {
  /** An integer attribute. */
  record Int(long value) implements Attribute {}

  /** A boolean attribute. */
  record Bool(boolean value) implements Attribute {}

  /** A string attribute of at most 64 characters. */
  record Text(String value) implements Attribute {
    /** Checks the API's length limit. */
    public Text {
      if (Objects.requireNonNull(value).length() > 64) {
        throw new IllegalArgumentException(
            "a string attribute holds at most 64 characters, got \"" + value + "\"");
      }
    }
  }

  /** A semantic version {@code MAJOR.MINOR.PATCH}, without leading zeros. */
  record Version(String value) implements Attribute {
    /** Checks the value is a plain semver. */
    public Version {
      if (!Objects.requireNonNull(value)
          .matches("(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)")) {
        throw new IllegalArgumentException("\"" + value + "\" is not a MAJOR.MINOR.PATCH version");
      }
    }
  }
}
