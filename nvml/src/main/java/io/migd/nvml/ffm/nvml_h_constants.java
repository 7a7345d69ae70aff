package io.migd.nvml.ffm;

// Numeric macros, struct version macros and enum values of nvml.h (NVML 13.3.29). Not final:
// nvml_h extends it, as jextract chains its split header classes, so nvml_h.NVML_SUCCESS() works.
class nvml_h_constants {

  nvml_h_constants() {}

  // Struct version macros: sizeof(struct) | version << 24.
  static int nvmlMemory_v2() {
    return 0x02000028;
  }

  static int nvmlGpuInstanceProfileInfo_v2() {
    return 0x02000098;
  }

  static int nvmlGpuInstanceProfileInfo_v3() {
    return 0x03000098;
  }

  static int nvmlComputeInstanceProfileInfo_v2() {
    return 0x02000088;
  }

  static int nvmlComputeInstanceProfileInfo_v3() {
    return 0x0300008C;
  }

  static int nvmlProcessesUtilizationInfo_v1() {
    return 0x01000018;
  }

  static int nvmlProcessDetailList_v1() {
    return 0x01000018;
  }

  static int nvmlTemperature_v1() {
    return 0x0100000C;
  }

  static int nvmlPciInfoExt_v1() {
    return 0x01000040;
  }

  // Numeric macros. Unsigned 32-bit values above Integer.MAX_VALUE are their int bit pattern.
  static int NVML_API_VERSION() {
    return 13;
  }

  static int NVML_VALUE_NOT_AVAILABLE() {
    return -1;
  }

  static int NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE() {
    return 32;
  }

  static int NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE() {
    return 16;
  }

  static int NVML_PERF_MODES_BUFFER_SIZE() {
    return 2048;
  }

  static int NVML_DEVICE_HOSTNAME_BUFFER_SIZE() {
    return 64;
  }

  static int NVML_GSP_FIRMWARE_VERSION_BUF_SIZE() {
    return 64;
  }

  static int NVML_DEVICE_ARCH_KEPLER() {
    return 2;
  }

  static int NVML_DEVICE_ARCH_MAXWELL() {
    return 3;
  }

  static int NVML_DEVICE_ARCH_PASCAL() {
    return 4;
  }

  static int NVML_DEVICE_ARCH_VOLTA() {
    return 5;
  }

  static int NVML_DEVICE_ARCH_TURING() {
    return 6;
  }

  static int NVML_DEVICE_ARCH_AMPERE() {
    return 7;
  }

  static int NVML_DEVICE_ARCH_ADA() {
    return 8;
  }

  static int NVML_DEVICE_ARCH_HOPPER() {
    return 9;
  }

  static int NVML_DEVICE_ARCH_BLACKWELL() {
    return 10;
  }

  static int NVML_DEVICE_ARCH_RUBIN() {
    return 13;
  }

  static int NVML_DEVICE_ARCH_UNKNOWN() {
    return 0xFFFFFFFF;
  }

  static int NVML_GRID_LICENSE_BUFFER_SIZE() {
    return 128;
  }

  static int NVML_VGPU_NAME_BUFFER_SIZE() {
    return 64;
  }

  static int INVALID_GPU_INSTANCE_PROFILE_ID() {
    return 0xFFFFFFFF;
  }

  static int INVALID_GPU_INSTANCE_ID() {
    return 0xFFFFFFFF;
  }

  static int NVML_FI_DEV_IS_RESETLESS_MIG_SUPPORTED() {
    return 184;
  }

  static int NVML_FI_DEV_IS_MIG_MODE_INDEPENDENT_MIG_QUERY_CAPABLE() {
    return 199;
  }

  static long nvmlEventTypeNone() {
    return 0x0L;
  }

  static long nvmlEventTypeSingleBitEccError() {
    return 0x1L;
  }

  static long nvmlEventTypeDoubleBitEccError() {
    return 0x2L;
  }

  static long nvmlEventTypePState() {
    return 0x4L;
  }

  static long nvmlEventTypeXidCriticalError() {
    return 0x8L;
  }

  static long nvmlEventTypeClock() {
    return 0x10L;
  }

  static long nvmlEventTypePowerSourceChange() {
    return 0x80L;
  }

  static long nvmlEventMigConfigChange() {
    return 0x100L;
  }

  static long nvmlEventTypeSingleBitEccErrorStorm() {
    return 0x200L;
  }

  static long nvmlEventTypeDramRetirementEvent() {
    return 0x400L;
  }

  static long nvmlEventTypeDramRetirementFailure() {
    return 0x800L;
  }

  static long nvmlEventTypeNonFatalPoisonError() {
    return 0x1000L;
  }

  static long nvmlEventTypeFatalPoisonError() {
    return 0x2000L;
  }

  static long nvmlEventTypeGpuUnavailableError() {
    return 0x4000L;
  }

  static long nvmlEventTypeGpuRecoveryAction() {
    return 0x8000L;
  }

  static long nvmlEventTypeAll() {
    return 0xFF9FL;
  }

  static int NVML_INIT_FLAG_NO_GPUS() {
    return 1;
  }

  static int NVML_INIT_FLAG_NO_ATTACH() {
    return 2;
  }

  static int NVML_INIT_FLAG_FORCE_INIT() {
    return 4;
  }

  static int NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE() {
    return 16;
  }

  static int NVML_DEVICE_UUID_BUFFER_SIZE() {
    return 80;
  }

  static int NVML_DEVICE_UUID_V2_BUFFER_SIZE() {
    return 96;
  }

  static int NVML_DEVICE_PART_NUMBER_BUFFER_SIZE() {
    return 80;
  }

  static int NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE() {
    return 80;
  }

  static int NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE() {
    return 80;
  }

  static int NVML_DEVICE_NAME_BUFFER_SIZE() {
    return 64;
  }

  static int NVML_DEVICE_NAME_V2_BUFFER_SIZE() {
    return 96;
  }

  static int NVML_DEVICE_SERIAL_BUFFER_SIZE() {
    return 30;
  }

