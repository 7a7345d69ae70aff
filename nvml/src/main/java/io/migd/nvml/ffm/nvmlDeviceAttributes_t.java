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

/** C struct {@code nvmlDeviceAttributes_t}. */
final class nvmlDeviceAttributes_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("multiprocessorCount"),
              JAVA_INT.withName("sharedCopyEngineCount"),
              JAVA_INT.withName("sharedDecoderCount"),
              JAVA_INT.withName("sharedEncoderCount"),
              JAVA_INT.withName("sharedJpegCount"),
              JAVA_INT.withName("sharedOfaCount"),
              JAVA_INT.withName("gpuInstanceSliceCount"),
              JAVA_INT.withName("computeInstanceSliceCount"),
              JAVA_LONG.withName("memorySizeMB"))
          .withName("nvmlDeviceAttributes_t");

  private nvmlDeviceAttributes_t() {}

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

  private static final OfInt multiprocessorCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("multiprocessorCount"));

  static OfInt multiprocessorCount$layout() {
    return multiprocessorCount$LAYOUT;
  }

  private static final long multiprocessorCount$OFFSET = 0;

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

  private static final long sharedCopyEngineCount$OFFSET = 4;

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

  private static final long sharedDecoderCount$OFFSET = 8;

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

  private static final long sharedEncoderCount$OFFSET = 12;

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

  private static final long sharedJpegCount$OFFSET = 16;

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

  private static final long sharedOfaCount$OFFSET = 20;

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

  private static final OfInt gpuInstanceSliceCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("gpuInstanceSliceCount"));

  static OfInt gpuInstanceSliceCount$layout() {
    return gpuInstanceSliceCount$LAYOUT;
  }

  private static final long gpuInstanceSliceCount$OFFSET = 24;

  static long gpuInstanceSliceCount$offset() {
    return gpuInstanceSliceCount$OFFSET;
  }

  private static final VarHandle gpuInstanceSliceCount$VH =
      $LAYOUT.varHandle(groupElement("gpuInstanceSliceCount"));

  static int gpuInstanceSliceCount(MemorySegment struct) {
    return (int) gpuInstanceSliceCount$VH.get(struct, 0L);
  }

  static void gpuInstanceSliceCount(MemorySegment struct, int fieldValue) {
    gpuInstanceSliceCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt computeInstanceSliceCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("computeInstanceSliceCount"));

  static OfInt computeInstanceSliceCount$layout() {
    return computeInstanceSliceCount$LAYOUT;
  }

  private static final long computeInstanceSliceCount$OFFSET = 28;

  static long computeInstanceSliceCount$offset() {
    return computeInstanceSliceCount$OFFSET;
  }

  private static final VarHandle computeInstanceSliceCount$VH =
      $LAYOUT.varHandle(groupElement("computeInstanceSliceCount"));

  static int computeInstanceSliceCount(MemorySegment struct) {
    return (int) computeInstanceSliceCount$VH.get(struct, 0L);
  }

  static void computeInstanceSliceCount(MemorySegment struct, int fieldValue) {
    computeInstanceSliceCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong memorySizeMB$LAYOUT =
      (OfLong) $LAYOUT.select(groupElement("memorySizeMB"));

  static OfLong memorySizeMB$layout() {
    return memorySizeMB$LAYOUT;
  }

  private static final long memorySizeMB$OFFSET = 32;

  static long memorySizeMB$offset() {
    return memorySizeMB$OFFSET;
  }

  private static final VarHandle memorySizeMB$VH = $LAYOUT.varHandle(groupElement("memorySizeMB"));

  static long memorySizeMB(MemorySegment struct) {
    return (long) memorySizeMB$VH.get(struct, 0L);
  }

  static void memorySizeMB(MemorySegment struct, long fieldValue) {
    memorySizeMB$VH.set(struct, 0L, fieldValue);
  }
}
