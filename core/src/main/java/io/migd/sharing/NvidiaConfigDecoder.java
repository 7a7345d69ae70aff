package io.migd.sharing;

import io.migd.sharing.MpsConfig.MemoryLimit;
import io.migd.sharing.MpsConfig.ThreadPercentage;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decodes NVIDIA's opaque parameters strictly, as NVIDIA's driver decodes a claim's: from the plain
 * tree JSON gives ({@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean}, null
 * for absent), every field known or the claim fails naming it, then NVIDIA's normalisation (a
 * missing interval is {@code Default}, a missing {@code mpsConfig} is empty) and validation.
 */
public final class NvidiaConfigDecoder {
  private static final Set<String> NOT_SERVED =
      Set.of("VfioDeviceConfig", "ComputeDomainChannelConfig", "ComputeDomainDaemonConfig");
  private static final List<String> INTERVALS = List.of("Default", "Short", "Medium", "Long");
  private static final Pattern QUANTITY =
      Pattern.compile(
          "([+-]?[0-9]+(?:\\.[0-9]*)?|[+-]?\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[mkMGTPE]|[eE][+-]?[0-9]+)?");
  private static final BigInteger MIB = BigInteger.valueOf(1L << 20);

  private NvidiaConfigDecoder() {}

  /**
   * The configuration {@code parameters} hold.
   *
   * @throws ConfigRefused naming the field, kind or value migd does not serve or NVIDIA refuses
   */
  public static NvidiaConfig decode(Object parameters) {
    Map<String, Object> top = object(parameters, "parameters");
    Object apiVersion = top.get("apiVersion");
    Object kind = top.get("kind");
    if (!NvidiaConfig.API_VERSION.equals(apiVersion)) {
      throw new ConfigRefused(
          "apiVersion "
              + apiVersion
              + " is not "
              + NvidiaConfig.API_VERSION
              + ", which migd reads");
    }
    if (kind instanceof String k && NOT_SERVED.contains(k)) {
      throw new ConfigRefused(
          "kind " + k + " is not served by migd (GpuConfig and MigDeviceConfig are)");
    }
    return switch (kind instanceof String k ? k : null) {
      case "GpuConfig" -> {
        known(top, "GpuConfig", "apiVersion", "kind", "sharing");
        yield NvidiaConfig.gpu(sharing(top.get("sharing"), "GpuConfig", true));
      }
      case "MigDeviceConfig" -> {
        known(top, "MigDeviceConfig", "apiVersion", "kind", "sharing");
        yield NvidiaConfig.mig(sharing(top.get("sharing"), "MigDeviceConfig", false));
      }
      case null -> throw new ConfigRefused("the parameters name no kind (" + kind + ")");
      default ->
          throw new ConfigRefused("kind " + kind + " is not a kind of " + NvidiaConfig.API_VERSION);
    };
  }

  private static DeviceSharing sharing(Object value, String kind, boolean timeSlicing) {
    if (value == null) {
      return new DeviceSharing.Exclusive();
    }
    String at = kind + ".sharing";
    Map<String, Object> sharing = object(value, at);
    if (timeSlicing) {
      known(sharing, at, "strategy", "timeSlicingConfig", "mpsConfig");
    } else {
      known(sharing, at, "strategy", "mpsConfig");
    }
    Object strategy = sharing.get("strategy");
    Object slicing = sharing.get("timeSlicingConfig");
    Object mps = sharing.get("mpsConfig");
    return switch (strategy instanceof String k ? k : null) {
      case "TimeSlicing" -> {
        if (mps != null) {
          throw new ConfigRefused(at + ".mpsConfig is set, but the strategy is TimeSlicing");
        }
        yield new DeviceSharing.TimeSlicing(interval(slicing, at + ".timeSlicingConfig"));
      }
      case "MPS" -> {
        if (slicing != null) {
          throw new ConfigRefused(at + ".timeSlicingConfig is set, but the strategy is MPS");
        }
        yield new DeviceSharing.Mps(mps(mps, at + ".mpsConfig"));
      }
      case null ->
          throw new ConfigRefused(at + " names no strategy (TimeSlicing or MPS): " + strategy);
      default ->
          throw new ConfigRefused(
              "unknown GPU sharing strategy " + strategy + " in " + at + " (TimeSlicing or MPS)");
    };
  }

  private static int interval(Object value, String at) {
    if (value == null) {
      return 0;
    }
    Map<String, Object> config = object(value, at);
    known(config, at, "interval");
    Object interval = config.get("interval");
    if (interval == null) {
      return 0;
    }
    int index = INTERVALS.indexOf(interval);
    if (index < 0) {
      throw new ConfigRefused(
          at + ".interval " + interval + " is not one of " + String.join(", ", INTERVALS));
    }
    return index;
  }

