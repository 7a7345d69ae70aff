package io.migd.nvml.ffm;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.invoke.VarHandle;

/** C struct {@code nvmlGpuInstanceProfileInfo_v3_t}. */
final class nvmlGpuInstanceProfileInfo_v3_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("version"),
              JAVA_INT.withName("id"),
              JAVA_INT.withName("sliceCount"),
              JAVA_INT.withName("instanceCount"),
              JAVA_INT.withName("multiprocessorCount"),
              JAVA_INT.withName("copyEngineCount"),
              JAVA_INT.withName("decoderCount"),
              JAVA_INT.withName("encoderCount"),
              JAVA_INT.withName("jpegCount"),
              JAVA_INT.withName("ofaCount"),
              JAVA_LONG.withName("memorySizeMB"),
              MemoryLayout.sequenceLayout(96, JAVA_BYTE).withName("name"),
              JAVA_INT.withName("capabilities"),
              MemoryLayout.paddingLayout(4))
          .withName("nvmlGpuInstanceProfileInfo_v3_t");

  private nvmlGpuInstanceProfileInfo_v3_t() {}

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

  private static final OfInt id$LAYOUT = (OfInt) $LAYOUT.select(groupElement("id"));

  static OfInt id$layout() {
    return id$LAYOUT;
  }

  private static final long id$OFFSET = 4;

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

  private static final long sliceCount$OFFSET = 8;

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

  private static final long instanceCount$OFFSET = 12;

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

  private static final long multiprocessorCount$OFFSET = 16;

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

  private static final OfInt copyEngineCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("copyEngineCount"));

  static OfInt copyEngineCount$layout() {
    return copyEngineCount$LAYOUT;
  }

  private static final long copyEngineCount$OFFSET = 20;

  static long copyEngineCount$offset() {
    return copyEngineCount$OFFSET;
  }

  private static final VarHandle copyEngineCount$VH =
      $LAYOUT.varHandle(groupElement("copyEngineCount"));

  static int copyEngineCount(MemorySegment struct) {
    return (int) copyEngineCount$VH.get(struct, 0L);
  }

  static void copyEngineCount(MemorySegment struct, int fieldValue) {
    copyEngineCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt decoderCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("decoderCount"));

  static OfInt decoderCount$layout() {
    return decoderCount$LAYOUT;
  }

  private static final long decoderCount$OFFSET = 24;

  static long decoderCount$offset() {
    return decoderCount$OFFSET;
  }

  private static final VarHandle decoderCount$VH = $LAYOUT.varHandle(groupElement("decoderCount"));

  static int decoderCount(MemorySegment struct) {
    return (int) decoderCount$VH.get(struct, 0L);
  }

  static void decoderCount(MemorySegment struct, int fieldValue) {
    decoderCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt encoderCount$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("encoderCount"));

  static OfInt encoderCount$layout() {
    return encoderCount$LAYOUT;
  }

  private static final long encoderCount$OFFSET = 28;

  static long encoderCount$offset() {
    return encoderCount$OFFSET;
  }

  private static final VarHandle encoderCount$VH = $LAYOUT.varHandle(groupElement("encoderCount"));

  static int encoderCount(MemorySegment struct) {
    return (int) encoderCount$VH.get(struct, 0L);
  }

  static void encoderCount(MemorySegment struct, int fieldValue) {
    encoderCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt jpegCount$LAYOUT = (OfInt) $LAYOUT.select(groupElement("jpegCount"));

  static OfInt jpegCount$layout() {
    return jpegCount$LAYOUT;
  }

  private static final long jpegCount$OFFSET = 32;

  static long jpegCount$offset() {
    return jpegCount$OFFSET;
  }

  private static final VarHandle jpegCount$VH = $LAYOUT.varHandle(groupElement("jpegCount"));

  static int jpegCount(MemorySegment struct) {
    return (int) jpegCount$VH.get(struct, 0L);
  }

  static void jpegCount(MemorySegment struct, int fieldValue) {
    jpegCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfInt ofaCount$LAYOUT = (OfInt) $LAYOUT.select(groupElement("ofaCount"));

  static OfInt ofaCount$layout() {
    return ofaCount$LAYOUT;
  }

  private static final long ofaCount$OFFSET = 36;

  static long ofaCount$offset() {
    return ofaCount$OFFSET;
  }

  private static final VarHandle ofaCount$VH = $LAYOUT.varHandle(groupElement("ofaCount"));

  static int ofaCount(MemorySegment struct) {
    return (int) ofaCount$VH.get(struct, 0L);
  }

  static void ofaCount(MemorySegment struct, int fieldValue) {
    ofaCount$VH.set(struct, 0L, fieldValue);
  }

  private static final OfLong memorySizeMB$LAYOUT =
      (OfLong) $LAYOUT.select(groupElement("memorySizeMB"));

  static OfLong memorySizeMB$layout() {
    return memorySizeMB$LAYOUT;
  }

  private static final long memorySizeMB$OFFSET = 40;

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

  private static final SequenceLayout name$LAYOUT =
      (SequenceLayout) $LAYOUT.select(groupElement("name"));

  static SequenceLayout name$layout() {
    return name$LAYOUT;
  }

  private static final long name$OFFSET = 48;

  static long name$offset() {
    return name$OFFSET;
  }

  static MemorySegment name(MemorySegment struct) {
    return struct.asSlice(name$OFFSET, name$LAYOUT.byteSize());
  }

  static void name(MemorySegment struct, MemorySegment fieldValue) {
    MemorySegment.copy(fieldValue, 0L, struct, name$OFFSET, name$LAYOUT.byteSize());
  }

  private static final OfInt capabilities$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("capabilities"));

  static OfInt capabilities$layout() {
    return capabilities$LAYOUT;
  }

  private static final long capabilities$OFFSET = 144;

  static long capabilities$offset() {
    return capabilities$OFFSET;
  }

  private static final VarHandle capabilities$VH = $LAYOUT.varHandle(groupElement("capabilities"));

  static int capabilities(MemorySegment struct) {
    return (int) capabilities$VH.get(struct, 0L);
  }

  static void capabilities(MemorySegment struct, int fieldValue) {
    capabilities$VH.set(struct, 0L, fieldValue);
  }
}
