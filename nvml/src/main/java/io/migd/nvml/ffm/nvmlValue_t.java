package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfDouble;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.foreign.ValueLayout.OfShort;
import java.lang.invoke.VarHandle;

/** C union {@code nvmlValue_t}. */
final class nvmlValue_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.unionLayout(
              JAVA_DOUBLE.withName("dVal"),
              JAVA_INT.withName("siVal"),
              JAVA_INT.withName("uiVal"),
              JAVA_LONG.withName("ulVal"),
              JAVA_LONG.withName("ullVal"),
              JAVA_LONG.withName("sllVal"),
              JAVA_SHORT.withName("usVal"))
          .withName("nvmlValue_t");

  private nvmlValue_t() {}

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

  private static final OfDouble dVal$LAYOUT = (OfDouble) $LAYOUT.select(groupElement("dVal"));

  static OfDouble dVal$layout() {
    return dVal$LAYOUT;
  }

  private static final long dVal$OFFSET = 0;

  static long dVal$offset() {
    return dVal$OFFSET;
  }

  private static final VarHandle dVal$VH = $LAYOUT.varHandle(groupElement("dVal"));

  static double dVal(MemorySegment struct) {
    return (double) dVal$VH.get(struct, 0L);
  }

  static void dVal(MemorySegment struct, double fieldValue) {
    dVal$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt siVal$LAYOUT = (OfInt) $LAYOUT.select(groupElement("siVal"));

  static OfInt siVal$layout() {
    return siVal$LAYOUT;
  }

  private static final long siVal$OFFSET = 0;

  static long siVal$offset() {
    return siVal$OFFSET;
  }

  private static final VarHandle siVal$VH = $LAYOUT.varHandle(groupElement("siVal"));

  static int siVal(MemorySegment struct) {
    return (int) siVal$VH.get(struct, 0L);
  }

  static void siVal(MemorySegment struct, int fieldValue) {
    siVal$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt uiVal$LAYOUT = (OfInt) $LAYOUT.select(groupElement("uiVal"));

  static OfInt uiVal$layout() {
    return uiVal$LAYOUT;
  }

  private static final long uiVal$OFFSET = 0;

  static long uiVal$offset() {
    return uiVal$OFFSET;
  }

  private static final VarHandle uiVal$VH = $LAYOUT.varHandle(groupElement("uiVal"));

  static int uiVal(MemorySegment struct) {
    return (int) uiVal$VH.get(struct, 0L);
  }

  static void uiVal(MemorySegment struct, int fieldValue) {
    uiVal$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong ulVal$LAYOUT = (OfLong) $LAYOUT.select(groupElement("ulVal"));

  static OfLong ulVal$layout() {
    return ulVal$LAYOUT;
  }

  private static final long ulVal$OFFSET = 0;

  static long ulVal$offset() {
    return ulVal$OFFSET;
  }

  private static final VarHandle ulVal$VH = $LAYOUT.varHandle(groupElement("ulVal"));

  static long ulVal(MemorySegment struct) {
    return (long) ulVal$VH.get(struct, 0L);
  }

  static void ulVal(MemorySegment struct, long fieldValue) {
    ulVal$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong ullVal$LAYOUT = (OfLong) $LAYOUT.select(groupElement("ullVal"));

  static OfLong ullVal$layout() {
    return ullVal$LAYOUT;
  }

  private static final long ullVal$OFFSET = 0;

  static long ullVal$offset() {
    return ullVal$OFFSET;
  }

  private static final VarHandle ullVal$VH = $LAYOUT.varHandle(groupElement("ullVal"));

  static long ullVal(MemorySegment struct) {
    return (long) ullVal$VH.get(struct, 0L);
  }

  static void ullVal(MemorySegment struct, long fieldValue) {
    ullVal$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong sllVal$LAYOUT = (OfLong) $LAYOUT.select(groupElement("sllVal"));

  static OfLong sllVal$layout() {
    return sllVal$LAYOUT;
  }

  private static final long sllVal$OFFSET = 0;

  static long sllVal$offset() {
    return sllVal$OFFSET;
  }

  private static final VarHandle sllVal$VH = $LAYOUT.varHandle(groupElement("sllVal"));

  static long sllVal(MemorySegment struct) {
    return (long) sllVal$VH.get(struct, 0L);
  }

  static void sllVal(MemorySegment struct, long fieldValue) {
    sllVal$VH.set(struct, 0L, fieldValue);
  }

  private static final OfShort usVal$LAYOUT = (OfShort) $LAYOUT.select(groupElement("usVal"));

  static OfShort usVal$layout() {
    return usVal$LAYOUT;
  }

  private static final long usVal$OFFSET = 0;

  static long usVal$offset() {
    return usVal$OFFSET;
  }

  private static final VarHandle usVal$VH = $LAYOUT.varHandle(groupElement("usVal"));

  static short usVal(MemorySegment struct) {
    return (short) usVal$VH.get(struct, 0L);
  }

  static void usVal(MemorySegment struct, short fieldValue) {
    usVal$VH.set(struct, 0L, fieldValue);
  }
}
