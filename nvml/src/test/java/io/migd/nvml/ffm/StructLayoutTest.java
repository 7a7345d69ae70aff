package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

// The raw layer's only guard: every struct layout against the x86-64 Linux ABI that gcc printed for
// NVML 13.3.29 (reference/nvml-abi.json). The numbers are copied, not read, so that a change on
// either side fails here.
class StructLayoutTest {

  // arrayLength 0: not an array. A dotted name is a member of a nested struct.
  record Field(String name, long offset, long size, long arrayLength, LongSupplier offsetAccessor) {
    PathElement[] path() {
      return Arrays.stream(name.split("\\."))
          .map(PathElement::groupElement)
          .toArray(PathElement[]::new);
    }

    boolean isNested() {
      return name.contains(".");
    }
  }

  record Struct(
      String name, Supplier<GroupLayout> layout, long size, long align, List<Field> fields) {
    @Override
    public String toString() {
      return name;
    }
  }

  record VersionMacro(
      String name,
      int value,
      LongSupplier sizeof,
      long structSize,
      int version,
      IntSupplier accessor) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Struct struct(
      String name, Supplier<GroupLayout> layout, long size, long align, Field... fields) {
    return new Struct(name, layout, size, align, List.of(fields));
  }

  private static Field field(String name, long offset, long size, LongSupplier offsetAccessor) {
    return new Field(name, offset, size, 0, offsetAccessor);
  }

  private static Field array(
      String name, long offset, long size, long length, LongSupplier offsetAccessor) {
    return new Field(name, offset, size, length, offsetAccessor);
  }

  private static VersionMacro macro(
      String name,
      int value,
      LongSupplier sizeof,
      long structSize,
      int version,
      IntSupplier accessor) {
    return new VersionMacro(name, value, sizeof, structSize, version, accessor);
  }

