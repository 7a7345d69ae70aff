package io.migd.bench.fragmentation;

import io.migd.layout.GpuIndex;
import io.migd.nvml.InstancePlacement;
import io.migd.pool.GpuFacts;
import io.migd.profiles.GiProfile;
import io.migd.profiles.GpuModel;
import java.util.HexFormat;
import java.util.OptionalInt;

/**
 * {@link GpuFacts} of a catalogue model, as NVML would report them for GPU {@code index} (minor =
 * index), for a node that exists only in the benchmark.
 */
final class CatalogFacts {
  private static final int HOPPER = 9;

  private CatalogFacts() {}

  static GpuFacts of(GpuModel model, int index) {
    var profiles =
        model.giProfiles().stream()
            .map(
                (GiProfile p) ->
                    new GpuFacts.MigProfile(
                        p.id(),
                        p.name().toString(),
                        p.memoryMib(),
                        p.memorySlices(),
                        p.smCount(),
                        p.copyEngines(),
                        p.decoders(),
                        p.encoders(),
                        p.jpegDecoders(),
                        p.opticalFlowAccelerators(),
                        p.placements().stream()
                            .map(at -> new InstancePlacement(at.start(), at.size()))
                            .toList()))
            .toList();
    return new GpuFacts(
        new GpuIndex(index),
        index,
        "GPU-" + HexFormat.of().toHexDigits(index) + "-bench-" + model.key().toLowerCase(),
        model.nvmlName(),
        "Nvidia",
        model.architecture() >= HOPPER ? "Hopper" : "Ampere",
        model.computeCapability().toString(),
        "580.95.05",
        "13.0",
        "0000:%02x:00.0".formatted(0x18 + index),
        "",
        OptionalInt.empty(),
        model.memoryMib() << 20,
        profiles);
  }
}