  static int NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE() {
    return 32;
  }

  static int NVML_DEVICE_MIG_DISABLE() {
    return 0;
  }

  static int NVML_DEVICE_MIG_ENABLE() {
    return 1;
  }

  static int NVML_GPU_INSTANCE_PROFILE_1_SLICE() {
    return 0;
  }

  static int NVML_GPU_INSTANCE_PROFILE_2_SLICE() {
    return 1;
  }

  static int NVML_GPU_INSTANCE_PROFILE_3_SLICE() {
    return 2;
  }

  static int NVML_GPU_INSTANCE_PROFILE_4_SLICE() {
    return 3;
  }

  static int NVML_GPU_INSTANCE_PROFILE_7_SLICE() {
    return 4;
  }

  static int NVML_GPU_INSTANCE_PROFILE_8_SLICE() {
    return 5;
  }

  static int NVML_GPU_INSTANCE_PROFILE_6_SLICE() {
    return 6;
  }

  static int NVML_GPU_INSTANCE_PROFILE_1_SLICE_REV1() {
    return 7;
  }

  static int NVML_GPU_INSTANCE_PROFILE_2_SLICE_REV1() {
    return 8;
  }

  static int NVML_GPU_INSTANCE_PROFILE_1_SLICE_REV2() {
    return 9;
  }

  static int NVML_GPU_INSTANCE_PROFILE_1_SLICE_GFX() {
    return 10;
  }

  static int NVML_GPU_INSTANCE_PROFILE_2_SLICE_GFX() {
    return 11;
  }

  static int NVML_GPU_INSTANCE_PROFILE_4_SLICE_GFX() {
    return 12;
  }

  static int NVML_GPU_INSTANCE_PROFILE_1_SLICE_NO_ME() {
    return 13;
  }

  static int NVML_GPU_INSTANCE_PROFILE_2_SLICE_NO_ME() {
    return 14;
  }

  static int NVML_GPU_INSTANCE_PROFILE_1_SLICE_ALL_ME() {
    return 15;
  }

  static int NVML_GPU_INSTANCE_PROFILE_2_SLICE_ALL_ME() {
    return 16;
  }

  static int NVML_GPU_INSTANCE_PROFILE_3_SLICE_GFX() {
    return 17;
  }

  static int NVML_GPU_INSTANCE_PROFILE_COUNT() {
    return 18;
  }

  static int NVML_GPU_INSTANCE_PROFILE_CAPS_P2P() {
    return 1;
  }

  static int NVML_GPU_INTSTANCE_PROFILE_CAPS_P2P() {
    return 1;
  }

