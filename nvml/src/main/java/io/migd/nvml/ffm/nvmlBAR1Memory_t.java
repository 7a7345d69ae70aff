package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlBAR1Memory_t}. */
final class nvmlBAR1Memory_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("bar1Total"),
              JAVA_LONG.withName("bar1Free"),
              JAVA_LONG.withName("bar1Used"))
          .withName("nvmlBAR1Memory_t");

  private nvmlBAR1Memory_t() {}

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

  private static final OfLong bar1Total$LAYOUT = (OfLong) $LAYOUT.select(groupElement("bar1Total"));

  static OfLong bar1Total$layout() {
    return bar1Total$LAYOUT;
  }

  private static final long bar1Total$OFFSET = 0;

  static long bar1Total$offset() {
    return bar1Total$OFFSET;
  }

  private static final VarHandle bar1Total$VH = $LAYOUT.varHandle(groupElement("bar1Total"));

  static long bar1Total(MemorySegment struct) {
    return (long) bar1Total$VH.get(struct, 0L);
  }

  static void bar1Total(MemorySegment struct, long fieldValue) {
    bar1Total$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong bar1Free$LAYOUT = (OfLong) $LAYOUT.select(groupElement("bar1Free"));

  static OfLong bar1Free$layout() {
    return bar1Free$LAYOUT;
  }

  private static final long bar1Free$OFFSET = 8;

  static long bar1Free$offset() {
    return bar1Free$OFFSET;
  }

  private static final VarHandle bar1Free$VH = $LAYOUT.varHandle(groupElement("bar1Free"));

  static long bar1Free(MemorySegment struct) {
    return (long) bar1Free$VH.get(struct, 0L);
  }

  static void bar1Free(MemorySegment struct, long fieldValue) {
    bar1Free$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong bar1Used$LAYOUT = (OfLong) $LAYOUT.select(groupElement("bar1Used"));

  static OfLong bar1Used$layout() {
    return bar1Used$LAYOUT;
  }

  private static final long bar1Used$OFFSET = 16;

  static long bar1Used$offset() {
    return bar1Used$OFFSET;
  }

  private static final VarHandle bar1Used$VH = $LAYOUT.varHandle(groupElement("bar1Used"));

  static long bar1Used(MemorySegment struct) {
    return (long) bar1Used$VH.get(struct, 0L);
  }

  static void bar1Used(MemorySegment struct, long fieldValue) {
    bar1Used$VH.set(struct, 0L, fieldValue);
  }
}
