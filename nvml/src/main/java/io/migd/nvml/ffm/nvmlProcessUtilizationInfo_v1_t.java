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

/** C struct {@code nvmlProcessUtilizationInfo_v1_t}. */
final class nvmlProcessUtilizationInfo_v1_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("timeStamp"),
              JAVA_INT.withName("pid"),
              JAVA_INT.withName("smUtil"),
              JAVA_INT.withName("memUtil"),
              JAVA_INT.withName("encUtil"),
              JAVA_INT.withName("decUtil"),
              JAVA_INT.withName("jpgUtil"),
              JAVA_INT.withName("ofaUtil"),
              MemoryLayout.paddingLayout(4))
          .withName("nvmlProcessUtilizationInfo_v1_t");

  private nvmlProcessUtilizationInfo_v1_t() {}

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

  private static final OfLong timeStamp$LAYOUT = (OfLong) $LAYOUT.select(groupElement("timeStamp"));

  static OfLong timeStamp$layout() {
    return timeStamp$LAYOUT;
  }

  private static final long timeStamp$OFFSET = 0;

  static long timeStamp$offset() {
    return timeStamp$OFFSET;
  }

  private static final VarHandle timeStamp$VH = $LAYOUT.varHandle(groupElement("timeStamp"));

  static long timeStamp(MemorySegment struct) {
    return (long) timeStamp$VH.get(struct, 0L);
  }

  static void timeStamp(MemorySegment struct, long fieldValue) {
    timeStamp$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt pid$LAYOUT = (OfInt) $LAYOUT.select(groupElement("pid"));

  static OfInt pid$layout() {
    return pid$LAYOUT;
  }

  private static final long pid$OFFSET = 8;

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

  private static final OfInt smUtil$LAYOUT = (OfInt) $LAYOUT.select(groupElement("smUtil"));

  static OfInt smUtil$layout() {
    return smUtil$LAYOUT;
  }

  private static final long smUtil$OFFSET = 12;

  static long smUtil$offset() {
    return smUtil$OFFSET;
  }

  private static final VarHandle smUtil$VH = $LAYOUT.varHandle(groupElement("smUtil"));

  static int smUtil(MemorySegment struct) {
    return (int) smUtil$VH.get(struct, 0L);
  }

  static void smUtil(MemorySegment struct, int fieldValue) {
    smUtil$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt memUtil$LAYOUT = (OfInt) $LAYOUT.select(groupElement("memUtil"));

  static OfInt memUtil$layout() {
    return memUtil$LAYOUT;
  }

  private static final long memUtil$OFFSET = 16;

  static long memUtil$offset() {
    return memUtil$OFFSET;
  }

  private static final VarHandle memUtil$VH = $LAYOUT.varHandle(groupElement("memUtil"));

  static int memUtil(MemorySegment struct) {
    return (int) memUtil$VH.get(struct, 0L);
  }

  static void memUtil(MemorySegment struct, int fieldValue) {
    memUtil$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt encUtil$LAYOUT = (OfInt) $LAYOUT.select(groupElement("encUtil"));

  static OfInt encUtil$layout() {
    return encUtil$LAYOUT;
  }

  private static final long encUtil$OFFSET = 20;

  static long encUtil$offset() {
    return encUtil$OFFSET;
  }

  private static final VarHandle encUtil$VH = $LAYOUT.varHandle(groupElement("encUtil"));

  static int encUtil(MemorySegment struct) {
    return (int) encUtil$VH.get(struct, 0L);
  }

  static void encUtil(MemorySegment struct, int fieldValue) {
    encUtil$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt decUtil$LAYOUT = (OfInt) $LAYOUT.select(groupElement("decUtil"));

  static OfInt decUtil$layout() {
    return decUtil$LAYOUT;
  }

  private static final long decUtil$OFFSET = 24;

  static long decUtil$offset() {
    return decUtil$OFFSET;
  }

  private static final VarHandle decUtil$VH = $LAYOUT.varHandle(groupElement("decUtil"));

  static int decUtil(MemorySegment struct) {
    return (int) decUtil$VH.get(struct, 0L);
  }

  static void decUtil(MemorySegment struct, int fieldValue) {
    decUtil$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt jpgUtil$LAYOUT = (OfInt) $LAYOUT.select(groupElement("jpgUtil"));

  static OfInt jpgUtil$layout() {
    return jpgUtil$LAYOUT;
  }

  private static final long jpgUtil$OFFSET = 28;

  static long jpgUtil$offset() {
    return jpgUtil$OFFSET;
  }

  private static final VarHandle jpgUtil$VH = $LAYOUT.varHandle(groupElement("jpgUtil"));

  static int jpgUtil(MemorySegment struct) {
    return (int) jpgUtil$VH.get(struct, 0L);
  }

  static void jpgUtil(MemorySegment struct, int fieldValue) {
    jpgUtil$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt ofaUtil$LAYOUT = (OfInt) $LAYOUT.select(groupElement("ofaUtil"));

  static OfInt ofaUtil$layout() {
    return ofaUtil$LAYOUT;
  }

  private static final long ofaUtil$OFFSET = 32;

  static long ofaUtil$offset() {
    return ofaUtil$OFFSET;
  }

  private static final VarHandle ofaUtil$VH = $LAYOUT.varHandle(groupElement("ofaUtil"));

  static int ofaUtil(MemorySegment struct) {
    return (int) ofaUtil$VH.get(struct, 0L);
  }

  static void ofaUtil(MemorySegment struct, int fieldValue) {
    ofaUtil$VH.set(struct, 0L, fieldValue);
  }
}