  static Stream<Struct> structs() {
    return Stream.of(
        struct(
            "nvmlPciInfo_t",
            nvmlPciInfo_t::layout,
            68,
            4,
            array("busIdLegacy", 0, 16, 16, nvmlPciInfo_t::busIdLegacy$offset),
            field("domain", 16, 4, nvmlPciInfo_t::domain$offset),
            field("bus", 20, 4, nvmlPciInfo_t::bus$offset),
            field("device", 24, 4, nvmlPciInfo_t::device$offset),
            field("pciDeviceId", 28, 4, nvmlPciInfo_t::pciDeviceId$offset),
            field("pciSubSystemId", 32, 4, nvmlPciInfo_t::pciSubSystemId$offset),
            array("busId", 36, 32, 32, nvmlPciInfo_t::busId$offset)),
        struct(
            "nvmlPciInfoExt_v1_t",
            nvmlPciInfoExt_v1_t::layout,
            64,
            4,
            field("version", 0, 4, nvmlPciInfoExt_v1_t::version$offset),
            field("domain", 4, 4, nvmlPciInfoExt_v1_t::domain$offset),
            field("bus", 8, 4, nvmlPciInfoExt_v1_t::bus$offset),
            field("device", 12, 4, nvmlPciInfoExt_v1_t::device$offset),
            field("pciDeviceId", 16, 4, nvmlPciInfoExt_v1_t::pciDeviceId$offset),
            field("pciSubSystemId", 20, 4, nvmlPciInfoExt_v1_t::pciSubSystemId$offset),
            field("baseClass", 24, 4, nvmlPciInfoExt_v1_t::baseClass$offset),
            field("subClass", 28, 4, nvmlPciInfoExt_v1_t::subClass$offset),
            array("busId", 32, 32, 32, nvmlPciInfoExt_v1_t::busId$offset)),
        struct(
            "nvmlUtilization_t",
            nvmlUtilization_t::layout,
            8,
            4,
            field("gpu", 0, 4, nvmlUtilization_t::gpu$offset),
            field("memory", 4, 4, nvmlUtilization_t::memory$offset)),
        struct(
            "nvmlMemory_t",
            nvmlMemory_t::layout,
            24,
            8,
            field("total", 0, 8, nvmlMemory_t::total$offset),
            field("free", 8, 8, nvmlMemory_t::free$offset),
            field("used", 16, 8, nvmlMemory_t::used$offset)),
        struct(
            "nvmlMemory_v2_t",
            nvmlMemory_v2_t::layout,
            40,
            8,
            field("version", 0, 4, nvmlMemory_v2_t::version$offset),
            field("total", 8, 8, nvmlMemory_v2_t::total$offset),
            field("reserved", 16, 8, nvmlMemory_v2_t::reserved$offset),
            field("free", 24, 8, nvmlMemory_v2_t::free$offset),
            field("used", 32, 8, nvmlMemory_v2_t::used$offset)),
        struct(
            "nvmlBAR1Memory_t",
            nvmlBAR1Memory_t::layout,
            24,
            8,
            field("bar1Total", 0, 8, nvmlBAR1Memory_t::bar1Total$offset),
            field("bar1Free", 8, 8, nvmlBAR1Memory_t::bar1Free$offset),
            field("bar1Used", 16, 8, nvmlBAR1Memory_t::bar1Used$offset)),
        struct(
            "nvmlProcessInfo_v1_t",
            nvmlProcessInfo_v1_t::layout,
            16,
            8,
            field("pid", 0, 4, nvmlProcessInfo_v1_t::pid$offset),
            field("usedGpuMemory", 8, 8, nvmlProcessInfo_v1_t::usedGpuMemory$offset)),
        struct(
            "nvmlProcessInfo_v2_t",
            nvmlProcessInfo_v2_t::layout,
            24,
            8,
            field("pid", 0, 4, nvmlProcessInfo_v2_t::pid$offset),
            field("usedGpuMemory", 8, 8, nvmlProcessInfo_v2_t::usedGpuMemory$offset),
            field("gpuInstanceId", 16, 4, nvmlProcessInfo_v2_t::gpuInstanceId$offset),
            field("computeInstanceId", 20, 4, nvmlProcessInfo_v2_t::computeInstanceId$offset)),
        struct(
            "nvmlProcessInfo_t",
            nvmlProcessInfo_t::layout,
            24,
            8,
            field("pid", 0, 4, nvmlProcessInfo_t::pid$offset),
            field("usedGpuMemory", 8, 8, nvmlProcessInfo_t::usedGpuMemory$offset),
            field("gpuInstanceId", 16, 4, nvmlProcessInfo_t::gpuInstanceId$offset),
            field("computeInstanceId", 20, 4, nvmlProcessInfo_t::computeInstanceId$offset)),
        struct(
            "nvmlProcessDetail_v1_t",
            nvmlProcessDetail_v1_t::layout,
            32,
            8,
            field("pid", 0, 4, nvmlProcessDetail_v1_t::pid$offset),
            field("usedGpuMemory", 8, 8, nvmlProcessDetail_v1_t::usedGpuMemory$offset),
            field("gpuInstanceId", 16, 4, nvmlProcessDetail_v1_t::gpuInstanceId$offset),
            field("computeInstanceId", 20, 4, nvmlProcessDetail_v1_t::computeInstanceId$offset),
            field(
                "usedGpuCcProtectedMemory",
                24,
                8,
                nvmlProcessDetail_v1_t::usedGpuCcProtectedMemory$offset)),
        struct(
            "nvmlProcessDetailList_v1_t",
            nvmlProcessDetailList_v1_t::layout,
            24,
            8,
            field("version", 0, 4, nvmlProcessDetailList_v1_t::version$offset),
            field("mode", 4, 4, nvmlProcessDetailList_v1_t::mode$offset),
            field(
                "numProcArrayEntries",
                8,
                4,
                nvmlProcessDetailList_v1_t::numProcArrayEntries$offset),
            field("procArray", 16, 8, nvmlProcessDetailList_v1_t::procArray$offset)),
        struct(
            "nvmlProcessUtilizationSample_t",
            nvmlProcessUtilizationSample_t::layout,
            32,
            8,
            field("pid", 0, 4, nvmlProcessUtilizationSample_t::pid$offset),
            field("timeStamp", 8, 8, nvmlProcessUtilizationSample_t::timeStamp$offset),
            field("smUtil", 16, 4, nvmlProcessUtilizationSample_t::smUtil$offset),
            field("memUtil", 20, 4, nvmlProcessUtilizationSample_t::memUtil$offset),
            field("encUtil", 24, 4, nvmlProcessUtilizationSample_t::encUtil$offset),
            field("decUtil", 28, 4, nvmlProcessUtilizationSample_t::decUtil$offset)),
        struct(
            "nvmlProcessUtilizationInfo_v1_t",
            nvmlProcessUtilizationInfo_v1_t::layout,
            40,
            8,
            field("timeStamp", 0, 8, nvmlProcessUtilizationInfo_v1_t::timeStamp$offset),
            field("pid", 8, 4, nvmlProcessUtilizationInfo_v1_t::pid$offset),
            field("smUtil", 12, 4, nvmlProcessUtilizationInfo_v1_t::smUtil$offset),
            field("memUtil", 16, 4, nvmlProcessUtilizationInfo_v1_t::memUtil$offset),
            field("encUtil", 20, 4, nvmlProcessUtilizationInfo_v1_t::encUtil$offset),
            field("decUtil", 24, 4, nvmlProcessUtilizationInfo_v1_t::decUtil$offset),
            field("jpgUtil", 28, 4, nvmlProcessUtilizationInfo_v1_t::jpgUtil$offset),
            field("ofaUtil", 32, 4, nvmlProcessUtilizationInfo_v1_t::ofaUtil$offset)),
        struct(
            "nvmlProcessesUtilizationInfo_v1_t",
            nvmlProcessesUtilizationInfo_v1_t::layout,
            24,
            8,
            field("version", 0, 4, nvmlProcessesUtilizationInfo_v1_t::version$offset),
            field(
                "processSamplesCount",
                4,
                4,
                nvmlProcessesUtilizationInfo_v1_t::processSamplesCount$offset),
            field(
                "lastSeenTimeStamp",
                8,
                8,
                nvmlProcessesUtilizationInfo_v1_t::lastSeenTimeStamp$offset),
            field("procUtilArray", 16, 8, nvmlProcessesUtilizationInfo_v1_t::procUtilArray$offset)),
        struct(
            "nvmlDeviceAttributes_t",
            nvmlDeviceAttributes_t::layout,
            40,
            8,
            field("multiprocessorCount", 0, 4, nvmlDeviceAttributes_t::multiprocessorCount$offset),
            field(
                "sharedCopyEngineCount",
                4,
                4,
                nvmlDeviceAttributes_t::sharedCopyEngineCount$offset),
            field("sharedDecoderCount", 8, 4, nvmlDeviceAttributes_t::sharedDecoderCount$offset),
            field("sharedEncoderCount", 12, 4, nvmlDeviceAttributes_t::sharedEncoderCount$offset),
            field("sharedJpegCount", 16, 4, nvmlDeviceAttributes_t::sharedJpegCount$offset),
            field("sharedOfaCount", 20, 4, nvmlDeviceAttributes_t::sharedOfaCount$offset),
            field(
                "gpuInstanceSliceCount",
                24,
                4,
                nvmlDeviceAttributes_t::gpuInstanceSliceCount$offset),
            field(
                "computeInstanceSliceCount",
                28,
                4,
                nvmlDeviceAttributes_t::computeInstanceSliceCount$offset),
            field("memorySizeMB", 32, 8, nvmlDeviceAttributes_t::memorySizeMB$offset)),
        struct(
            "nvmlGpuInstancePlacement_t",
            nvmlGpuInstancePlacement_t::layout,
            8,
            4,
            field("start", 0, 4, nvmlGpuInstancePlacement_t::start$offset),
            field("size", 4, 4, nvmlGpuInstancePlacement_t::size$offset)),
        struct(
            "nvmlGpuInstanceProfileInfo_t",
            nvmlGpuInstanceProfileInfo_t::layout,
            48,
            8,
            field("id", 0, 4, nvmlGpuInstanceProfileInfo_t::id$offset),
            field("isP2pSupported", 4, 4, nvmlGpuInstanceProfileInfo_t::isP2pSupported$offset),
            field("sliceCount", 8, 4, nvmlGpuInstanceProfileInfo_t::sliceCount$offset),
            field("instanceCount", 12, 4, nvmlGpuInstanceProfileInfo_t::instanceCount$offset),
            field(
                "multiprocessorCount",
                16,
                4,
                nvmlGpuInstanceProfileInfo_t::multiprocessorCount$offset),
            field("copyEngineCount", 20, 4, nvmlGpuInstanceProfileInfo_t::copyEngineCount$offset),
            field("decoderCount", 24, 4, nvmlGpuInstanceProfileInfo_t::decoderCount$offset),
            field("encoderCount", 28, 4, nvmlGpuInstanceProfileInfo_t::encoderCount$offset),
            field("jpegCount", 32, 4, nvmlGpuInstanceProfileInfo_t::jpegCount$offset),
            field("ofaCount", 36, 4, nvmlGpuInstanceProfileInfo_t::ofaCount$offset),
            field("memorySizeMB", 40, 8, nvmlGpuInstanceProfileInfo_t::memorySizeMB$offset)),
        struct(
            "nvmlGpuInstanceProfileInfo_v2_t",
            nvmlGpuInstanceProfileInfo_v2_t::layout,
            152,
            8,
            field("version", 0, 4, nvmlGpuInstanceProfileInfo_v2_t::version$offset),
            field("id", 4, 4, nvmlGpuInstanceProfileInfo_v2_t::id$offset),
            field("isP2pSupported", 8, 4, nvmlGpuInstanceProfileInfo_v2_t::isP2pSupported$offset),
            field("sliceCount", 12, 4, nvmlGpuInstanceProfileInfo_v2_t::sliceCount$offset),
            field("instanceCount", 16, 4, nvmlGpuInstanceProfileInfo_v2_t::instanceCount$offset),
            field(
                "multiprocessorCount",
                20,
                4,
                nvmlGpuInstanceProfileInfo_v2_t::multiprocessorCount$offset),
            field(
                "copyEngineCount", 24, 4, nvmlGpuInstanceProfileInfo_v2_t::copyEngineCount$offset),
            field("decoderCount", 28, 4, nvmlGpuInstanceProfileInfo_v2_t::decoderCount$offset),
            field("encoderCount", 32, 4, nvmlGpuInstanceProfileInfo_v2_t::encoderCount$offset),
            field("jpegCount", 36, 4, nvmlGpuInstanceProfileInfo_v2_t::jpegCount$offset),
            field("ofaCount", 40, 4, nvmlGpuInstanceProfileInfo_v2_t::ofaCount$offset),
            field("memorySizeMB", 48, 8, nvmlGpuInstanceProfileInfo_v2_t::memorySizeMB$offset),
            array("name", 56, 96, 96, nvmlGpuInstanceProfileInfo_v2_t::name$offset)),
        struct(
            "nvmlGpuInstanceProfileInfo_v3_t",
            nvmlGpuInstanceProfileInfo_v3_t::layout,
            152,
            8,
            field("version", 0, 4, nvmlGpuInstanceProfileInfo_v3_t::version$offset),
            field("id", 4, 4, nvmlGpuInstanceProfileInfo_v3_t::id$offset),
            field("sliceCount", 8, 4, nvmlGpuInstanceProfileInfo_v3_t::sliceCount$offset),
            field("instanceCount", 12, 4, nvmlGpuInstanceProfileInfo_v3_t::instanceCount$offset),
            field(
                "multiprocessorCount",
                16,
                4,
                nvmlGpuInstanceProfileInfo_v3_t::multiprocessorCount$offset),
            field(
                "copyEngineCount", 20, 4, nvmlGpuInstanceProfileInfo_v3_t::copyEngineCount$offset),
            field("decoderCount", 24, 4, nvmlGpuInstanceProfileInfo_v3_t::decoderCount$offset),
            field("encoderCount", 28, 4, nvmlGpuInstanceProfileInfo_v3_t::encoderCount$offset),
            field("jpegCount", 32, 4, nvmlGpuInstanceProfileInfo_v3_t::jpegCount$offset),
            field("ofaCount", 36, 4, nvmlGpuInstanceProfileInfo_v3_t::ofaCount$offset),
            field("memorySizeMB", 40, 8, nvmlGpuInstanceProfileInfo_v3_t::memorySizeMB$offset),
            array("name", 48, 96, 96, nvmlGpuInstanceProfileInfo_v3_t::name$offset),
            field("capabilities", 144, 4, nvmlGpuInstanceProfileInfo_v3_t::capabilities$offset)),
        struct(
            "nvmlGpuInstanceInfo_t",
            nvmlGpuInstanceInfo_t::layout,
            24,
            8,
            field("device", 0, 8, nvmlGpuInstanceInfo_t::device$offset),
            field("id", 8, 4, nvmlGpuInstanceInfo_t::id$offset),
            field("profileId", 12, 4, nvmlGpuInstanceInfo_t::profileId$offset),
            field("placement", 16, 8, nvmlGpuInstanceInfo_t::placement$offset)),
        struct(
            "nvmlComputeInstancePlacement_t",
            nvmlComputeInstancePlacement_t::layout,
            8,
            4,
            field("start", 0, 4, nvmlComputeInstancePlacement_t::start$offset),
            field("size", 4, 4, nvmlComputeInstancePlacement_t::size$offset)),
        struct(
            "nvmlComputeInstanceProfileInfo_t",
            nvmlComputeInstanceProfileInfo_t::layout,
            36,
            4,
            field("id", 0, 4, nvmlComputeInstanceProfileInfo_t::id$offset),
            field("sliceCount", 4, 4, nvmlComputeInstanceProfileInfo_t::sliceCount$offset),
            field("instanceCount", 8, 4, nvmlComputeInstanceProfileInfo_t::instanceCount$offset),
            field(
                "multiprocessorCount",
                12,
                4,
                nvmlComputeInstanceProfileInfo_t::multiprocessorCount$offset),
            field(
                "sharedCopyEngineCount",
                16,
                4,
                nvmlComputeInstanceProfileInfo_t::sharedCopyEngineCount$offset),
            field(
                "sharedDecoderCount",
                20,
                4,
                nvmlComputeInstanceProfileInfo_t::sharedDecoderCount$offset),
            field(
                "sharedEncoderCount",
                24,
                4,
                nvmlComputeInstanceProfileInfo_t::sharedEncoderCount$offset),
            field(
                "sharedJpegCount", 28, 4, nvmlComputeInstanceProfileInfo_t::sharedJpegCount$offset),
            field(
                "sharedOfaCount", 32, 4, nvmlComputeInstanceProfileInfo_t::sharedOfaCount$offset)),
        struct(
            "nvmlComputeInstanceProfileInfo_v2_t",
            nvmlComputeInstanceProfileInfo_v2_t::layout,
            136,
            4,
            field("version", 0, 4, nvmlComputeInstanceProfileInfo_v2_t::version$offset),
            field("id", 4, 4, nvmlComputeInstanceProfileInfo_v2_t::id$offset),
            field("sliceCount", 8, 4, nvmlComputeInstanceProfileInfo_v2_t::sliceCount$offset),
            field(
                "instanceCount", 12, 4, nvmlComputeInstanceProfileInfo_v2_t::instanceCount$offset),
            field(
                "multiprocessorCount",
                16,
                4,
                nvmlComputeInstanceProfileInfo_v2_t::multiprocessorCount$offset),
            field(
                "sharedCopyEngineCount",
                20,
                4,
                nvmlComputeInstanceProfileInfo_v2_t::sharedCopyEngineCount$offset),
            field(
                "sharedDecoderCount",
                24,
                4,
                nvmlComputeInstanceProfileInfo_v2_t::sharedDecoderCount$offset),
            field(
                "sharedEncoderCount",
                28,
                4,
                nvmlComputeInstanceProfileInfo_v2_t::sharedEncoderCount$offset),
            field(
                "sharedJpegCount",
                32,
                4,
                nvmlComputeInstanceProfileInfo_v2_t::sharedJpegCount$offset),
            field(
                "sharedOfaCount",
                36,
                4,
                nvmlComputeInstanceProfileInfo_v2_t::sharedOfaCount$offset),
            array("name", 40, 96, 96, nvmlComputeInstanceProfileInfo_v2_t::name$offset)),
        struct(
            "nvmlComputeInstanceProfileInfo_v3_t",
            nvmlComputeInstanceProfileInfo_v3_t::layout,
            140,
            4,
            field("version", 0, 4, nvmlComputeInstanceProfileInfo_v3_t::version$offset),
            field("id", 4, 4, nvmlComputeInstanceProfileInfo_v3_t::id$offset),
            field("sliceCount", 8, 4, nvmlComputeInstanceProfileInfo_v3_t::sliceCount$offset),
            field(
                "instanceCount", 12, 4, nvmlComputeInstanceProfileInfo_v3_t::instanceCount$offset),
            field(
                "multiprocessorCount",
                16,
                4,
                nvmlComputeInstanceProfileInfo_v3_t::multiprocessorCount$offset),
            field(
                "sharedCopyEngineCount",
                20,
                4,
                nvmlComputeInstanceProfileInfo_v3_t::sharedCopyEngineCount$offset),
            field(
                "sharedDecoderCount",
                24,
                4,
                nvmlComputeInstanceProfileInfo_v3_t::sharedDecoderCount$offset),
            field(
                "sharedEncoderCount",
                28,
                4,
                nvmlComputeInstanceProfileInfo_v3_t::sharedEncoderCount$offset),
            field(
                "sharedJpegCount",
                32,
                4,
                nvmlComputeInstanceProfileInfo_v3_t::sharedJpegCount$offset),
            field(
                "sharedOfaCount",
                36,
                4,
                nvmlComputeInstanceProfileInfo_v3_t::sharedOfaCount$offset),
            array("name", 40, 96, 96, nvmlComputeInstanceProfileInfo_v3_t::name$offset),
            field(
                "capabilities", 136, 4, nvmlComputeInstanceProfileInfo_v3_t::capabilities$offset)),
        struct(
            "nvmlComputeInstanceInfo_t",
            nvmlComputeInstanceInfo_t::layout,
            32,
            8,
            field("device", 0, 8, nvmlComputeInstanceInfo_t::device$offset),
            field("gpuInstance", 8, 8, nvmlComputeInstanceInfo_t::gpuInstance$offset),
            field("id", 16, 4, nvmlComputeInstanceInfo_t::id$offset),
            field("profileId", 20, 4, nvmlComputeInstanceInfo_t::profileId$offset),
            field("placement", 24, 8, nvmlComputeInstanceInfo_t::placement$offset)),
        struct(
            "nvmlEventData_t",
            nvmlEventData_t::layout,
            32,
            8,
            field("device", 0, 8, nvmlEventData_t::device$offset),
            field("eventType", 8, 8, nvmlEventData_t::eventType$offset),
            field("eventData", 16, 8, nvmlEventData_t::eventData$offset),
            field("gpuInstanceId", 24, 4, nvmlEventData_t::gpuInstanceId$offset),
            field("computeInstanceId", 28, 4, nvmlEventData_t::computeInstanceId$offset)),
        struct(
            "nvmlValue_t",
            nvmlValue_t::layout,
            8,
            8,
            field("dVal", 0, 8, nvmlValue_t::dVal$offset),
            field("siVal", 0, 4, nvmlValue_t::siVal$offset),
            field("uiVal", 0, 4, nvmlValue_t::uiVal$offset),
            field("ulVal", 0, 8, nvmlValue_t::ulVal$offset),
            field("ullVal", 0, 8, nvmlValue_t::ullVal$offset),
            field("sllVal", 0, 8, nvmlValue_t::sllVal$offset),
            field("usVal", 0, 2, nvmlValue_t::usVal$offset)),
        struct(
            "nvmlFieldValue_t",
            nvmlFieldValue_t::layout,
            40,
            8,
            field("fieldId", 0, 4, nvmlFieldValue_t::fieldId$offset),
            field("scopeId", 4, 4, nvmlFieldValue_t::scopeId$offset),
            field("timestamp", 8, 8, nvmlFieldValue_t::timestamp$offset),
            field("latencyUsec", 16, 8, nvmlFieldValue_t::latencyUsec$offset),
            field("valueType", 24, 4, nvmlFieldValue_t::valueType$offset),
            field("nvmlReturn", 28, 4, nvmlFieldValue_t::nvmlReturn$offset),
            field("value", 32, 8, nvmlFieldValue_t::value$offset)),
        struct(
            "nvmlSample_t",
            nvmlSample_t::layout,
            16,
            8,
            field("timeStamp", 0, 8, nvmlSample_t::timeStamp$offset),
            field("sampleValue", 8, 8, nvmlSample_t::sampleValue$offset)),
        struct(
            "nvmlTemperature_v1_t",
            nvmlTemperature_v1_t::layout,
            12,
            4,
            field("version", 0, 4, nvmlTemperature_v1_t::version$offset),
            field("sensorType", 4, 4, nvmlTemperature_v1_t::sensorType$offset),
            field("temperature", 8, 4, nvmlTemperature_v1_t::temperature$offset)),
        struct(
            "nvmlGpmMetric_t",
            nvmlGpmMetric_t::layout,
            40,
            8,
            field("metricId", 0, 4, nvmlGpmMetric_t::metricId$offset),
            field("nvmlReturn", 4, 4, nvmlGpmMetric_t::nvmlReturn$offset),
            field("value", 8, 8, nvmlGpmMetric_t::value$offset),
            field("metricInfo", 16, 24, nvmlGpmMetric_t::metricInfo$offset),
            field(
                "metricInfo.shortName",
                16,
                8,
                () ->
                    nvmlGpmMetric_t.metricInfo$offset()
                        + nvmlGpmMetric_t.metricInfo.shortName$offset()),
            field(
                "metricInfo.longName",
                24,
                8,
                () ->
                    nvmlGpmMetric_t.metricInfo$offset()
                        + nvmlGpmMetric_t.metricInfo.longName$offset()),
            field(
                "metricInfo.unit",
                32,
                8,
                () ->
                    nvmlGpmMetric_t.metricInfo$offset()
                        + nvmlGpmMetric_t.metricInfo.unit$offset())),
        struct(
            "nvmlGpmMetricsGet_t",
            nvmlGpmMetricsGet_t::layout,
            13344,
            8,
            field("version", 0, 4, nvmlGpmMetricsGet_t::version$offset),
            field("numMetrics", 4, 4, nvmlGpmMetricsGet_t::numMetrics$offset),
            field("sample1", 8, 8, nvmlGpmMetricsGet_t::sample1$offset),
            field("sample2", 16, 8, nvmlGpmMetricsGet_t::sample2$offset),
            array("metrics", 24, 13320, 333, nvmlGpmMetricsGet_t::metrics$offset)),
        struct(
            "nvmlGpmSupport_t",
            nvmlGpmSupport_t::layout,
            8,
            4,
            field("version", 0, 4, nvmlGpmSupport_t::version$offset),
            field("isSupportedDevice", 4, 4, nvmlGpmSupport_t::isSupportedDevice$offset)));
  }

