package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlGpmMetricsGet_t}. */
final class nvmlGpmMetricsGet_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"),
              JAVA_INT.withName("numMetrics"),
              ADDRESS.withName("sample1"),
              ADDRESS.withName("sample2"),
              MemoryLayout.sequenceLayout(333, nvmlGpmMetric_t.layout()).withName("metrics"))
          .withName("nvmlGpmMetricsGet_t");

  private nvmlGpmMetricsGet_t() {}

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

  private static final OfInt numMetrics$LAYOUT = (OfInt) $LAYOUT.select(groupElement("numMetrics"));

  static OfInt numMetrics$layout() {
    return numMetrics$LAYOUT;
  }

  private static final long numMetrics$OFFSET = 4;

  static long numMetrics$offset() {
    return numMetrics$OFFSET;
  }

  private static final VarHandle numMetrics$VH = $LAYOUT.varHandle(groupElement("numMetrics"));

  static int numMetrics(MemorySegment struct) {
    return (int) numMetrics$VH.get(struct, 0L);
  }

  static void numMetrics(MemorySegment struct, int fieldValue) {
    numMetrics$VH.set(struct, 0L, fieldValue);
  }

  private static final AddressLayout sample1$LAYOUT =
      (AddressLayout) $LAYOUT.select(groupElement("sample1"));

  static AddressLayout sample1$layout() {
    return sample1$LAYOUT;
  }

  private static final long sample1$OFFSET = 8;

  static long sample1$offset() {
    return sample1$OFFSET;
  }

  private static final VarHandle sample1$VH = $LAYOUT.varHandle(groupElement("sample1"));

  static MemorySegment sample1(MemorySegment struct) {
    return (MemorySegment) sample1$VH.get(struct, 0L);
  }

  static void sample1(MemorySegment struct, MemorySegment fieldValue) {
    sample1$VH.set(struct, 0L, fieldValue);
  }

  private static final AddressLayout sample2$LAYOUT =
      (AddressLayout) $LAYOUT.select(groupElement("sample2"));

  static AddressLayout sample2$layout() {
    return sample2$LAYOUT;
  }

  private static final long sample2$OFFSET = 16;

  static long sample2$offset() {
    return sample2$OFFSET;
  }

  private static final VarHandle sample2$VH = $LAYOUT.varHandle(groupElement("sample2"));

  static MemorySegment sample2(MemorySegment struct) {
    return (MemorySegment) sample2$VH.get(struct, 0L);
  }

  static void sample2(MemorySegment struct, MemorySegment fieldValue) {
    sample2$VH.set(struct, 0L, fieldValue);
  }

  private static final SequenceLayout metrics$LAYOUT =
      (SequenceLayout) $LAYOUT.select(groupElement("metrics"));

  static SequenceLayout metrics$layout() {
    return metrics$LAYOUT;
  }

  private static final long metrics$OFFSET = 24;

  static long metrics$offset() {
    return metrics$OFFSET;
  }

  static MemorySegment metrics(MemorySegment struct) {
    return struct.asSlice(metrics$OFFSET, metrics$LAYOUT.byteSize());
  }

  static void metrics(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, metrics$OFFSET, metrics$LAYOUT.byteSize());
  }
}
