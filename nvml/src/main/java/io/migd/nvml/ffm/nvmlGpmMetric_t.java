package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfDouble;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlGpmMetric_t}. */
final class nvmlGpmMetric_t {

  // The anonymous struct of field metricInfo.
  static final class metricInfo {
    private static final GroupLayout $LAYOUT =
        MemoryLayout.structLayout(
            ADDRESS.withName("shortName"), ADDRESS.withName("longName"), ADDRESS.withName("unit"));

    private metricInfo() {}

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

    private static final AddressLayout shortName$LAYOUT =
        (AddressLayout) $LAYOUT.select(groupElement("shortName"));

    static AddressLayout shortName$layout() {
      return shortName$LAYOUT;
    }

    private static final long shortName$OFFSET = 0;

    static long shortName$offset() {
      return shortName$OFFSET;
    }

    private static final VarHandle shortName$VH = $LAYOUT.varHandle(groupElement("shortName"));

    static MemorySegment shortName(MemorySegment struct) {
      return (MemorySegment) shortName$VH.get(struct, 0L);
    }

    static void shortName(MemorySegment struct, MemorySegment fieldValue) {
      shortName$VH.set(struct, 0L, fieldValue);
    }

    private static final AddressLayout longName$LAYOUT =
        (AddressLayout) $LAYOUT.select(groupElement("longName"));

    static AddressLayout longName$layout() {
      return longName$LAYOUT;
    }

    private static final long longName$OFFSET = 8;

    static long longName$offset() {
      return longName$OFFSET;
    }

    private static final VarHandle longName$VH = $LAYOUT.varHandle(groupElement("longName"));

    static MemorySegment longName(MemorySegment struct) {
      return (MemorySegment) longName$VH.get(struct, 0L);
    }

    static void longName(MemorySegment struct, MemorySegment fieldValue) {
      longName$VH.set(struct, 0L, fieldValue);
    }

    private static final AddressLayout unit$LAYOUT =
        (AddressLayout) $LAYOUT.select(groupElement("unit"));

    static AddressLayout unit$layout() {
      return unit$LAYOUT;
    }

    private static final long unit$OFFSET = 16;

    static long unit$offset() {
      return unit$OFFSET;
    }

    private static final VarHandle unit$VH = $LAYOUT.varHandle(groupElement("unit"));

    static MemorySegment unit(MemorySegment struct) {
      return (MemorySegment) unit$VH.get(struct, 0L);
    }

    static void unit(MemorySegment struct, MemorySegment fieldValue) {
      unit$VH.set(struct, 0L, fieldValue);
    }
  }

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("metricId"),
              JAVA_INT.withName("nvmlReturn"),
              JAVA_DOUBLE.withName("value"),
              metricInfo.layout().withName("metricInfo"))
          .withName("nvmlGpmMetric_t");

  private nvmlGpmMetric_t() {}

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

  private static final OfInt metricId$LAYOUT = (OfInt) $LAYOUT.select(groupElement("metricId"));

  static OfInt metricId$layout() {
    return metricId$LAYOUT;
  }

  private static final long metricId$OFFSET = 0;

  static long metricId$offset() {
    return metricId$OFFSET;
  }

  private static final VarHandle metricId$VH = $LAYOUT.varHandle(groupElement("metricId"));

  static int metricId(MemorySegment struct) {
    return (int) metricId$VH.get(struct, 0L);
  }

  static void metricId(MemorySegment struct, int fieldValue) {
    metricId$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt nvmlReturn$LAYOUT = (OfInt) $LAYOUT.select(groupElement("nvmlReturn"));

  static OfInt nvmlReturn$layout() {
    return nvmlReturn$LAYOUT;
  }

  private static final long nvmlReturn$OFFSET = 4;

  static long nvmlReturn$offset() {
    return nvmlReturn$OFFSET;
  }

  private static final VarHandle nvmlReturn$VH = $LAYOUT.varHandle(groupElement("nvmlReturn"));

  static int nvmlReturn(MemorySegment struct) {
    return (int) nvmlReturn$VH.get(struct, 0L);
  }

  static void nvmlReturn(MemorySegment struct, int fieldValue) {
    nvmlReturn$VH.set(struct, 0L, fieldValue);
  }

  private static final OfDouble value$LAYOUT = (OfDouble) $LAYOUT.select(groupElement("value"));

  static OfDouble value$layout() {
    return value$LAYOUT;
  }

  private static final long value$OFFSET = 8;

  static long value$offset() {
    return value$OFFSET;
  }

  private static final VarHandle value$VH = $LAYOUT.varHandle(groupElement("value"));

  static double value(MemorySegment struct) {
    return (double) value$VH.get(struct, 0L);
  }

  static void value(MemorySegment struct, double fieldValue) {
    value$VH.set(struct, 0L, fieldValue);
  }

  private static final GroupLayout metricInfo$LAYOUT =
      (GroupLayout) $LAYOUT.select(groupElement("metricInfo"));

  static GroupLayout metricInfo$layout() {
    return metricInfo$LAYOUT;
  }

  private static final long metricInfo$OFFSET = 16;

  static long metricInfo$offset() {
    return metricInfo$OFFSET;
  }

  static MemorySegment metricInfo(MemorySegment struct) {
    return struct.asSlice(metricInfo$OFFSET, metricInfo$LAYOUT.byteSize());
  }

  static void metricInfo(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, metricInfo$OFFSET, metricInfo$LAYOUT.byteSize());
  }
}
