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

/** C struct {@code nvmlPciInfoExt_v1_t}. */
final class nvmlPciInfoExt_v1_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"),
              JAVA_INT.withName("domain"),
              JAVA_INT.withName("bus"),
              JAVA_INT.withName("device"),
              JAVA_INT.withName("pciDeviceId"),
              JAVA_INT.withName("pciSubSystemId"),
              JAVA_INT.withName("baseClass"),
              JAVA_INT.withName("subClass"),
              MemoryLayout.sequenceLayout(32, JAVA_BYTE).withName("busId"))
          .withName("nvmlPciInfoExt_v1_t");

  private nvmlPciInfoExt_v1_t() {}

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

  private static final OfInt domain$LAYOUT = (OfInt) $LAYOUT.select(groupElement("domain"));

  static OfInt domain$layout() {
    return domain$LAYOUT;
  }

  private static final long domain$OFFSET = 4;

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

  private static final long bus$OFFSET = 8;

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

  private static final long device$OFFSET = 12;

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

  private static final long pciDeviceId$OFFSET = 16;

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

  private static final long pciSubSystemId$OFFSET = 20;

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

  private static final OfInt baseClass$LAYOUT = (OfInt) $LAYOUT.select(groupElement("baseClass"));

  static OfInt baseClass$layout() {
    return baseClass$LAYOUT;
  }

  private static final long baseClass$OFFSET = 24;

  static long baseClass$offset() {
    return baseClass$OFFSET;
  }

  private static final VarHandle baseClass$VH = $LAYOUT.varHandle(groupElement("baseClass"));

  static int baseClass(MemorySegment struct) {
    return (int) baseClass$VH.get(struct, 0L);
  }

  static void baseClass(MemorySegment struct, int fieldValue) {
    baseClass$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt subClass$LAYOUT = (OfInt) $LAYOUT.select(groupElement("subClass"));

  static OfInt subClass$layout() {
    return subClass$LAYOUT;
  }

  private static final long subClass$OFFSET = 28;

  static long subClass$offset() {
    return subClass$OFFSET;
  }

  private static final VarHandle subClass$VH = $LAYOUT.varHandle(groupElement("subClass"));

  static int subClass(MemorySegment struct) {
    return (int) subClass$VH.get(struct, 0L);
  }

  static void subClass(MemorySegment struct, int fieldValue) {
    subClass$VH.set(struct, 0L, fieldValue);
  }

  private static final SequenceLayout busId$LAYOUT =
      (SequenceLayout) $LAYOUT.select(groupElement("busId"));

  static SequenceLayout busId$layout() {
    return busId$LAYOUT;
  }

  private static final long busId$OFFSET = 32;

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
