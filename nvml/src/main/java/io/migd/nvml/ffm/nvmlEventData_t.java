package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlEventData_t}. */
final class nvmlEventData_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              ADDRESS.withName("device"),
              JAVA_LONG.withName("eventType"),
              JAVA_LONG.withName("eventData"),
              JAVA_INT.withName("gpuInstanceId"),
              JAVA_INT.withName("computeInstanceId"))
          .withName("nvmlEventData_t");

  private nvmlEventData_t() {}

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

  private static final AddressLayout device$LAYOUT =
      (AddressLayout) $LAYOUT.select(groupElement("device"));

  static AddressLayout device$layout() {
    return device$LAYOUT;
  }

  private static final long device$OFFSET = 0;

  static long device$offset() {
    return device$OFFSET;
  }

  private static final VarHandle device$VH = $LAYOUT.varHandle(groupElement("device"));

  static MemorySegment device(MemorySegment struct) {
    return (MemorySegment) device$VH.get(struct, 0L);
  }

  static void device(MemorySegment struct, MemorySegment fieldValue) {
    device$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong eventType$LAYOUT = (OfLong) $LAYOUT.select(groupElement("eventType"));

  static OfLong eventType$layout() {
    return eventType$LAYOUT;
  }

  private static final long eventType$OFFSET = 8;

  static long eventType$offset() {
    return eventType$OFFSET;
  }

  private static final VarHandle eventType$VH = $LAYOUT.varHandle(groupElement("eventType"));

  static long eventType(MemorySegment struct) {
    return (long) eventType$VH.get(struct, 0L);
  }

  static void eventType(MemorySegment struct, long fieldValue) {
    eventType$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong eventData$LAYOUT = (OfLong) $LAYOUT.select(groupElement("eventData"));

  static OfLong eventData$layout() {
    return eventData$LAYOUT;
  }

  private static final long eventData$OFFSET = 16;

  static long eventData$offset() {
    return eventData$OFFSET;
  }

  private static final VarHandle eventData$VH = $LAYOUT.varHandle(groupElement("eventData"));

  static long eventData(MemorySegment struct) {
    return (long) eventData$VH.get(struct, 0L);
  }

  static void eventData(MemorySegment struct, long fieldValue) {
    eventData$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt gpuInstanceId$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("gpuInstanceId"));

  static OfInt gpuInstanceId$layout() {
    return gpuInstanceId$LAYOUT;
  }

  private static final long gpuInstanceId$OFFSET = 24;

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

  private static final long computeInstanceId$OFFSET = 28;

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
}