  static Stream<VersionMacro> versionMacros() {
    return Stream.of(
        macro("nvmlMemory_v2", 0x02000028, nvmlMemory_v2_t::sizeof, 40, 2, nvml_h::nvmlMemory_v2),
        macro(
            "nvmlGpuInstanceProfileInfo_v2",
            0x02000098,
            nvmlGpuInstanceProfileInfo_v2_t::sizeof,
            152,
            2,
            nvml_h::nvmlGpuInstanceProfileInfo_v2),
        macro(
            "nvmlGpuInstanceProfileInfo_v3",
            0x03000098,
            nvmlGpuInstanceProfileInfo_v3_t::sizeof,
            152,
            3,
            nvml_h::nvmlGpuInstanceProfileInfo_v3),
        macro(
            "nvmlComputeInstanceProfileInfo_v2",
            0x02000088,
            nvmlComputeInstanceProfileInfo_v2_t::sizeof,
            136,
            2,
            nvml_h::nvmlComputeInstanceProfileInfo_v2),
        macro(
            "nvmlComputeInstanceProfileInfo_v3",
            0x0300008C,
            nvmlComputeInstanceProfileInfo_v3_t::sizeof,
            140,
            3,
            nvml_h::nvmlComputeInstanceProfileInfo_v3),
        macro(
            "nvmlProcessesUtilizationInfo_v1",
            0x01000018,
            nvmlProcessesUtilizationInfo_v1_t::sizeof,
            24,
            1,
            nvml_h::nvmlProcessesUtilizationInfo_v1),
        macro(
            "nvmlProcessDetailList_v1",
            0x01000018,
            nvmlProcessDetailList_v1_t::sizeof,
            24,
            1,
            nvml_h::nvmlProcessDetailList_v1),
        macro(
            "nvmlTemperature_v1",
            0x0100000C,
            nvmlTemperature_v1_t::sizeof,
            12,
            1,
            nvml_h::nvmlTemperature_v1),
        macro(
            "nvmlPciInfoExt_v1",
            0x01000040,
            nvmlPciInfoExt_v1_t::sizeof,
            64,
            1,
            nvml_h::nvmlPciInfoExt_v1));
  }

