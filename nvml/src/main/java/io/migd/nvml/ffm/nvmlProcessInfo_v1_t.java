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

/** C struct {@code nvmlProcessInfo_v1_t}. */
final class nvmlProcessInfo_v1_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("pid"),
              MemoryLayout.paddingLayout(4),
              JAVA_LONG.withName("usedGpuMemory"))
          .withName("nvmlProcessInfo_v1_t");

  private nvmlProcessInfo_v1_t() {}

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

  private static final OfInt pid$LAYOUT = (OfInt) $LAYOUT.select(groupElement("pid"));

  static OfInt pid$layout() {
    return pid$LAYOUT;
  }

  private static final long pid$OFFSET = 0;

  static long pid$offset() {
    return pid$OFFSET;
  }

  private static final VarHandle pid$VH = $LAYOUT.varHandle(groupElement("pid"));

  static int pid(MemorySegment struct) {
    return (int) pid$VH.get(struct, 0L);
  }

  static void pid(MemorySegment struct, int fieldValue) {
    pid$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong usedGpuMemory$LAYOUT =
      (OfLong) $LAYOUT.select(groupElement("usedGpuMemory"));

  static OfLong usedGpuMemory$layout() {
    return usedGpuMemory$LAYOUT;
  }

  private static final long usedGpuMemory$OFFSET = 8;

  static long usedGpuMemory$offset() {
    return usedGpuMemory$OFFSET;
  }

  private static final VarHandle usedGpuMemory$VH =
      $LAYOUT.varHandle(groupElement("usedGpuMemory"));

  static long usedGpuMemory(MemorySegment struct) {
    return (long) usedGpuMemory$VH.get(struct, 0L);
  }

  static void usedGpuMemory(MemorySegment struct, long fieldValue) {
    usedGpuMemory$VH.set(struct, 0L, fieldValue);
  }
}
