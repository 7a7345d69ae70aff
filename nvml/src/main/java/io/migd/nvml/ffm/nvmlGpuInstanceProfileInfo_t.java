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

/** C struct {@code nvmlGpuInstanceProfileInfo_t}. */
final class nvmlGpuInstanceProfileInfo_t {

  private static final GroupLayout $LAYOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("id"),
              JAVA_INT.withName("isP2pSupported"),
              JAVA_INT.withName("sliceCount"),
              JAVA_INT.withName("instanceCount"),
              JAVA_INT.withName("multiprocessorCount"),
              JAVA_INT.withName("copyEngineCount"),
              JAVA_INT.withName("decoderCount"),
              JAVA_INT.withName("encoderCount"),
              JAVA_INT.withName("jpegCount"),
              JAVA_INT.withName("ofaCount"),
              JAVA_LONG.withName("memorySizeMB"))
          .withName("nvmlGpuInstanceProfileInfo_t");

  private nvmlGpuInstanceProfileInfo_t() {}

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

  private static final OfInt isP2pSupported$LAYOUT =
      (OfInt) $LAYOUT.select(groupElement("isP2pSupported"));

  static OfInt isP2pSupported$layout() {
    return isP2pSupported$LAYOUT;
  }

  private static final long isP2pSupported$OFFSET = 4;

  static long isP2pSupported$offset() {
    return isP2pSupported$OFFSET;
  }

  private static final VarHandle isP2pSupported$VH =
      $LAYOUT.varHandle(groupElement("isP2pSupported"));

  static int isP2pSupported(MemorySegment struct) {
    return (int) isP2pSupported$VH.get(struct, 0L);
  }

  static void isP2pSupported(MemorySegment struct, int fieldValue) {
    isP2pSupported$VH.set(struct, 0L, fieldValue);
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
}
