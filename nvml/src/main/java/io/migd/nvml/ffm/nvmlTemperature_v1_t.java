package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlTemperature_v1_t}. */
final class nvmlTemperature_v1_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"),
              JAVA_INT.withName("sensorType"),
              JAVA_INT.withName("temperature"))
          .withName("nvmlTemperature_v1_t");

  private nvmlTemperature_v1_t() {}

  static GroupLayout layout() {
    return $LAYOUT;
  }

  static long sizeof() {
    return $LAYOUT.byteSize();
  }

  static MemorySegment allocate(SegmentAllocator allocator) {
    return allocator.allocate($LAYOUT);
  }

  static MemorySegment allocateArray(long count, SegmentAllocator allocator) {
    return allocator.allocate($LAYOUT, count);
  }

  static MemorySegment asSlice(MemorySegment array, long index) {
    return array.asSlice($LAYOUT.byteSize() * index, $LAYOUT);
  }

  private static final OfInt version$LAYOUT = (OfInt) $LAYOUT.select(groupElement("version"));

  static OfInt version$layout() {
    return version$LAYOUT;
  }

  private static final long version$OFFSET = 0;

  static long version$offset() {
    return version$OFFSET;
  }

  private static final VarHandle version$VH = $LAYOUT.varHandle(groupElement("version"));

  static int version(MemorySegment struct) {
    return (int) version$VH.get(struct, 0L);
  }

  static void version(MemorySegment struct, int fieldValue) {
    version$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt sensorType$LAYOUT = (OfInt) $LAYOUT.select(groupElement("sensorType"));

  static OfInt sensorType$layout() {
    return sensorType$LAYOUT;
  }

  private static final long sensorType$OFFSET = 4;

  static long sensorType$offset() {
    return sensorType$OFFSET;
  }

  private static final VarHandle sensorType$VH = $LAYOUT.varHandle(groupElement("sensorType"));

  static int sensorType(MemorySegment struct) {
    return (int) sensorType$VH.get(struct, 0L);
  }

  static void sensorType(MemorySegment struct, int fieldValue) {
    sensorType$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt temperature$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("temperature"));

  static OfInt temperature$layout() {
    return temperature$LAYOUT;
  }

  private static final long temperature$OFFSET = 8;

  static long temperature$offset() {
    return temperature$OFFSET;
  }

  private static final VarHandle temperature$VH = $LAYOUT.varHandle(groupElement("temperature"));

  static int temperature(MemorySegment struct) {
    return (int) temperature$VH.get(struct, 0L);
  }

  static void temperature(MemorySegment struct, int fieldValue) {
    temperature$VH.set(struct, 0L, fieldValue);
  }
}
