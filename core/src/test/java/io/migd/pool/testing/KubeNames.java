package io.migd.pool.testing;

import java.util.regex.Pattern;

/** The Kubernetes name rules a ResourceSlice's names must follow. */
final class KubeNames {
  static final int MAX_POOL_NAME_LENGTH = 253;

  private static final Pattern TAINT_KEY_NAME =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

  private KubeNames() {}

  /**
   * A DNS label: at most 63 of {@code [a-z0-9-]}, starting and ending alphanumeric. Written out
   * instead of a regular expression, which cost most of the fragmentation benchmark's time.
   */
  static boolean isLabel(String name) {
    return isLabel(name, 0, name.length());
  }

  static boolean isLabel(String name, int from, int to) {
    if (to <= from || to - from > 63 || name.charAt(from) == '-' || name.charAt(to - 1) == '-') {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /** DNS labels joined by '.', at most {@code maxLength} in all. */
  static boolean isSubdomain(String name, int maxLength) {
    if (name.length() > maxLength) {
      return false;
    }
    int from = 0;
    for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', from)) {
      if (!isLabel(name, from, dot)) {
        return false;
      }
      from = dot + 1;
    }
    return isLabel(name, from, name.length());
  }

  static boolean isCIdentifier(String id) {
    if (id.isEmpty() || Character.isDigit(id.charAt(0))) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
        return false;
      }
    }
    return true;
  }

  static boolean isPoolName(String name) {
    if (name.isEmpty() || name.length() > MAX_POOL_NAME_LENGTH) {
      return false;
    }
    for (var part : name.split("/", -1)) {
      if (!isSubdomain(part, 253)) {
        return false;
      }
    }
    return true;
  }

  /** A C identifier of at most 32 characters, optionally after a DNS subdomain (<= 63) and '/'. */
  static boolean isQualifiedName(String name) {
    int slash = name.indexOf('/');
    String id = slash < 0 ? name : name.substring(slash + 1);
    if (slash >= 0 && !isSubdomain(name.substring(0, slash), 63)) {
      return false;
    }
    return id.length() <= 32 && isCIdentifier(id);
  }

  /** A label key: an optional DNS subdomain prefix and '/', then a name of at most 63. */
  static boolean isTaintKey(String key) {
    int slash = key.indexOf('/');
    String name = slash < 0 ? key : key.substring(slash + 1);
    if (slash >= 0 && !isSubdomain(key.substring(0, slash), 253)) {
      return false;
    }
    return name.length() <= 63 && TAINT_KEY_NAME.matcher(name).matches();
  }
}
