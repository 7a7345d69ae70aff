package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlProcessDetailList_v1_t}. */
final class nvmlProcessDetailList_v1_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"),
              JAVA_INT.withName("mode"),
              JAVA_INT.withName("numProcArrayEntries"),
              MemoryLayout.paddingLayout(4),
              ADDRESS.withName("procArray"))
          .withName("nvmlProcessDetailList_v1_t");

  private nvmlProcessDetailList_v1_t() {}

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

  private static final OfInt mode$LAYOUT = (OfInt) $LAYOUT.select(groupElement("mode"));

  static OfInt mode$layout() {
    return mode$LAYOUT;
  }

  private static final long mode$OFFSET = 4;

  static long mode$offset() {
    return mode$OFFSET;
  }

  private static final VarHandle mode$VH = $LAYOUT.varHandle(groupElement("mode"));

  static int mode(MemorySegment struct) {
    return (int) mode$VH.get(struct, 0L);
  }

  static void mode(MemorySegment struct, int fieldValue) {
    mode$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt numProcArrayEntries$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("numProcArrayEntries"));

  static OfInt numProcArrayEntries$layout() {
    return numProcArrayEntries$LAYOUT;
  }

  private static final long numProcArrayEntries$OFFSET = 8;

  static long numProcArrayEntries$offset() {
    return numProcArrayEntries$OFFSET;
  }

  private static final VarHandle numProcArrayEntries$VH =
      $LAYOUT.varHandle(groupElement("numProcArrayEntries"));

  static int numProcArrayEntries(MemorySegment struct) {
    return (int) numProcArrayEntries$VH.get(struct, 0L);
  }

  static void numProcArrayEntries(MemorySegment struct, int fieldValue) {
    numProcArrayEntries$VH.set(struct, 0L, fieldValue);
  }

  private static final AddressLayout procArray$LAYOUT =
      (AddressLayout) $LAYOUT.select(groupElement("procArray"));

  static AddressLayout procArray$layout() {
    return procArray$LAYOUT;
  }

  private static final long procArray$OFFSET = 16;

  static long procArray$offset() {
    return procArray$OFFSET;
  }

  private static final VarHandle procArray$VH = $LAYOUT.varHandle(groupElement("procArray"));

  static MemorySegment procArray(MemorySegment struct) {
    return (MemorySegment) procArray$VH.get(struct, 0L);
  }

  static void procArray(MemorySegment struct, MemorySegment fieldValue) {
    procArray$VH.set(struct, 0L, fieldValue);
  }
}
