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

/** C struct {@code nvmlProcessDetail_v1_t}. */
final class nvmlProcessDetail_v1_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("pid"),
              MemoryLayout.paddingLayout(4),
              JAVA_LONG.withName("usedGpuMemory"),
              JAVA_INT.withName("gpuInstanceId"),
              JAVA_INT.withName("computeInstanceId"),
              JAVA_LONG.withName("usedGpuCcProtectedMemory"))
          .withName("nvmlProcessDetail_v1_t");

  private nvmlProcessDetail_v1_t() {}

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

  private static final OfInt gpuInstanceId$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("gpuInstanceId"));

  static OfInt gpuInstanceId$layout() {
    return gpuInstanceId$LAYOUT;
  }

  private static final long gpuInstanceId$OFFSET = 16;

  static long gpuInstanceId$offset() {
    return gpuInstanceId$OFFSET;
  }

  private static final VarHandle gpuInstanceId$VH =
      $LAYOUT.varHandle(groupElement("gpuInstanceId"));

  static int gpuInstanceId(MemorySegment struct) {
    return (int) gpuInstanceId$VH.get(struct, 0L);
  }

  static void gpuInstanceId(MemorySegment struct, int fieldValue) {
    gpuInstanceId$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt computeInstanceId$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("computeInstanceId"));

  static OfInt computeInstanceId$layout() {
    return computeInstanceId$LAYOUT;
  }

  private static final long computeInstanceId$OFFSET = 20;

  static long computeInstanceId$offset() {
    return computeInstanceId$OFFSET;
  }

  private static final VarHandle computeInstanceId$VH =
      $LAYOUT.varHandle(groupElement("computeInstanceId"));

  static int computeInstanceId(MemorySegment struct) {
    return (int) computeInstanceId$VH.get(struct, 0L);
  }

  static void computeInstanceId(MemorySegment struct, int fieldValue) {
    computeInstanceId$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong usedGpuCcProtectedMemory$LAYOUT =
      (OfLong) $LAYOUT.select(groupElement("usedGpuCcProtectedMemory"));

  static OfLong usedGpuCcProtectedMemory$layout() {
    return usedGpuCcProtectedMemory$LAYOUT;
  }

  private static final long usedGpuCcProtectedMemory$OFFSET = 24;

  static long usedGpuCcProtectedMemory$offset() {
    return usedGpuCcProtectedMemory$OFFSET;
  }

  private static final VarHandle usedGpuCcProtectedMemory$VH =
      $LAYOUT.varHandle(groupElement("usedGpuCcProtectedMemory"));

  static long usedGpuCcProtectedMemory(MemorySegment struct) {
    return (long) usedGpuCcProtectedMemory$VH.get(struct, 0L);
  }

  static void usedGpuCcProtectedMemory(MemorySegment struct, long fieldValue) {
    usedGpuCcProtectedMemory$VH.set(struct, 0L, fieldValue);
  }
}
