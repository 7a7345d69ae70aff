package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlGpmSupport_t}. */
final class nvmlGpmSupport_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"), JAVA_INT.withName("isSupportedDevice"))
          .withName("nvmlGpmSupport_t");

  private nvmlGpmSupport_t() {}

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

  private static final OfInt isSupportedDevice$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("isSupportedDevice"));

  static OfInt isSupportedDevice$layout() {
    return isSupportedDevice$LAYOUT;
  }

  private static final long isSupportedDevice$OFFSET = 4;

  static long isSupportedDevice$offset() {
    return isSupportedDevice$OFFSET;
  }

  private static final VarHandle isSupportedDevice$VH =
      $LAYOUT.varHandle(groupElement("isSupportedDevice"));

  static int isSupportedDevice(MemorySegment struct) {
    return (int) isSupportedDevice$VH.get(struct, 0L);
  }

  static void isSupportedDevice(MemorySegment struct, int fieldValue) {
    isSupportedDevice$VH.set(struct, 0L, fieldValue);
  }
}
