package io.migd.node.dra;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A Kubernetes component's version as it reports it ({@code v1.36.2}, {@code v1.36.2-gke.1100}),
 * read up to its patch number.
 *
 * @param major the major number
 * @param minor the minor number
 * @param patch the patch number
 */
record KubeVersion(int major, int minor, int patch) implements Comparable<KubeVersion> {
  private static final Pattern SEMVER = Pattern.compile("^v?(\\d+)\\.(\\d+)\\.(\\d+)");

  /** The version {@code text} starts with; empty when it has no major, minor and patch number. */
  static Optional<KubeVersion> parse(String text) {
    var matcher = SEMVER.matcher(text == null ? "" : text.strip());
    if (!matcher.find()) {
      return Optional.empty();
    }
    return Optional.of(
        new KubeVersion(
            Integer.parseInt(matcher.group(1)),
            Integer.parseInt(matcher.group(2)),
            Integer.parseInt(matcher.group(3))));
  }

  @Override
  public int compareTo(KubeVersion other) {
    int byMajor = Integer.compare(major, other.major);
    if (byMajor != 0) {
      return byMajor;
    }
    int byMinor = Integer.compare(minor, other.minor);
    return byMinor != 0 ? byMinor : Integer.compare(patch, other.patch);
  }

  /** Whether this is {@code other} or later. */
  boolean atLeast(KubeVersion other) {
    return compareTo(other) >= 0;
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