  static int NVML_GPU_INSTANCE_PROFILE_CAPS_GFX() {
    return 2;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_CAPS_GFX() {
    return 1;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_1_SLICE() {
    return 0;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_2_SLICE() {
    return 1;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_3_SLICE() {
    return 2;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_4_SLICE() {
    return 3;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_7_SLICE() {
    return 4;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_8_SLICE() {
    return 5;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_6_SLICE() {
    return 6;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_1_SLICE_REV1() {
    return 7;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_7_SLICE_NVL() {
    return 8;
  }

  static int NVML_COMPUTE_INSTANCE_PROFILE_COUNT() {
    return 9;
  }

  static int NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED() {
    return 0;
  }

  static int NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_COUNT() {
    return 1;
  }

  static int NVML_GPM_METRICS_GET_VERSION() {
    return 1;
  }

  static int NVML_GPM_SUPPORT_VERSION() {
    return 1;
  }

  // enum nvmlReturn_t
  static int NVML_SUCCESS() {
    return 0;
  }

  static int NVML_ERROR_UNINITIALIZED() {
    return 1;
  }

  static int NVML_ERROR_INVALID_ARGUMENT() {
    return 2;
  }

  static int NVML_ERROR_NOT_SUPPORTED() {
    return 3;
  }

  static int NVML_ERROR_NO_PERMISSION() {
    return 4;
  }

  static int NVML_ERROR_ALREADY_INITIALIZED() {
    return 5;
  }

  static int NVML_ERROR_NOT_FOUND() {
    return 6;
  }

  static int NVML_ERROR_INSUFFICIENT_SIZE() {
    return 7;
  }

  static int NVML_ERROR_INSUFFICIENT_POWER() {
    return 8;
  }

  static int NVML_ERROR_DRIVER_NOT_LOADED() {
    return 9;
  }

  static int NVML_ERROR_TIMEOUT() {
    return 10;
  }

  static int NVML_ERROR_IRQ_ISSUE() {
    return 11;
  }

  static int NVML_ERROR_LIBRARY_NOT_FOUND() {
    return 12;
  }

  static int NVML_ERROR_FUNCTION_NOT_FOUND() {
    return 13;
  }

  static int NVML_ERROR_CORRUPTED_INFOROM() {
    return 14;
  }

  static int NVML_ERROR_GPU_IS_LOST() {
    return 15;
  }

  static int NVML_ERROR_RESET_REQUIRED() {
    return 16;
  }

  static int NVML_ERROR_OPERATING_SYSTEM() {
    return 17;
  }

  static int NVML_ERROR_LIB_RM_VERSION_MISMATCH() {
    return 18;
  }

  static int NVML_ERROR_IN_USE() {
    return 19;
  }

  static int NVML_ERROR_MEMORY() {
    return 20;
  }

  static int NVML_ERROR_NO_DATA() {
    return 21;
  }

  static int NVML_ERROR_VGPU_ECC_NOT_SUPPORTED() {
    return 22;
  }

  static int NVML_ERROR_INSUFFICIENT_RESOURCES() {
    return 23;
  }

  static int NVML_ERROR_FREQ_NOT_SUPPORTED() {
    return 24;
  }

  static int NVML_ERROR_ARGUMENT_VERSION_MISMATCH() {
    return 25;
  }

  static int NVML_ERROR_DEPRECATED() {
    return 26;
  }

  static int NVML_ERROR_NOT_READY() {
    return 27;
  }

  static int NVML_ERROR_GPU_NOT_FOUND() {
    return 28;
  }

  static int NVML_ERROR_INVALID_STATE() {
    return 29;
  }

  static int NVML_ERROR_RESET_TYPE_NOT_SUPPORTED() {
    return 30;
  }

  static int NVML_ERROR_UNKNOWN() {
    return 999;
  }

  // enum nvmlComputeMode_t
  static int NVML_COMPUTEMODE_DEFAULT() {
    return 0;
  }

  static int NVML_COMPUTEMODE_EXCLUSIVE_THREAD() {
    return 1;
  }

  static int NVML_COMPUTEMODE_PROHIBITED() {
    return 2;
  }

  static int NVML_COMPUTEMODE_EXCLUSIVE_PROCESS() {
    return 3;
  }

  static int NVML_COMPUTEMODE_COUNT() {
    return 4;
  }

  // enum nvmlEnableState_t
  static int NVML_FEATURE_DISABLED() {
    return 0;
  }

  static int NVML_FEATURE_ENABLED() {
    return 1;
  }

  // enum nvmlTemperatureSensors_t
  static int NVML_TEMPERATURE_GPU() {
    return 0;
  }

  static int NVML_TEMPERATURE_COUNT() {
    return 1;
  }

  // enum nvmlValueType_t
  static int NVML_VALUE_TYPE_DOUBLE() {
    return 0;
  }

  static int NVML_VALUE_TYPE_UNSIGNED_INT() {
    return 1;
  }

  static int NVML_VALUE_TYPE_UNSIGNED_LONG() {
    return 2;
  }

  static int NVML_VALUE_TYPE_UNSIGNED_LONG_LONG() {
    return 3;
  }

  static int NVML_VALUE_TYPE_SIGNED_LONG_LONG() {
    return 4;
  }

  static int NVML_VALUE_TYPE_SIGNED_INT() {
    return 5;
  }

  static int NVML_VALUE_TYPE_UNSIGNED_SHORT() {
    return 6;
  }

  static int NVML_VALUE_TYPE_COUNT() {
    return 7;
  }

  // enum nvmlProcessMode_t
  static int NVML_PROCESS_MODE_COMPUTE() {
    return 0;
  }

  static int NVML_PROCESS_MODE_GRAPHICS() {
    return 1;
  }

  static int NVML_PROCESS_MODE_MPS() {
    return 2;
  }

  static int NVML_PROCESS_MODE_ALL() {
    return 3;
  }

  static int NVML_PROCESS_MODE_MAX() {
    return 4;
  }

  // enum nvmlGpmMetricId_t
  static int NVML_GPM_METRIC_GRAPHICS_UTIL() {
    return 1;
  }

  static int NVML_GPM_METRIC_SM_UTIL() {
    return 2;
  }

  static int NVML_GPM_METRIC_SM_OCCUPANCY() {
    return 3;
  }

  static int NVML_GPM_METRIC_INTEGER_UTIL() {
    return 4;
  }

  static int NVML_GPM_METRIC_ANY_TENSOR_UTIL() {
    return 5;
  }

  static int NVML_GPM_METRIC_DFMA_TENSOR_UTIL() {
    return 6;
  }

  static int NVML_GPM_METRIC_HMMA_TENSOR_UTIL() {
    return 7;
  }

  static int NVML_GPM_METRIC_DMMA_TENSOR_UTIL() {
    return 8;
  }

  static int NVML_GPM_METRIC_IMMA_TENSOR_UTIL() {
    return 9;
  }

  static int NVML_GPM_METRIC_DRAM_BW_UTIL() {
    return 10;
  }

  static int NVML_GPM_METRIC_FP64_UTIL() {
    return 11;
  }

  static int NVML_GPM_METRIC_FP32_UTIL() {
    return 12;
  }

  static int NVML_GPM_METRIC_FP16_UTIL() {
    return 13;
  }

  static int NVML_GPM_METRIC_PCIE_TX_PER_SEC() {
    return 20;
  }

  static int NVML_GPM_METRIC_PCIE_RX_PER_SEC() {
    return 21;
  }

  static int NVML_GPM_METRIC_NVDEC_0_UTIL() {
    return 30;
  }

  static int NVML_GPM_METRIC_NVDEC_1_UTIL() {
    return 31;
  }

  static int NVML_GPM_METRIC_NVDEC_2_UTIL() {
    return 32;
  }

  static int NVML_GPM_METRIC_NVDEC_3_UTIL() {
    return 33;
  }

  static int NVML_GPM_METRIC_NVDEC_4_UTIL() {
    return 34;
  }

  static int NVML_GPM_METRIC_NVDEC_5_UTIL() {
    return 35;
  }

  static int NVML_GPM_METRIC_NVDEC_6_UTIL() {
    return 36;
  }

  static int NVML_GPM_METRIC_NVDEC_7_UTIL() {
    return 37;
  }

  static int NVML_GPM_METRIC_NVJPG_0_UTIL() {
    return 40;
  }

  static int NVML_GPM_METRIC_NVJPG_1_UTIL() {
    return 41;
  }

  static int NVML_GPM_METRIC_NVJPG_2_UTIL() {
    return 42;
  }

  static int NVML_GPM_METRIC_NVJPG_3_UTIL() {
    return 43;
  }

  static int NVML_GPM_METRIC_NVJPG_4_UTIL() {
    return 44;
  }

  static int NVML_GPM_METRIC_NVJPG_5_UTIL() {
    return 45;
  }

  static int NVML_GPM_METRIC_NVJPG_6_UTIL() {
    return 46;
  }

  static int NVML_GPM_METRIC_NVJPG_7_UTIL() {
    return 47;
  }

  static int NVML_GPM_METRIC_NVOFA_0_UTIL() {
    return 50;
  }

  static int NVML_GPM_METRIC_NVOFA_1_UTIL() {
    return 51;
  }

  static int NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC() {
    return 60;
  }

  static int NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC() {
    return 61;
  }

  static int NVML_GPM_METRIC_NVLINK_L0_RX_PER_SEC() {
    return 62;
  }

  static int NVML_GPM_METRIC_NVLINK_L0_TX_PER_SEC() {
    return 63;
  }

  static int NVML_GPM_METRIC_NVLINK_L1_RX_PER_SEC() {
    return 64;
  }

  static int NVML_GPM_METRIC_NVLINK_L1_TX_PER_SEC() {
    return 65;
  }

  static int NVML_GPM_METRIC_NVLINK_L2_RX_PER_SEC() {
    return 66;
  }

  static int NVML_GPM_METRIC_NVLINK_L2_TX_PER_SEC() {
    return 67;
  }

  static int NVML_GPM_METRIC_NVLINK_L3_RX_PER_SEC() {
    return 68;
  }

  static int NVML_GPM_METRIC_NVLINK_L3_TX_PER_SEC() {
    return 69;
  }

  static int NVML_GPM_METRIC_NVLINK_L4_RX_PER_SEC() {
    return 70;
  }

  static int NVML_GPM_METRIC_NVLINK_L4_TX_PER_SEC() {
    return 71;
  }

  static int NVML_GPM_METRIC_NVLINK_L5_RX_PER_SEC() {
    return 72;
  }

  static int NVML_GPM_METRIC_NVLINK_L5_TX_PER_SEC() {
    return 73;
  }

  static int NVML_GPM_METRIC_NVLINK_L6_RX_PER_SEC() {
    return 74;
  }

  static int NVML_GPM_METRIC_NVLINK_L6_TX_PER_SEC() {
    return 75;
  }

  static int NVML_GPM_METRIC_NVLINK_L7_RX_PER_SEC() {
    return 76;
  }

  static int NVML_GPM_METRIC_NVLINK_L7_TX_PER_SEC() {
    return 77;
  }

  static int NVML_GPM_METRIC_NVLINK_L8_RX_PER_SEC() {
    return 78;
  }

  static int NVML_GPM_METRIC_NVLINK_L8_TX_PER_SEC() {
    return 79;
  }

  static int NVML_GPM_METRIC_NVLINK_L9_RX_PER_SEC() {
    return 80;
  }

  static int NVML_GPM_METRIC_NVLINK_L9_TX_PER_SEC() {
    return 81;
  }

  static int NVML_GPM_METRIC_NVLINK_L10_RX_PER_SEC() {
    return 82;
  }

  static int NVML_GPM_METRIC_NVLINK_L10_TX_PER_SEC() {
    return 83;
  }

  static int NVML_GPM_METRIC_NVLINK_L11_RX_PER_SEC() {
    return 84;
  }

  static int NVML_GPM_METRIC_NVLINK_L11_TX_PER_SEC() {
    return 85;
  }

  static int NVML_GPM_METRIC_NVLINK_L12_RX_PER_SEC() {
    return 86;
  }

  static int NVML_GPM_METRIC_NVLINK_L12_TX_PER_SEC() {
    return 87;
  }

  static int NVML_GPM_METRIC_NVLINK_L13_RX_PER_SEC() {
    return 88;
  }

  static int NVML_GPM_METRIC_NVLINK_L13_TX_PER_SEC() {
    return 89;
  }

  static int NVML_GPM_METRIC_NVLINK_L14_RX_PER_SEC() {
    return 90;
  }

  static int NVML_GPM_METRIC_NVLINK_L14_TX_PER_SEC() {
    return 91;
  }

  static int NVML_GPM_METRIC_NVLINK_L15_RX_PER_SEC() {
    return 92;
  }

  static int NVML_GPM_METRIC_NVLINK_L15_TX_PER_SEC() {
    return 93;
  }

  static int NVML_GPM_METRIC_NVLINK_L16_RX_PER_SEC() {
    return 94;
  }

  static int NVML_GPM_METRIC_NVLINK_L16_TX_PER_SEC() {
    return 95;
  }

  static int NVML_GPM_METRIC_NVLINK_L17_RX_PER_SEC() {
    return 96;
  }

  static int NVML_GPM_METRIC_NVLINK_L17_TX_PER_SEC() {
    return 97;
  }

  static int NVML_GPM_METRIC_C2C_TOTAL_TX_PER_SEC() {
    return 100;
  }

  static int NVML_GPM_METRIC_C2C_TOTAL_RX_PER_SEC() {
    return 101;
  }

  static int NVML_GPM_METRIC_C2C_DATA_TX_PER_SEC() {
    return 102;
  }

  static int NVML_GPM_METRIC_C2C_DATA_RX_PER_SEC() {
    return 103;
  }

  static int NVML_GPM_METRIC_C2C_LINK0_TOTAL_TX_PER_SEC() {
    return 104;
  }

  static int NVML_GPM_METRIC_C2C_LINK0_TOTAL_RX_PER_SEC() {
    return 105;
  }

  static int NVML_GPM_METRIC_C2C_LINK0_DATA_TX_PER_SEC() {
    return 106;
  }

  static int NVML_GPM_METRIC_C2C_LINK0_DATA_RX_PER_SEC() {
    return 107;
  }

  static int NVML_GPM_METRIC_C2C_LINK1_TOTAL_TX_PER_SEC() {
    return 108;
  }

  static int NVML_GPM_METRIC_C2C_LINK1_TOTAL_RX_PER_SEC() {
    return 109;
  }

  static int NVML_GPM_METRIC_C2C_LINK1_DATA_TX_PER_SEC() {
    return 110;
  }

  static int NVML_GPM_METRIC_C2C_LINK1_DATA_RX_PER_SEC() {
    return 111;
  }

  static int NVML_GPM_METRIC_C2C_LINK2_TOTAL_TX_PER_SEC() {
    return 112;
  }

  static int NVML_GPM_METRIC_C2C_LINK2_TOTAL_RX_PER_SEC() {
    return 113;
  }

  static int NVML_GPM_METRIC_C2C_LINK2_DATA_TX_PER_SEC() {
    return 114;
  }

  static int NVML_GPM_METRIC_C2C_LINK2_DATA_RX_PER_SEC() {
    return 115;
  }

  static int NVML_GPM_METRIC_C2C_LINK3_TOTAL_TX_PER_SEC() {
    return 116;
  }

  static int NVML_GPM_METRIC_C2C_LINK3_TOTAL_RX_PER_SEC() {
    return 117;
  }

  static int NVML_GPM_METRIC_C2C_LINK3_DATA_TX_PER_SEC() {
    return 118;
  }

  static int NVML_GPM_METRIC_C2C_LINK3_DATA_RX_PER_SEC() {
    return 119;
  }

  static int NVML_GPM_METRIC_C2C_LINK4_TOTAL_TX_PER_SEC() {
    return 120;
  }

  static int NVML_GPM_METRIC_C2C_LINK4_TOTAL_RX_PER_SEC() {
    return 121;
  }

  static int NVML_GPM_METRIC_C2C_LINK4_DATA_TX_PER_SEC() {
    return 122;
  }

  static int NVML_GPM_METRIC_C2C_LINK4_DATA_RX_PER_SEC() {
    return 123;
  }

  static int NVML_GPM_METRIC_C2C_LINK5_TOTAL_TX_PER_SEC() {
    return 124;
  }

  static int NVML_GPM_METRIC_C2C_LINK5_TOTAL_RX_PER_SEC() {
    return 125;
  }

  static int NVML_GPM_METRIC_C2C_LINK5_DATA_TX_PER_SEC() {
    return 126;
  }

  static int NVML_GPM_METRIC_C2C_LINK5_DATA_RX_PER_SEC() {
    return 127;
  }

  static int NVML_GPM_METRIC_C2C_LINK6_TOTAL_TX_PER_SEC() {
    return 128;
  }

  static int NVML_GPM_METRIC_C2C_LINK6_TOTAL_RX_PER_SEC() {
    return 129;
  }

  static int NVML_GPM_METRIC_C2C_LINK6_DATA_TX_PER_SEC() {
    return 130;
  }

  static int NVML_GPM_METRIC_C2C_LINK6_DATA_RX_PER_SEC() {
    return 131;
  }

  static int NVML_GPM_METRIC_C2C_LINK7_TOTAL_TX_PER_SEC() {
    return 132;
  }

  static int NVML_GPM_METRIC_C2C_LINK7_TOTAL_RX_PER_SEC() {
    return 133;
  }

  static int NVML_GPM_METRIC_C2C_LINK7_DATA_TX_PER_SEC() {
    return 134;
  }

  static int NVML_GPM_METRIC_C2C_LINK7_DATA_RX_PER_SEC() {
    return 135;
  }

  static int NVML_GPM_METRIC_C2C_LINK8_TOTAL_TX_PER_SEC() {
    return 136;
  }

  static int NVML_GPM_METRIC_C2C_LINK8_TOTAL_RX_PER_SEC() {
    return 137;
  }

  static int NVML_GPM_METRIC_C2C_LINK8_DATA_TX_PER_SEC() {
    return 138;
  }

  static int NVML_GPM_METRIC_C2C_LINK8_DATA_RX_PER_SEC() {
    return 139;
  }

  static int NVML_GPM_METRIC_C2C_LINK9_TOTAL_TX_PER_SEC() {
    return 140;
  }

  static int NVML_GPM_METRIC_C2C_LINK9_TOTAL_RX_PER_SEC() {
    return 141;
  }

  static int NVML_GPM_METRIC_C2C_LINK9_DATA_TX_PER_SEC() {
    return 142;
  }

  static int NVML_GPM_METRIC_C2C_LINK9_DATA_RX_PER_SEC() {
    return 143;
  }

  static int NVML_GPM_METRIC_C2C_LINK10_TOTAL_TX_PER_SEC() {
    return 144;
  }

  static int NVML_GPM_METRIC_C2C_LINK10_TOTAL_RX_PER_SEC() {
    return 145;
  }

  static int NVML_GPM_METRIC_C2C_LINK10_DATA_TX_PER_SEC() {
    return 146;
  }

  static int NVML_GPM_METRIC_C2C_LINK10_DATA_RX_PER_SEC() {
    return 147;
  }

  static int NVML_GPM_METRIC_C2C_LINK11_TOTAL_TX_PER_SEC() {
    return 148;
  }

  static int NVML_GPM_METRIC_C2C_LINK11_TOTAL_RX_PER_SEC() {
    return 149;
  }

  static int NVML_GPM_METRIC_C2C_LINK11_DATA_TX_PER_SEC() {
    return 150;
  }

  static int NVML_GPM_METRIC_C2C_LINK11_DATA_RX_PER_SEC() {
    return 151;
  }

  static int NVML_GPM_METRIC_C2C_LINK12_TOTAL_TX_PER_SEC() {
    return 152;
  }

  static int NVML_GPM_METRIC_C2C_LINK12_TOTAL_RX_PER_SEC() {
    return 153;
  }

  static int NVML_GPM_METRIC_C2C_LINK12_DATA_TX_PER_SEC() {
    return 154;
  }

  static int NVML_GPM_METRIC_C2C_LINK12_DATA_RX_PER_SEC() {
    return 155;
  }

  static int NVML_GPM_METRIC_C2C_LINK13_TOTAL_TX_PER_SEC() {
    return 156;
  }

  static int NVML_GPM_METRIC_C2C_LINK13_TOTAL_RX_PER_SEC() {
    return 157;
  }

  static int NVML_GPM_METRIC_C2C_LINK13_DATA_TX_PER_SEC() {
    return 158;
  }

  static int NVML_GPM_METRIC_C2C_LINK13_DATA_RX_PER_SEC() {
    return 159;
  }

  static int NVML_GPM_METRIC_HOSTMEM_CACHE_HIT() {
    return 160;
  }

  static int NVML_GPM_METRIC_HOSTMEM_CACHE_MISS() {
    return 161;
  }

  static int NVML_GPM_METRIC_PEERMEM_CACHE_HIT() {
    return 162;
  }

  static int NVML_GPM_METRIC_PEERMEM_CACHE_MISS() {
    return 163;
  }

  static int NVML_GPM_METRIC_DRAM_CACHE_HIT() {
    return 164;
  }

  static int NVML_GPM_METRIC_DRAM_CACHE_MISS() {
    return 165;
  }

  static int NVML_GPM_METRIC_NVENC_0_UTIL() {
    return 166;
  }

  static int NVML_GPM_METRIC_NVENC_1_UTIL() {
    return 167;
  }

  static int NVML_GPM_METRIC_NVENC_2_UTIL() {
    return 168;
  }

  static int NVML_GPM_METRIC_NVENC_3_UTIL() {
    return 169;
  }

  static int NVML_GPM_METRIC_GR0_CTXSW_CYCLES_ELAPSED() {
    return 170;
  }

  static int NVML_GPM_METRIC_GR0_CTXSW_CYCLES_ACTIVE() {
    return 171;
  }

  static int NVML_GPM_METRIC_GR0_CTXSW_REQUESTS() {
    return 172;
  }

  static int NVML_GPM_METRIC_GR0_CTXSW_CYCLES_PER_REQ() {
    return 173;
  }

  static int NVML_GPM_METRIC_GR0_CTXSW_ACTIVE_PCT() {
    return 174;
  }

  static int NVML_GPM_METRIC_GR1_CTXSW_CYCLES_ELAPSED() {
    return 175;
  }

  static int NVML_GPM_METRIC_GR1_CTXSW_CYCLES_ACTIVE() {
    return 176;
  }

  static int NVML_GPM_METRIC_GR1_CTXSW_REQUESTS() {
    return 177;
  }

  static int NVML_GPM_METRIC_GR1_CTXSW_CYCLES_PER_REQ() {
    return 178;
  }

  static int NVML_GPM_METRIC_GR1_CTXSW_ACTIVE_PCT() {
    return 179;
  }

  static int NVML_GPM_METRIC_GR2_CTXSW_CYCLES_ELAPSED() {
    return 180;
  }

  static int NVML_GPM_METRIC_GR2_CTXSW_CYCLES_ACTIVE() {
    return 181;
  }

  static int NVML_GPM_METRIC_GR2_CTXSW_REQUESTS() {
    return 182;
  }

  static int NVML_GPM_METRIC_GR2_CTXSW_CYCLES_PER_REQ() {
    return 183;
  }

  static int NVML_GPM_METRIC_GR2_CTXSW_ACTIVE_PCT() {
    return 184;
  }

  static int NVML_GPM_METRIC_GR3_CTXSW_CYCLES_ELAPSED() {
    return 185;
  }

  static int NVML_GPM_METRIC_GR3_CTXSW_CYCLES_ACTIVE() {
    return 186;
  }

  static int NVML_GPM_METRIC_GR3_CTXSW_REQUESTS() {
    return 187;
  }

  static int NVML_GPM_METRIC_GR3_CTXSW_CYCLES_PER_REQ() {
    return 188;
  }

  static int NVML_GPM_METRIC_GR3_CTXSW_ACTIVE_PCT() {
    return 189;
  }

  static int NVML_GPM_METRIC_GR4_CTXSW_CYCLES_ELAPSED() {
    return 190;
  }

  static int NVML_GPM_METRIC_GR4_CTXSW_CYCLES_ACTIVE() {
    return 191;
  }

  static int NVML_GPM_METRIC_GR4_CTXSW_REQUESTS() {
    return 192;
  }

  static int NVML_GPM_METRIC_GR4_CTXSW_CYCLES_PER_REQ() {
    return 193;
  }

  static int NVML_GPM_METRIC_GR4_CTXSW_ACTIVE_PCT() {
    return 194;
  }

  static int NVML_GPM_METRIC_GR5_CTXSW_CYCLES_ELAPSED() {
    return 195;
  }

  static int NVML_GPM_METRIC_GR5_CTXSW_CYCLES_ACTIVE() {
    return 196;
  }

  static int NVML_GPM_METRIC_GR5_CTXSW_REQUESTS() {
    return 197;
  }

  static int NVML_GPM_METRIC_GR5_CTXSW_CYCLES_PER_REQ() {
    return 198;
  }

  static int NVML_GPM_METRIC_GR5_CTXSW_ACTIVE_PCT() {
    return 199;
  }

  static int NVML_GPM_METRIC_GR6_CTXSW_CYCLES_ELAPSED() {
    return 200;
  }

  static int NVML_GPM_METRIC_GR6_CTXSW_CYCLES_ACTIVE() {
    return 201;
  }

  static int NVML_GPM_METRIC_GR6_CTXSW_REQUESTS() {
    return 202;
  }

  static int NVML_GPM_METRIC_GR6_CTXSW_CYCLES_PER_REQ() {
    return 203;
  }

  static int NVML_GPM_METRIC_GR6_CTXSW_ACTIVE_PCT() {
    return 204;
  }

  static int NVML_GPM_METRIC_GR7_CTXSW_CYCLES_ELAPSED() {
    return 205;
  }

  static int NVML_GPM_METRIC_GR7_CTXSW_CYCLES_ACTIVE() {
    return 206;
  }

  static int NVML_GPM_METRIC_GR7_CTXSW_REQUESTS() {
    return 207;
  }

  static int NVML_GPM_METRIC_GR7_CTXSW_CYCLES_PER_REQ() {
    return 208;
  }

  static int NVML_GPM_METRIC_GR7_CTXSW_ACTIVE_PCT() {
    return 209;
  }

  static int NVML_GPM_METRIC_NVLINK_L18_RX_PER_SEC() {
    return 212;
  }

  static int NVML_GPM_METRIC_NVLINK_L18_TX_PER_SEC() {
    return 213;
  }

  static int NVML_GPM_METRIC_NVLINK_L19_RX_PER_SEC() {
    return 214;
  }

  static int NVML_GPM_METRIC_NVLINK_L19_TX_PER_SEC() {
    return 215;
  }

  static int NVML_GPM_METRIC_NVLINK_L20_RX_PER_SEC() {
    return 216;
  }

  static int NVML_GPM_METRIC_NVLINK_L20_TX_PER_SEC() {
    return 217;
  }

  static int NVML_GPM_METRIC_NVLINK_L21_RX_PER_SEC() {
    return 218;
  }

  static int NVML_GPM_METRIC_NVLINK_L21_TX_PER_SEC() {
    return 219;
  }

  static int NVML_GPM_METRIC_NVLINK_L22_RX_PER_SEC() {
    return 220;
  }

  static int NVML_GPM_METRIC_NVLINK_L22_TX_PER_SEC() {
    return 221;
  }

  static int NVML_GPM_METRIC_NVLINK_L23_RX_PER_SEC() {
    return 222;
  }

  static int NVML_GPM_METRIC_NVLINK_L23_TX_PER_SEC() {
    return 223;
  }

  static int NVML_GPM_METRIC_NVLINK_L24_RX_PER_SEC() {
    return 224;
  }

  static int NVML_GPM_METRIC_NVLINK_L24_TX_PER_SEC() {
    return 225;
  }

  static int NVML_GPM_METRIC_NVLINK_L25_RX_PER_SEC() {
    return 226;
  }

  static int NVML_GPM_METRIC_NVLINK_L25_TX_PER_SEC() {
    return 227;
  }

  static int NVML_GPM_METRIC_NVLINK_L26_RX_PER_SEC() {
    return 228;
  }

  static int NVML_GPM_METRIC_NVLINK_L26_TX_PER_SEC() {
    return 229;
  }

  static int NVML_GPM_METRIC_NVLINK_L27_RX_PER_SEC() {
    return 230;
  }

  static int NVML_GPM_METRIC_NVLINK_L27_TX_PER_SEC() {
    return 231;
  }

  static int NVML_GPM_METRIC_NVLINK_L28_RX_PER_SEC() {
    return 232;
  }

  static int NVML_GPM_METRIC_NVLINK_L28_TX_PER_SEC() {
    return 233;
  }

  static int NVML_GPM_METRIC_NVLINK_L29_RX_PER_SEC() {
    return 234;
  }

  static int NVML_GPM_METRIC_NVLINK_L29_TX_PER_SEC() {
    return 235;
  }

  static int NVML_GPM_METRIC_NVLINK_L30_RX_PER_SEC() {
    return 236;
  }

  static int NVML_GPM_METRIC_NVLINK_L30_TX_PER_SEC() {
    return 237;
  }

  static int NVML_GPM_METRIC_NVLINK_L31_RX_PER_SEC() {
    return 238;
  }

  static int NVML_GPM_METRIC_NVLINK_L31_TX_PER_SEC() {
    return 239;
  }

  static int NVML_GPM_METRIC_NVLINK_L32_RX_PER_SEC() {
    return 240;
  }

  static int NVML_GPM_METRIC_NVLINK_L32_TX_PER_SEC() {
    return 241;
  }

  static int NVML_GPM_METRIC_NVLINK_L33_RX_PER_SEC() {
    return 242;
  }

  static int NVML_GPM_METRIC_NVLINK_L33_TX_PER_SEC() {
    return 243;
  }

  static int NVML_GPM_METRIC_NVLINK_L34_RX_PER_SEC() {
    return 244;
  }

  static int NVML_GPM_METRIC_NVLINK_L34_TX_PER_SEC() {
    return 245;
  }

  static int NVML_GPM_METRIC_NVLINK_L35_RX_PER_SEC() {
    return 246;
  }

  static int NVML_GPM_METRIC_NVLINK_L35_TX_PER_SEC() {
    return 247;
  }

  static int NVML_GPM_METRIC_SM_CYCLES_ELAPSED() {
    return 248;
  }

  static int NVML_GPM_METRIC_SM_CYCLES_ACTIVE() {
    return 249;
  }

  static int NVML_GPM_METRIC_MMA_CYCLES_ACTIVE() {
    return 250;
  }

  static int NVML_GPM_METRIC_DMMA_CYCLES_ACTIVE() {
    return 251;
  }

  static int NVML_GPM_METRIC_HMMA_CYCLES_ACTIVE() {
    return 252;
  }

  static int NVML_GPM_METRIC_IMMA_CYCLES_ACTIVE() {
    return 253;
  }

  static int NVML_GPM_METRIC_DFMA_CYCLES_ACTIVE() {
    return 254;
  }

  static int NVML_GPM_METRIC_PCIE_TX() {
    return 255;
  }

  static int NVML_GPM_METRIC_PCIE_RX() {
    return 256;
  }

  static int NVML_GPM_METRIC_INTEGER_CYCLES_ACTIVE() {
    return 257;
  }

  static int NVML_GPM_METRIC_FP64_CYCLES_ACTIVE() {
    return 258;
  }

  static int NVML_GPM_METRIC_FP32_CYCLES_ACTIVE() {
    return 259;
  }

  static int NVML_GPM_METRIC_FP16_CYCLES_ACTIVE() {
    return 260;
  }

  static int NVML_GPM_METRIC_NVLINK_L0_RX() {
    return 261;
  }

  static int NVML_GPM_METRIC_NVLINK_L0_TX() {
    return 262;
  }

  static int NVML_GPM_METRIC_NVLINK_L1_RX() {
    return 263;
  }

  static int NVML_GPM_METRIC_NVLINK_L1_TX() {
    return 264;
  }

  static int NVML_GPM_METRIC_NVLINK_L2_RX() {
    return 265;
  }

  static int NVML_GPM_METRIC_NVLINK_L2_TX() {
    return 266;
  }

  static int NVML_GPM_METRIC_NVLINK_L3_RX() {
    return 267;
  }

  static int NVML_GPM_METRIC_NVLINK_L3_TX() {
    return 268;
  }

  static int NVML_GPM_METRIC_NVLINK_L4_RX() {
    return 269;
  }

  static int NVML_GPM_METRIC_NVLINK_L4_TX() {
    return 270;
  }

  static int NVML_GPM_METRIC_NVLINK_L5_RX() {
    return 271;
  }

  static int NVML_GPM_METRIC_NVLINK_L5_TX() {
    return 272;
  }

  static int NVML_GPM_METRIC_NVLINK_L6_RX() {
    return 273;
  }

  static int NVML_GPM_METRIC_NVLINK_L6_TX() {
    return 274;
  }

  static int NVML_GPM_METRIC_NVLINK_L7_RX() {
    return 275;
  }

  static int NVML_GPM_METRIC_NVLINK_L7_TX() {
    return 276;
  }

  static int NVML_GPM_METRIC_NVLINK_L8_RX() {
    return 277;
  }

  static int NVML_GPM_METRIC_NVLINK_L8_TX() {
    return 278;
  }

  static int NVML_GPM_METRIC_NVLINK_L9_RX() {
    return 279;
  }

  static int NVML_GPM_METRIC_NVLINK_L9_TX() {
    return 280;
  }

  static int NVML_GPM_METRIC_NVLINK_L10_RX() {
    return 281;
  }

  static int NVML_GPM_METRIC_NVLINK_L10_TX() {
    return 282;
  }

  static int NVML_GPM_METRIC_NVLINK_L11_RX() {
    return 283;
  }

  static int NVML_GPM_METRIC_NVLINK_L11_TX() {
    return 284;
  }

  static int NVML_GPM_METRIC_NVLINK_L12_RX() {
    return 285;
  }

  static int NVML_GPM_METRIC_NVLINK_L12_TX() {
    return 286;
  }

  static int NVML_GPM_METRIC_NVLINK_L13_RX() {
    return 287;
  }

  static int NVML_GPM_METRIC_NVLINK_L13_TX() {
    return 288;
  }

  static int NVML_GPM_METRIC_NVLINK_L14_RX() {
    return 289;
  }

  static int NVML_GPM_METRIC_NVLINK_L14_TX() {
    return 290;
  }

  static int NVML_GPM_METRIC_NVLINK_L15_RX() {
    return 291;
  }

  static int NVML_GPM_METRIC_NVLINK_L15_TX() {
    return 292;
  }

  static int NVML_GPM_METRIC_NVLINK_L16_RX() {
    return 293;
  }

  static int NVML_GPM_METRIC_NVLINK_L16_TX() {
    return 294;
  }

  static int NVML_GPM_METRIC_NVLINK_L17_RX() {
    return 295;
  }

  static int NVML_GPM_METRIC_NVLINK_L17_TX() {
    return 296;
  }

  static int NVML_GPM_METRIC_NVLINK_L18_RX() {
    return 297;
  }

  static int NVML_GPM_METRIC_NVLINK_L18_TX() {
    return 298;
  }

  static int NVML_GPM_METRIC_NVLINK_L19_RX() {
    return 299;
  }

  static int NVML_GPM_METRIC_NVLINK_L19_TX() {
    return 300;
  }

  static int NVML_GPM_METRIC_NVLINK_L20_RX() {
    return 301;
  }

  static int NVML_GPM_METRIC_NVLINK_L20_TX() {
    return 302;
  }

  static int NVML_GPM_METRIC_NVLINK_L21_RX() {
    return 303;
  }

  static int NVML_GPM_METRIC_NVLINK_L21_TX() {
    return 304;
  }

  static int NVML_GPM_METRIC_NVLINK_L22_RX() {
    return 305;
  }

  static int NVML_GPM_METRIC_NVLINK_L22_TX() {
    return 306;
  }

  static int NVML_GPM_METRIC_NVLINK_L23_RX() {
    return 307;
  }

  static int NVML_GPM_METRIC_NVLINK_L23_TX() {
    return 308;
  }

  static int NVML_GPM_METRIC_NVLINK_L24_RX() {
    return 309;
  }

  static int NVML_GPM_METRIC_NVLINK_L24_TX() {
    return 310;
  }

  static int NVML_GPM_METRIC_NVLINK_L25_RX() {
    return 311;
  }

  static int NVML_GPM_METRIC_NVLINK_L25_TX() {
    return 312;
  }

  static int NVML_GPM_METRIC_NVLINK_L26_RX() {
    return 313;
  }

  static int NVML_GPM_METRIC_NVLINK_L26_TX() {
    return 314;
  }

  static int NVML_GPM_METRIC_NVLINK_L27_RX() {
    return 315;
  }

  static int NVML_GPM_METRIC_NVLINK_L27_TX() {
    return 316;
  }

  static int NVML_GPM_METRIC_NVLINK_L28_RX() {
    return 317;
  }

  static int NVML_GPM_METRIC_NVLINK_L28_TX() {
    return 318;
  }

  static int NVML_GPM_METRIC_NVLINK_L29_RX() {
    return 319;
  }

  static int NVML_GPM_METRIC_NVLINK_L29_TX() {
    return 320;
  }

  static int NVML_GPM_METRIC_NVLINK_L30_RX() {
    return 321;
  }

  static int NVML_GPM_METRIC_NVLINK_L30_TX() {
    return 322;
  }

  static int NVML_GPM_METRIC_NVLINK_L31_RX() {
    return 323;
  }

  static int NVML_GPM_METRIC_NVLINK_L31_TX() {
    return 324;
  }

  static int NVML_GPM_METRIC_NVLINK_L32_RX() {
    return 325;
  }

  static int NVML_GPM_METRIC_NVLINK_L32_TX() {
    return 326;
  }

  static int NVML_GPM_METRIC_NVLINK_L33_RX() {
    return 327;
  }

  static int NVML_GPM_METRIC_NVLINK_L33_TX() {
    return 328;
  }

  static int NVML_GPM_METRIC_NVLINK_L34_RX() {
    return 329;
  }

  static int NVML_GPM_METRIC_NVLINK_L34_TX() {
    return 330;
  }

  static int NVML_GPM_METRIC_NVLINK_L35_RX() {
    return 331;
  }

  static int NVML_GPM_METRIC_NVLINK_L35_TX() {
    return 332;
  }

  static int NVML_GPM_METRIC_MAX() {
    return 333;
  }
}
