package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlUtilization_t}. */
final class nvmlUtilization_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(JAVA_INT.withName("gpu"), JAVA_INT.withName("memory"))
          .withName("nvmlUtilization_t");

  private nvmlUtilization_t() {}

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

  private static final OfInt gpu$LAYOUT = (OfInt) $LAYOUT.select(groupElement("gpu"));

  static OfInt gpu$layout() {
    return gpu$LAYOUT;
  }

  private static final long gpu$OFFSET = 0;

  static long gpu$offset() {
    return gpu$OFFSET;
  }

  private static final VarHandle gpu$VH = $LAYOUT.varHandle(groupElement("gpu"));

  static int gpu(MemorySegment struct) {
    return (int) gpu$VH.get(struct, 0L);
  }

  static void gpu(MemorySegment struct, int fieldValue) {
    gpu$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt memory$LAYOUT = (OfInt) $LAYOUT.select(groupElement("memory"));

  static OfInt memory$layout() {
    return memory$LAYOUT;
  }

  private static final long memory$OFFSET = 4;

  static long memory$offset() {
    return memory$OFFSET;
  }

  private static final VarHandle memory$VH = $LAYOUT.varHandle(groupElement("memory"));

  static int memory(MemorySegment struct) {
    return (int) memory$VH.get(struct, 0L);
  }

  static void memory(MemorySegment struct, int fieldValue) {
    memory$VH.set(struct, 0L, fieldValue);
  }
}
