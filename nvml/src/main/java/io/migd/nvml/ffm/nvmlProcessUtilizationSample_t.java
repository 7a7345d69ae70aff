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

/** C struct {@code nvmlProcessUtilizationSample_t}. */
final class nvmlProcessUtilizationSample_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("pid"),
              MemoryLayout.paddingLayout(4),
              JAVA_LONG.withName("timeStamp"),
              JAVA_INT.withName("smUtil"),
              JAVA_INT.withName("memUtil"),
              JAVA_INT.withName("encUtil"),
              JAVA_INT.withName("decUtil"))
          .withName("nvmlProcessUtilizationSample_t");

  private nvmlProcessUtilizationSample_t() {}

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

  private static final OfLong timeStamp$LAYOUT = (OfLong) $LAYOUT.select(groupElement("timeStamp"));

  static OfLong timeStamp$layout() {
    return timeStamp$LAYOUT;
  }

  private static final long timeStamp$OFFSET = 8;

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

  private static final OfInt smUtil$LAYOUT = (OfInt) $LAYOUT.select(groupElement("smUtil"));

  static OfInt smUtil$layout() {
    return smUtil$LAYOUT;
  }

  private static final long smUtil$OFFSET = 16;

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

  private static final long memUtil$OFFSET = 20;

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

  private static final long encUtil$OFFSET = 24;

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

  private static final long decUtil$OFFSET = 28;

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
}
