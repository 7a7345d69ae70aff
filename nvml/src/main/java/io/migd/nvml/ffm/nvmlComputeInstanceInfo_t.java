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

/** C struct {@code nvmlComputeInstanceInfo_t}. */
final class nvmlComputeInstanceInfo_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              ADDRESS.withName("device"),
              ADDRESS.withName("gpuInstance"),
              JAVA_INT.withName("id"),
              JAVA_INT.withName("profileId"),
              nvmlComputeInstancePlacement_t.layout().withName("placement"))
          .withName("nvmlComputeInstanceInfo_t");

  private nvmlComputeInstanceInfo_t() {}

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

  private static final AddressLayout gpuInstance$LAYOUT =
      (AddressLayout) $LAYOUT.select(groupElement("gpuInstance"));

  static AddressLayout gpuInstance$layout() {
    return gpuInstance$LAYOUT;
  }

  private static final long gpuInstance$OFFSET = 8;

  static long gpuInstance$offset() {
    return gpuInstance$OFFSET;
  }

  private static final VarHandle gpuInstance$VH = $LAYOUT.varHandle(groupElement("gpuInstance"));

  static MemorySegment gpuInstance(MemorySegment struct) {
    return (MemorySegment) gpuInstance$VH.get(struct, 0L);
  }

  static void gpuInstance(MemorySegment struct, MemorySegment fieldValue) {
    gpuInstance$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt id$LAYOUT = (OfInt) $LAYOUT.select(groupElement("id"));

  static OfInt id$layout() {
    return id$LAYOUT;
  }

  private static final long id$OFFSET = 16;

  static long id$offset() {
    return id$OFFSET;
  }

  private static final VarHandle id$VH = $LAYOUT.varHandle(groupElement("id"));

  static int id(MemorySegment struct) {
    return (int) id$VH.get(struct, 0L);
  }

  static void id(MemorySegment struct, int fieldValue) {
    id$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt profileId$LAYOUT = (OfInt) $LAYOUT.select(groupElement("profileId"));

  static OfInt profileId$layout() {
    return profileId$LAYOUT;
  }

  private static final long profileId$OFFSET = 20;

  static long profileId$offset() {
    return profileId$OFFSET;
  }

  private static final VarHandle profileId$VH = $LAYOUT.varHandle(groupElement("profileId"));

  static int profileId(MemorySegment struct) {
    return (int) profileId$VH.get(struct, 0L);
  }

  static void profileId(MemorySegment struct, int fieldValue) {
    profileId$VH.set(struct, 0L, fieldValue);
  }

  private static final GroupLayout placement$LAYOUT =
      (GroupLayout) $LAYOUT.select(groupElement("placement"));

  static GroupLayout placement$layout() {
    return placement$LAYOUT;
  }

  private static final long placement$OFFSET = 24;

  static long placement$offset() {
    return placement$OFFSET;
  }

  static MemorySegment placement(MemorySegment struct) {
    return struct.asSlice(placement$OFFSET, placement$LAYOUT.byteSize());
  }

  static void placement(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, placement$OFFSET, placement$LAYOUT.byteSize());
  }
}