  @Test
  void coversEveryStructOfTheAbiOnce() {
    assertThat(structs().map(Struct::name)).hasSize(33).doesNotHaveDuplicates();
  }

  @ParameterizedTest
  @MethodSource("structs")
  void hasTheCSizeAndAlignment(Struct s) {
    var layout = s.layout().get();
    assertThat(layout.name()).contains(s.name());
    assertThat(layout.byteSize()).as("size").isEqualTo(s.size());
    assertThat(layout.byteAlignment()).as("alignment").isEqualTo(s.align());
  }

  @ParameterizedTest
  @MethodSource("structs")
  void placesEveryFieldAtItsCOffset(Struct s) {
    var layout = s.layout().get();
    var softly = new SoftAssertions();
    for (var f : s.fields()) {
      var member = layout.select(f.path());
      softly
          .assertThat(f.offsetAccessor().getAsLong())
          .as("%s$offset()", f.name())
          .isEqualTo(f.offset());
      softly
          .assertThat(layout.byteOffset(f.path()))
          .as("byteOffset(%s)", f.name())
          .isEqualTo(f.offset());
      softly.assertThat(member.byteSize()).as("size of %s", f.name()).isEqualTo(f.size());
      softly
          .assertThat(member instanceof SequenceLayout array ? array.elementCount() : 0L)
          .as("array length of %s", f.name())
          .isEqualTo(f.arrayLength());
    }
    softly.assertAll();
  }

