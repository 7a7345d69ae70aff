package io.migd.pool;

import java.util.regex.Pattern;

/**
 * NVML's version strings as the semantic versions ResourceSlice attributes hold, as NVIDIA's driver
 * writes them: missing parts are zero and leading zeros go ({@code 8.0} is {@code 8.0.0}, {@code
 * 580.95.05} is {@code 580.95.5}, {@code 13.0} is {@code 13.0.0}).
 */
public final class Semver {
  private static final Pattern NVML_VERSION = Pattern.compile("[0-9]+(\\.[0-9]+){0,2}");

  private Semver() {}

  /**
   * The version in {@code MAJOR.MINOR.PATCH} form.
   *
   * @throws IllegalArgumentException when the text is not one to three dot-separated numbers
   */
  public static Attribute.Version of(String nvmlVersion) {
    String text = nvmlVersion.strip();
    if (!NVML_VERSION.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "version \"" + nvmlVersion + "\" is not one to three dot-separated numbers");
    }
    String[] parts = text.split("\\.");
    var semver = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      if (i > 0) {
        semver.append('.');
      }
      semver.append(i < parts.length ? withoutLeadingZeros(parts[i]) : "0");
    }
    return new Attribute.Version(semver.toString());
  }

  private static String withoutLeadingZeros(String digits) {
    int first = 0;
    while (first < digits.length() - 1 && digits.charAt(first) == '0') {
      first++;
    }
    return digits.substring(first);
  }
}