  private static MpsConfig mps(Object value, String at) {
    if (value == null) {
      return MpsConfig.DEFAULTS;
    }
    Map<String, Object> config = object(value, at);
    known(
        config,
        at,
        "defaultActiveThreadPercentage",
        "defaultPinnedDeviceMemoryLimit",
        "defaultPerDevicePinnedMemoryLimit",
        "multiUser");
    ThreadPercentage threads = new ThreadPercentage.ServerDefault();
    Object percent = config.get("defaultActiveThreadPercentage");
    if (percent != null) {
      if (!(percent instanceof Integer || percent instanceof Long)) {
        throw new ConfigRefused(
            at + ".defaultActiveThreadPercentage " + percent + " is not an integer");
      }
      long p = ((Number) percent).longValue();
      if (p < 0) {
        throw new ConfigRefused(at + ".defaultActiveThreadPercentage must not be negative");
      }
      if (p > 100) {
        throw new ConfigRefused(at + ".defaultActiveThreadPercentage must not be greater than 100");
      }
      threads = new ThreadPercentage.Percent((int) p);
    }
    Object memory = config.get("defaultPinnedDeviceMemoryLimit");
    MemoryLimit defaultMemory =
        memory == null
            ? new MemoryLimit.Unlimited()
            : mib(memory, at + ".defaultPinnedDeviceMemoryLimit");
    var perDevice = new LinkedHashMap<String, MemoryLimit.Mib>();
    Object devices = config.get("defaultPerDevicePinnedMemoryLimit");
    if (devices != null) {
      String devicesAt = at + ".defaultPerDevicePinnedMemoryLimit";
      object(devices, devicesAt)
          .forEach((key, limit) -> perDevice.put(key, mib(limit, devicesAt + "." + key)));
    }
    Object multiUser = config.get("multiUser");
    if (multiUser != null && !(multiUser instanceof Boolean)) {
      throw new ConfigRefused(at + ".multiUser " + multiUser + " is not true or false");
    }
    return new MpsConfig(Boolean.TRUE.equals(multiUser), threads, defaultMemory, perDevice);
  }

  /** A Kubernetes quantity as NVIDIA turns it into a limit: whole MiB, at least one. */
  private static MemoryLimit.Mib mib(Object value, String at) {
    BigInteger bytes = bytes(value, at);
    BigInteger mib = bytes.divide(MIB);
    if (mib.signum() <= 0) {
      throw new ConfigRefused(at + " " + value + ": value set too low (less than 1Mi)");
    }
    return new MemoryLimit.Mib(mib.longValueExact());
  }

  private static BigInteger bytes(Object value, String at) {
    String text = value instanceof Number || value instanceof String ? value.toString() : "";
    var m = QUANTITY.matcher(text.strip());
    if (!m.matches()) {
      throw new ConfigRefused(at + " " + value + " is not a quantity (such as 10Gi)");
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    BigDecimal scaled =
        switch (suffix) {
          case "" -> number;
          case "m" -> number.movePointLeft(3);
          case "k" -> number.movePointRight(3);
          case "M" -> number.movePointRight(6);
          case "G" -> number.movePointRight(9);
          case "T" -> number.movePointRight(12);
          case "P" -> number.movePointRight(15);
          case "E" -> number.movePointRight(18);
          case "Ki" -> number.multiply(BigDecimal.valueOf(1L << 10));
          case "Mi" -> number.multiply(BigDecimal.valueOf(1L << 20));
          case "Gi" -> number.multiply(BigDecimal.valueOf(1L << 30));
          case "Ti" -> number.multiply(BigDecimal.valueOf(1L << 40));
          case "Pi" -> number.multiply(BigDecimal.valueOf(1L << 50));
          case "Ei" -> number.multiply(BigDecimal.valueOf(1L << 60));
          default -> number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        };
    if (scaled.signum() < 0) {
      throw new ConfigRefused(at + " " + value + " is negative");
    }
    return scaled.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object value, String at) {
    if (!(value instanceof Map<?, ?> map)) {
      throw new ConfigRefused(at + " is not an object");
    }
    return (Map<String, Object>) map;
  }

  private static void known(Map<String, Object> object, String at, String... fields) {
    List<String> allowed = List.of(fields);
    List<String> unknown = object.keySet().stream().filter(k -> !allowed.contains(k)).toList();
    if (!unknown.isEmpty()) {
      throw new ConfigRefused(
          "unknown field"
              + (unknown.size() == 1 ? " " : "s ")
              + String.join(", ", unknown)
              + " in "
              + at
              + " (it has "
              + String.join(", ", allowed)
              + ")");
    }
  }
}