  @ParameterizedTest
  @MethodSource("structs")
  void declaresExactlyTheCFieldsInOrder(Struct s) {
    var declared =
        s.layout().get().memberLayouts().stream()
            .filter(member -> !(member instanceof PaddingLayout))
            .map(member -> member.name().orElseThrow())
            .toList();
    var facts = s.fields().stream().filter(f -> !f.isNested()).map(Field::name).toList();
    assertThat(declared).isEqualTo(facts);
  }

  // Writes each field through its generated setter into a zeroed struct, then checks that exactly
  // the bytes C reads for that field changed and that the getter gives the value back.
  @ParameterizedTest
  @MethodSource("structs")
  void accessorsTouchOnlyTheBytesOfTheirField(Struct s) throws ReflectiveOperationException {
    var owner = Class.forName(StructLayoutTest.class.getPackageName() + "." + s.name());
    var softly = new SoftAssertions();
    try (var arena = Arena.ofConfined()) {
      for (var f : s.fields()) {
        var struct = arena.allocate(s.layout().get());
        var holder = owner;
        var target = struct;
        var member = f.name();
        if (f.isNested()) {
          var parts = f.name().split("\\.");
          var outerGetter = owner.getDeclaredMethod(parts[0], MemorySegment.class);
          target = (MemorySegment) outerGetter.invoke(null, struct);
          holder = Class.forName(owner.getName() + "$" + parts[0]);
          member = parts[1];
        }
        var getter = holder.getDeclaredMethod(member, MemorySegment.class);
        var what = f.name() + " at offset " + f.offset();
        if (s.layout().get().select(f.path()) instanceof ValueLayout scalar) {
          var value = sample(getter.getReturnType());
          holder
              .getDeclaredMethod(member, MemorySegment.class, getter.getReturnType())
              .invoke(null, target, value);
          softly.assertThat(read(struct, scalar, f.offset())).as(what).isEqualTo(value);
          softly.assertThat(getter.invoke(null, target)).as("getter of " + what).isEqualTo(value);
        } else {
          var slice = (MemorySegment) getter.invoke(null, target);
          softly.assertThat(slice.address() - struct.address()).as(what).isEqualTo(f.offset());
          softly.assertThat(slice.byteSize()).as("size of " + what).isEqualTo(f.size());
          var fill = arena.allocate(f.size()).fill((byte) 0x5A);
          holder
              .getDeclaredMethod(member, MemorySegment.class, MemorySegment.class)
              .invoke(null, target, fill);
        }
        for (long i = 0; i < struct.byteSize(); i++) {
          var inField = i >= f.offset() && i < f.offset() + f.size();
          softly
              .assertThat(struct.get(JAVA_BYTE, i) != 0)
              .as("byte %d changed after writing %s", i, what)
              .isEqualTo(inField);
        }
      }
    }
    softly.assertAll();
  }

