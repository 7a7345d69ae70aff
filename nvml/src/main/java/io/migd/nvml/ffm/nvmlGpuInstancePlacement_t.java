package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlGpuInstancePlacement_t}. */
final class nvmlGpuInstancePlacement_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(JAVA_INT.withName("start"), JAVA_INT.withName("size"))
          .withName("nvmlGpuInstancePlacement_t");

  private nvmlGpuInstancePlacement_t() {}

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

  private static final OfInt start$LAYOUT = (OfInt) $LAYOUT.select(groupElement("start"));

  static OfInt start$layout() {
    return start$LAYOUT;
  }

  private static final long start$OFFSET = 0;

  static long start$offset() {
    return start$OFFSET;
  }

  private static final VarHandle start$VH = $LAYOUT.varHandle(groupElement("start"));

  static int start(MemorySegment struct) {
    return (int) start$VH.get(struct, 0L);
  }

  static void start(MemorySegment struct, int fieldValue) {
    start$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt size$LAYOUT = (OfInt) $LAYOUT.select(groupElement("size"));

  static OfInt size$layout() {
    return size$LAYOUT;
  }

  private static final long size$OFFSET = 4;

  static long size$offset() {
    return size$OFFSET;
  }

  private static final VarHandle size$VH = $LAYOUT.varHandle(groupElement("size"));

  static int size(MemorySegment struct) {
    return (int) size$VH.get(struct, 0L);
  }

  static void size(MemorySegment struct, int fieldValue) {
    size$VH.set(struct, 0L, fieldValue);
  }
}
