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

/** C struct {@code nvmlProcessesUtilizationInfo_v1_t}. */
final class nvmlProcessesUtilizationInfo_v1_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"),
              JAVA_INT.withName("processSamplesCount"),
              JAVA_LONG.withName("lastSeenTimeStamp"),
              ADDRESS.withName("procUtilArray"))
          .withName("nvmlProcessesUtilizationInfo_v1_t");

  private nvmlProcessesUtilizationInfo_v1_t() {}

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

  private static final OfInt processSamplesCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("processSamplesCount"));

  static OfInt processSamplesCount$layout() {
    return processSamplesCount$LAYOUT;
  }

  private static final long processSamplesCount$OFFSET = 4;

  static long processSamplesCount$offset() {
    return processSamplesCount$OFFSET;
  }

  private static final VarHandle processSamplesCount$VH =
      $LAYOUT.varHandle(groupElement("processSamplesCount"));

  static int processSamplesCount(MemorySegment struct) {
    return (int) processSamplesCount$VH.get(struct, 0L);
  }

  static void processSamplesCount(MemorySegment struct, int fieldValue) {
    processSamplesCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong lastSeenTimeStamp$LAYOUT =
      (OfLong) $LAYOUT.select(groupElement("lastSeenTimeStamp"));

  static OfLong lastSeenTimeStamp$layout() {
    return lastSeenTimeStamp$LAYOUT;
  }

  private static final long lastSeenTimeStamp$OFFSET = 8;

  static long lastSeenTimeStamp$offset() {
    return lastSeenTimeStamp$OFFSET;
  }

  private static final VarHandle lastSeenTimeStamp$VH =
      $LAYOUT.varHandle(groupElement("lastSeenTimeStamp"));

  static long lastSeenTimeStamp(MemorySegment struct) {
    return (long) lastSeenTimeStamp$VH.get(struct, 0L);
  }

  static void lastSeenTimeStamp(MemorySegment struct, long fieldValue) {
    lastSeenTimeStamp$VH.set(struct, 0L, fieldValue);
  }

  private static final AddressLayout procUtilArray$LAYOUT =
      (AddressLayout) $LAYOUT.select(groupElement("procUtilArray"));

  static AddressLayout procUtilArray$layout() {
    return procUtilArray$LAYOUT;
  }

  private static final long procUtilArray$OFFSET = 16;

  static long procUtilArray$offset() {
    return procUtilArray$OFFSET;
  }

  private static final VarHandle procUtilArray$VH =
      $LAYOUT.varHandle(groupElement("procUtilArray"));

  static MemorySegment procUtilArray(MemorySegment struct) {
    return (MemorySegment) procUtilArray$VH.get(struct, 0L);
  }

  static void procUtilArray(MemorySegment struct, MemorySegment fieldValue) {
    procUtilArray$VH.set(struct, 0L, fieldValue);
  }
}
