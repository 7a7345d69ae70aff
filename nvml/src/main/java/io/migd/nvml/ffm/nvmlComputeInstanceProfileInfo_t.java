package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlComputeInstanceProfileInfo_t}. */
final class nvmlComputeInstanceProfileInfo_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("id"),
              JAVA_INT.withName("sliceCount"),
              JAVA_INT.withName("instanceCount"),
              JAVA_INT.withName("multiprocessorCount"),
              JAVA_INT.withName("sharedCopyEngineCount"),
              JAVA_INT.withName("sharedDecoderCount"),
              JAVA_INT.withName("sharedEncoderCount"),
              JAVA_INT.withName("sharedJpegCount"),
              JAVA_INT.withName("sharedOfaCount"))
          .withName("nvmlComputeInstanceProfileInfo_t");

  private nvmlComputeInstanceProfileInfo_t() {}

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

  private static final OfInt id$LAYOUT = (OfInt) $LAYOUT.select(groupElement("id"));

  static OfInt id$layout() {
    return id$LAYOUT;
  }

  private static final long id$OFFSET = 0;

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

  private static final OfInt sliceCount$LAYOUT = (OfInt) $LAYOUT.select(groupElement("sliceCount"));

  static OfInt sliceCount$layout() {
    return sliceCount$LAYOUT;
  }

  private static final long sliceCount$OFFSET = 4;

  static long sliceCount$offset() {
    return sliceCount$OFFSET;
  }

  private static final VarHandle sliceCount$VH = $LAYOUT.varHandle(groupElement("sliceCount"));

  static int sliceCount(MemorySegment struct) {
    return (int) sliceCount$VH.get(struct, 0L);
  }

  static void sliceCount(MemorySegment struct, int fieldValue) {
    sliceCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt instanceCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("instanceCount"));

  static OfInt instanceCount$layout() {
    return instanceCount$LAYOUT;
  }

  private static final long instanceCount$OFFSET = 8;

  static long instanceCount$offset() {
    return instanceCount$OFFSET;
  }

  private static final VarHandle instanceCount$VH =
      $LAYOUT.varHandle(groupElement("instanceCount"));

  static int instanceCount(MemorySegment struct) {
    return (int) instanceCount$VH.get(struct, 0L);
  }

  static void instanceCount(MemorySegment struct, int fieldValue) {
    instanceCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt multiprocessorCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("multiprocessorCount"));

  static OfInt multiprocessorCount$layout() {
    return multiprocessorCount$LAYOUT;
  }

  private static final long multiprocessorCount$OFFSET = 12;

  static long multiprocessorCount$offset() {
    return multiprocessorCount$OFFSET;
  }

  private static final VarHandle multiprocessorCount$VH =
      $LAYOUT.varHandle(groupElement("multiprocessorCount"));

  static int multiprocessorCount(MemorySegment struct) {
    return (int) multiprocessorCount$VH.get(struct, 0L);
  }

  static void multiprocessorCount(MemorySegment struct, int fieldValue) {
    multiprocessorCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt sharedCopyEngineCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("sharedCopyEngineCount"));

  static OfInt sharedCopyEngineCount$layout() {
    return sharedCopyEngineCount$LAYOUT;
  }

  private static final long sharedCopyEngineCount$OFFSET = 16;

  static long sharedCopyEngineCount$offset() {
    return sharedCopyEngineCount$OFFSET;
  }

  private static final VarHandle sharedCopyEngineCount$VH =
      $LAYOUT.varHandle(groupElement("sharedCopyEngineCount"));

  static int sharedCopyEngineCount(MemorySegment struct) {
    return (int) sharedCopyEngineCount$VH.get(struct, 0L);
  }

  static void sharedCopyEngineCount(MemorySegment struct, int fieldValue) {
    sharedCopyEngineCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt sharedDecoderCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("sharedDecoderCount"));

  static OfInt sharedDecoderCount$layout() {
    return sharedDecoderCount$LAYOUT;
  }

  private static final long sharedDecoderCount$OFFSET = 20;

  static long sharedDecoderCount$offset() {
    return sharedDecoderCount$OFFSET;
  }

  private static final VarHandle sharedDecoderCount$VH =
      $LAYOUT.varHandle(groupElement("sharedDecoderCount"));

  static int sharedDecoderCount(MemorySegment struct) {
    return (int) sharedDecoderCount$VH.get(struct, 0L);
  }

  static void sharedDecoderCount(MemorySegment struct, int fieldValue) {
    sharedDecoderCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt sharedEncoderCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("sharedEncoderCount"));

  static OfInt sharedEncoderCount$layout() {
    return sharedEncoderCount$LAYOUT;
  }

  private static final long sharedEncoderCount$OFFSET = 24;

  static long sharedEncoderCount$offset() {
    return sharedEncoderCount$OFFSET;
  }

  private static final VarHandle sharedEncoderCount$VH =
      $LAYOUT.varHandle(groupElement("sharedEncoderCount"));

  static int sharedEncoderCount(MemorySegment struct) {
    return (int) sharedEncoderCount$VH.get(struct, 0L);
  }

  static void sharedEncoderCount(MemorySegment struct, int fieldValue) {
    sharedEncoderCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt sharedJpegCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("sharedJpegCount"));

  static OfInt sharedJpegCount$layout() {
    return sharedJpegCount$LAYOUT;
  }

  private static final long sharedJpegCount$OFFSET = 28;

  static long sharedJpegCount$offset() {
    return sharedJpegCount$OFFSET;
  }

  private static final VarHandle sharedJpegCount$VH =
      $LAYOUT.varHandle(groupElement("sharedJpegCount"));

  static int sharedJpegCount(MemorySegment struct) {
    return (int) sharedJpegCount$VH.get(struct, 0L);
  }

  static void sharedJpegCount(MemorySegment struct, int fieldValue) {
    sharedJpegCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt sharedOfaCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("sharedOfaCount"));

  static OfInt sharedOfaCount$layout() {
    return sharedOfaCount$LAYOUT;
  }

  private static final long sharedOfaCount$OFFSET = 32;

  static long sharedOfaCount$offset() {
    return sharedOfaCount$OFFSET;
  }

  private static final VarHandle sharedOfaCount$VH =
      $LAYOUT.varHandle(groupElement("sharedOfaCount"));

  static int sharedOfaCount(MemorySegment struct) {
    return (int) sharedOfaCount$VH.get(struct, 0L);
  }

  static void sharedOfaCount(MemorySegment struct, int fieldValue) {
    sharedOfaCount$VH.set(struct, 0L, fieldValue);
  }
}
