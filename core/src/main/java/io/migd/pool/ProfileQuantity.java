package io.migd.pool;

import java.util.function.ToLongFunction;

/**
 * What a GPU-instance profile has that the pool publishes, by NVIDIA's names: once as a device's
 * capacity ({@code copyEngines}) and once as a counter of the GPU's counter set ({@code
 * copy-engines}).
 */
enum ProfileQuantity {
  MEMORY("memory", "memory", p -> DeviceAttributes.mebibytes(p.memoryMiB())),
  MULTIPROCESSORS("multiprocessors", "multiprocessors", GpuFacts.MigProfile::multiprocessors),
  COPY_ENGINES("copyEngines", "copy-engines", GpuFacts.MigProfile::copyEngines),
  DECODERS("decoders", "decoders", GpuFacts.MigProfile::decoders),
  ENCODERS("encoders", "encoders", GpuFacts.MigProfile::encoders),
  JPEG_ENGINES("jpegEngines", "jpeg-engines", GpuFacts.MigProfile::jpegEngines),
  OFA_ENGINES("ofaEngines", "ofa-engines", GpuFacts.MigProfile::ofaEngines);

  private final String capacityName;
  private final String counterName;
  private final ToLongFunction<GpuFacts.MigProfile> value;

  ProfileQuantity(
      String capacityName, String counterName, ToLongFunction<GpuFacts.MigProfile> value) {
    this.capacityName = capacityName;
    this.counterName = counterName;
    this.value = value;
  }

  String capacityName() {
    return capacityName;
  }

  String counterName() {
    return counterName;
  }

  long of(GpuFacts.MigProfile profile) {
    return value.applyAsLong(profile);
  }
}
