package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlFieldValue_t}. */
final class nvmlFieldValue_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("fieldId"),
              JAVA_INT.withName("scopeId"),
              JAVA_LONG.withName("timestamp"),
              JAVA_LONG.withName("latencyUsec"),
              JAVA_INT.withName("valueType"),
              JAVA_INT.withName("nvmlReturn"),
              nvmlValue_t.layout().withName("value"))
          .withName("nvmlFieldValue_t");

  private nvmlFieldValue_t() {}

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

  private static final OfInt fieldId$LAYOUT = (OfInt) $LAYOUT.select(groupElement("fieldId"));

  static OfInt fieldId$layout() {
    return fieldId$LAYOUT;
  }

  private static final long fieldId$OFFSET = 0;

  static long fieldId$offset() {
    return fieldId$OFFSET;
  }

  private static final VarHandle fieldId$VH = $LAYOUT.varHandle(groupElement("fieldId"));

  static int fieldId(MemorySegment struct) {
    return (int) fieldId$VH.get(struct, 0L);
  }

  static void fieldId(MemorySegment struct, int fieldValue) {
    fieldId$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt scopeId$LAYOUT = (OfInt) $LAYOUT.select(groupElement("scopeId"));

  static OfInt scopeId$layout() {
    return scopeId$LAYOUT;
  }

  private static final long scopeId$OFFSET = 4;

  static long scopeId$offset() {
    return scopeId$OFFSET;
  }

  private static final VarHandle scopeId$VH = $LAYOUT.varHandle(groupElement("scopeId"));

  static int scopeId(MemorySegment struct) {
    return (int) scopeId$VH.get(struct, 0L);
  }

  static void scopeId(MemorySegment struct, int fieldValue) {
    scopeId$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong timestamp$LAYOUT = (OfLong) $LAYOUT.select(groupElement("timestamp"));

  static OfLong timestamp$layout() {
    return timestamp$LAYOUT;
  }

  private static final long timestamp$OFFSET = 8;

  static long timestamp$offset() {
    return timestamp$OFFSET;
  }

  private static final VarHandle timestamp$VH = $LAYOUT.varHandle(groupElement("timestamp"));

  static long timestamp(MemorySegment struct) {
    return (long) timestamp$VH.get(struct, 0L);
  }

  static void timestamp(MemorySegment struct, long fieldValue) {
    timestamp$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong latencyUsec$LAYOUT =
      (OfLong) $LAYOUT.select(groupElement("latencyUsec"));

  static OfLong latencyUsec$layout() {
    return latencyUsec$LAYOUT;
  }

  private static final long latencyUsec$OFFSET = 16;

  static long latencyUsec$offset() {
    return latencyUsec$OFFSET;
  }

  private static final VarHandle latencyUsec$VH = $LAYOUT.varHandle(groupElement("latencyUsec"));

  static long latencyUsec(MemorySegment struct) {
    return (long) latencyUsec$VH.get(struct, 0L);
  }

  static void latencyUsec(MemorySegment struct, long fieldValue) {
    latencyUsec$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt valueType$LAYOUT = (OfInt) $LAYOUT.select(groupElement("valueType"));

  static OfInt valueType$layout() {
    return valueType$LAYOUT;
  }

  private static final long valueType$OFFSET = 24;

  static long valueType$offset() {
    return valueType$OFFSET;
  }

  private static final VarHandle valueType$VH = $LAYOUT.varHandle(groupElement("valueType"));

  static int valueType(MemorySegment struct) {
    return (int) valueType$VH.get(struct, 0L);
  }

  static void valueType(MemorySegment struct, int fieldValue) {
    valueType$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt nvmlReturn$LAYOUT = (OfInt) $LAYOUT.select(groupElement("nvmlReturn"));

  static OfInt nvmlReturn$layout() {
    return nvmlReturn$LAYOUT;
  }

  private static final long nvmlReturn$OFFSET = 28;

  static long nvmlReturn$offset() {
    return nvmlReturn$OFFSET;
  }

  private static final VarHandle nvmlReturn$VH = $LAYOUT.varHandle(groupElement("nvmlReturn"));

  static int nvmlReturn(MemorySegment struct) {
    return (int) nvmlReturn$VH.get(struct, 0L);
  }

  static void nvmlReturn(MemorySegment struct, int fieldValue) {
    nvmlReturn$VH.set(struct, 0L, fieldValue);
  }

  private static final GroupLayout value$LAYOUT =
      (GroupLayout) $LAYOUT.select(groupElement("value"));

  static GroupLayout value$layout() {
    return value$LAYOUT;
  }

  private static final long value$OFFSET = 32;

  static long value$offset() {
    return value$OFFSET;
  }

  static MemorySegment value(MemorySegment struct) {
    return struct.asSlice(value$OFFSET, value$LAYOUT.byteSize());
  }

  static void value(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, value$OFFSET, value$LAYOUT.byteSize());
  }
}