  // Every byte of each sample is non-zero, so a short or misplaced write shows.
  private static Object sample(Class<?> type) {
    if (type == int.class) {
      return 0xA1B2C3D4;
    } else if (type == long.class) {
      return 0xA1B2C3D4E5F60718L;
    } else if (type == short.class) {
      return (short) 0xA1B2;
    } else if (type == double.class) {
      return Double.longBitsToDouble(0x4011223344556677L);
    } else if (type == MemorySegment.class) {
      return MemorySegment.ofAddress(0x0102030405060708L);
    }
    throw new IllegalArgumentException("no sample for " + type);
  }

  // Reads with the plain Java layouts, independent of the generated ones.
  private static Object read(MemorySegment struct, ValueLayout scalar, long offset) {
    return switch (scalar) {
      case ValueLayout.OfInt _ -> struct.get(JAVA_INT, offset);
      case ValueLayout.OfLong _ -> struct.get(JAVA_LONG, offset);
      case ValueLayout.OfShort _ -> struct.get(JAVA_SHORT, offset);
      case ValueLayout.OfDouble _ -> struct.get(JAVA_DOUBLE, offset);
      case AddressLayout _ -> struct.get(ADDRESS, offset);
      default -> throw new IllegalArgumentException("no C field of layout " + scalar);
    };
  }

  @Test
  void declaresProcessInfoExactlyLikeItsV2Alias() {
    assertThat(nvmlProcessInfo_t.layout().withoutName())
        .isEqualTo(nvmlProcessInfo_v2_t.layout().withoutName());
  }

  @ParameterizedTest
  @MethodSource("versionMacros")
  void versionMacroIsStructSizeWithVersionInTheTopByte(VersionMacro m) {
    assertThat(m.value()).isEqualTo((int) (m.structSize() | (long) m.version() << 24));
    assertThat(m.sizeof().getAsLong()).as("sizeof").isEqualTo(m.structSize());
    assertThat(m.accessor().getAsInt())
        .isEqualTo(m.value())
        .isEqualTo((int) (m.sizeof().getAsLong() | (long) m.version() << 24));
  }
}
