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

/** C struct {@code nvmlMemory_v2_t}. */
final class nvmlMemory_v2_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"),
              MemoryLayout.paddingLayout(4),
              JAVA_LONG.withName("total"),
              JAVA_LONG.withName("reserved"),
              JAVA_LONG.withName("free"),
              JAVA_LONG.withName("used"))
          .withName("nvmlMemory_v2_t");

  private nvmlMemory_v2_t() {}

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

  private static final OfLong total$LAYOUT = (OfLong) $LAYOUT.select(groupElement("total"));

  static OfLong total$layout() {
    return total$LAYOUT;
  }

  private static final long total$OFFSET = 8;

  static long total$offset() {
    return total$OFFSET;
  }

  private static final VarHandle total$VH = $LAYOUT.varHandle(groupElement("total"));

  static long total(MemorySegment struct) {
    return (long) total$VH.get(struct, 0L);
  }

  static void total(MemorySegment struct, long fieldValue) {
    total$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong reserved$LAYOUT = (OfLong) $LAYOUT.select(groupElement("reserved"));

  static OfLong reserved$layout() {
    return reserved$LAYOUT;
  }

  private static final long reserved$OFFSET = 16;

  static long reserved$offset() {
    return reserved$OFFSET;
  }

  private static final VarHandle reserved$VH = $LAYOUT.varHandle(groupElement("reserved"));

  static long reserved(MemorySegment struct) {
    return (long) reserved$VH.get(struct, 0L);
  }

  static void reserved(MemorySegment struct, long fieldValue) {
    reserved$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong free$LAYOUT = (OfLong) $LAYOUT.select(groupElement("free"));

  static OfLong free$layout() {
    return free$LAYOUT;
  }

  private static final long free$OFFSET = 24;

  static long free$offset() {
    return free$OFFSET;
  }

  private static final VarHandle free$VH = $LAYOUT.varHandle(groupElement("free"));

  static long free(MemorySegment struct) {
    return (long) free$VH.get(struct, 0L);
  }

  static void free(MemorySegment struct, long fieldValue) {
    free$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong used$LAYOUT = (OfLong) $LAYOUT.select(groupElement("used"));

  static OfLong used$layout() {
    return used$LAYOUT;
  }

  private static final long used$OFFSET = 32;

  static long used$offset() {
    return used$OFFSET;
  }

  private static final VarHandle used$VH = $LAYOUT.varHandle(groupElement("used"));

  static long used(MemorySegment struct) {
    return (long) used$VH.get(struct, 0L);
  }

  static void used(MemorySegment struct, long fieldValue) {
    used$VH.set(struct, 0L, fieldValue);
  }
}
