package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlSample_t}. */
final class nvmlSample_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("timeStamp"), nvmlValue_t.layout().withName("sampleValue"))
          .withName("nvmlSample_t");

  private nvmlSample_t() {}

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

  private static final GroupLayout sampleValue$LAYOUT =
      (GroupLayout) $LAYOUT.select(groupElement("sampleValue"));

  static GroupLayout sampleValue$layout() {
    return sampleValue$LAYOUT;
  }

  private static final long sampleValue$OFFSET = 8;

  static long sampleValue$offset() {
    return sampleValue$OFFSET;
  }

  static MemorySegment sampleValue(MemorySegment struct) {
    return struct.asSlice(sampleValue$OFFSET, sampleValue$LAYOUT.byteSize());
  }

  static void sampleValue(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, sampleValue$OFFSET, sampleValue$LAYOUT.byteSize());
  }
}
