package io.migd.app;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.util.unit.DataSize;

/**
 * Every {@code migd.*} property migd knows, read from {@link MigdProperties}' records, and the
 * check that refuses one it does not know: a typo ({@code --migd.reconcile.resynk=1m}, {@code
 * MIGD_RECONCILE_RESYNK}) would otherwise be ignored without a word. Names compare as Spring binds
 * them (case, dashes and {@code _}/{@code .} aside; list indexes dropped). Exempt: {@code
 * MIGD_LOG_LEVEL} (the launcher's), and the variables Kubernetes' service links define for a
 * Service named {@code migd} ({@code MIGD_*_SERVICE_HOST}, {@code MIGD_*_SERVICE_PORT*}, {@code
 * MIGD_*_PORT*}).
 */
public final class KnownProperties {
  private static final Pattern SERVICE_LINK =
      Pattern.compile("MIGD(_[A-Z0-9_]+)?_(SERVICE_HOST|SERVICE_PORT.*|PORT.*)");
  private static final Pattern INDEX = Pattern.compile("(\\[\\d+]|\\.\\d+)(?=\\.|$)");

  // canonical form -> the name as the contract writes it
  private final Map<String, String> known = new TreeMap<>();

  private KnownProperties() {
    collect("migd", MigdProperties.class);
  }

  /** The properties of this migd. */
  public static KnownProperties ofMigd() {
    return new KnownProperties();
  }

  /** Every known property, as the contract writes it, in order. */
  public List<String> names() {
    return known.values().stream().sorted().toList();
  }

  /**
   * The first unknown property among {@code --name=value} arguments and the environment, as a
   * sentence naming it and the closest known one; empty when all are known.
   */
  public Optional<String> firstUnknown(List<String> args, Map<String, String> environment) {
    for (String arg : args) {
      if (!arg.startsWith("--")) {
        continue;
      }
      String name = arg.substring(2, arg.indexOf('=') < 0 ? arg.length() : arg.indexOf('='));
      if (name.toLowerCase(Locale.ROOT).startsWith("migd.") && !isKnown(name)) {
        return Optional.of(unknown("--" + name, name));
      }
    }
    return environment.keySet().stream()
        .sorted()
        .filter(key -> key.startsWith("MIGD_"))
        .filter(key -> !key.equals("MIGD_LOG_LEVEL") && !SERVICE_LINK.matcher(key).matches())
        .filter(key -> !isKnown(key.replace('_', '.')))
        .findFirst()
        .map(key -> unknown("the environment variable " + key, key.replace('_', '.')));
  }

  private boolean isKnown(String name) {
    return known.containsKey(canonical(name));
  }

  private String unknown(String shown, String name) {
    String closest =
        known.entrySet().stream()
            .min(
                Comparator.comparingInt(
                        (Map.Entry<String, String> e) -> distance(canonical(name), e.getKey()))
                    .thenComparing(Map.Entry::getKey))
            .map(Map.Entry::getValue)
            .orElseThrow();
    return shown
        + " is not a migd property (a typo?); the closest is "
        + closest
        + " (docs/contract.md lists them all)";
  }

  private static String canonical(String name) {
    return INDEX.matcher(name.toLowerCase(Locale.ROOT)).replaceAll("").replace("-", "");
  }

  private void collect(String prefix, Class<?> type) {
    for (RecordComponent component : type.getRecordComponents()) {
      Name named = named(type, component);
      String name = prefix + "." + (named != null ? named.value() : kebab(component.getName()));
      Class<?> valueType = component.getType();
      if (valueType.isRecord()) {
        collect(name, valueType);
      } else if (isLeaf(valueType, component.getGenericType())) {
        known.put(canonical(name), name);
      } else {
        throw new IllegalStateException(
            "MigdProperties." + component.getName() + " has a type the check does not know");
      }
    }
  }

  /** The {@code @Name} a component's constructor parameter binds under, or null. */
  private static Name named(Class<?> type, RecordComponent component) {
    try {
      return type.getDeclaredField(component.getName()).getAnnotation(Name.class);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException("record " + type + " lacks its component's field", e);
    }
  }

  private static boolean isLeaf(Class<?> type, Type generic) {
    if (type == List.class && generic instanceof ParameterizedType p) {
      return p.getActualTypeArguments()[0] == String.class;
    }
    return type.isPrimitive()
        || type.isEnum()
        || type == String.class
        || type == Path.class
        || type == Duration.class
        || type == DataSize.class;
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
