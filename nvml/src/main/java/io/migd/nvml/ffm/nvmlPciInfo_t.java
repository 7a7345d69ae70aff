package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlPciInfo_t}. */
final class nvmlPciInfo_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("busIdLegacy"),
              JAVA_INT.withName("domain"),
              JAVA_INT.withName("bus"),
              JAVA_INT.withName("device"),
              JAVA_INT.withName("pciDeviceId"),
              JAVA_INT.withName("pciSubSystemId"),
              MemoryLayout.sequenceLayout(32, JAVA_BYTE).withName("busId"))
          .withName("nvmlPciInfo_t");

  private nvmlPciInfo_t() {}

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

  private static final SequenceLayout busIdLegacy$LAYOUT =
      (SequenceLayout) $LAYOUT.select(groupElement("busIdLegacy"));

  static SequenceLayout busIdLegacy$layout() {
    return busIdLegacy$LAYOUT;
  }

  private static final long busIdLegacy$OFFSET = 0;

  static long busIdLegacy$offset() {
    return busIdLegacy$OFFSET;
  }

  static MemorySegment busIdLegacy(MemorySegment struct) {
    return struct.asSlice(busIdLegacy$OFFSET, busIdLegacy$LAYOUT.byteSize());
  }

  static void busIdLegacy(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, busIdLegacy$OFFSET, busIdLegacy$LAYOUT.byteSize());
  }

  private static final OfInt domain$LAYOUT = (OfInt) $LAYOUT.select(groupElement("domain"));

  static OfInt domain$layout() {
    return domain$LAYOUT;
  }

  private static final long domain$OFFSET = 16;

  static long domain$offset() {
    return domain$OFFSET;
  }

  private static final VarHandle domain$VH = $LAYOUT.varHandle(groupElement("domain"));

  static int domain(MemorySegment struct) {
    return (int) domain$VH.get(struct, 0L);
  }

  static void domain(MemorySegment struct, int fieldValue) {
    domain$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt bus$LAYOUT = (OfInt) $LAYOUT.select(groupElement("bus"));

  static OfInt bus$layout() {
    return bus$LAYOUT;
  }

  private static final long bus$OFFSET = 20;

  static long bus$offset() {
    return bus$OFFSET;
  }

  private static final VarHandle bus$VH = $LAYOUT.varHandle(groupElement("bus"));

  static int bus(MemorySegment struct) {
    return (int) bus$VH.get(struct, 0L);
  }

  static void bus(MemorySegment struct, int fieldValue) {
    bus$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt device$LAYOUT = (OfInt) $LAYOUT.select(groupElement("device"));

  static OfInt device$layout() {
    return device$LAYOUT;
  }

  private static final long device$OFFSET = 24;

  static long device$offset() {
    return device$OFFSET;
  }

  private static final VarHandle device$VH = $LAYOUT.varHandle(groupElement("device"));

  static int device(MemorySegment struct) {
    return (int) device$VH.get(struct, 0L);
  }

  static void device(MemorySegment struct, int fieldValue) {
    device$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt pciDeviceId$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("pciDeviceId"));

  static OfInt pciDeviceId$layout() {
    return pciDeviceId$LAYOUT;
  }

  private static final long pciDeviceId$OFFSET = 28;

  static long pciDeviceId$offset() {
    return pciDeviceId$OFFSET;
  }

  private static final VarHandle pciDeviceId$VH = $LAYOUT.varHandle(groupElement("pciDeviceId"));

  static int pciDeviceId(MemorySegment struct) {
    return (int) pciDeviceId$VH.get(struct, 0L);
  }

  static void pciDeviceId(MemorySegment struct, int fieldValue) {
    pciDeviceId$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt pciSubSystemId$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("pciSubSystemId"));

  static OfInt pciSubSystemId$layout() {
    return pciSubSystemId$LAYOUT;
  }

  private static final long pciSubSystemId$OFFSET = 32;

  static long pciSubSystemId$offset() {
    return pciSubSystemId$OFFSET;
  }

  private static final VarHandle pciSubSystemId$VH =
      $LAYOUT.varHandle(groupElement("pciSubSystemId"));

  static int pciSubSystemId(MemorySegment struct) {
    return (int) pciSubSystemId$VH.get(struct, 0L);
  }

  static void pciSubSystemId(MemorySegment struct, int fieldValue) {
    pciSubSystemId$VH.set(struct, 0L, fieldValue);
  }

  private static final SequenceLayout busId$LAYOUT =
      (SequenceLayout) $LAYOUT.select(groupElement("busId"));

  static SequenceLayout busId$layout() {
    return busId$LAYOUT;
  }

  private static final long busId$OFFSET = 36;

  static long busId$offset() {
    return busId$OFFSET;
  }

  static MemorySegment busId(MemorySegment struct) {
    return struct.asSlice(busId$OFFSET, busId$LAYOUT.byteSize());
  }

  static void busId(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, busId$OFFSET, busId$LAYOUT.byteSize());
  }
}
