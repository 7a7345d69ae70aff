/*
 * The NVML ABI subset the simulator exports, declared from the ABI facts kept in
 * nvml/src/test/resources/io/migd/nvml/ffm/nvml-abi.json (sizes, offsets, constants).
 * No NVIDIA header is used.
 * The layouts are checked with static assertions at the end of this file.
 */
#ifndef SIM_NVML_TYPES_H
#define SIM_NVML_TYPES_H

#include <stddef.h>

typedef enum {
  NVML_SUCCESS = 0,
  NVML_ERROR_UNINITIALIZED = 1,
  NVML_ERROR_INVALID_ARGUMENT = 2,
  NVML_ERROR_NOT_SUPPORTED = 3,
  NVML_ERROR_NO_PERMISSION = 4,
  NVML_ERROR_ALREADY_INITIALIZED = 5,
  NVML_ERROR_NOT_FOUND = 6,
  NVML_ERROR_INSUFFICIENT_SIZE = 7,
  NVML_ERROR_INSUFFICIENT_POWER = 8,
  NVML_ERROR_DRIVER_NOT_LOADED = 9,
  NVML_ERROR_TIMEOUT = 10,
  NVML_ERROR_IRQ_ISSUE = 11,
  NVML_ERROR_LIBRARY_NOT_FOUND = 12,
  NVML_ERROR_FUNCTION_NOT_FOUND = 13,
  NVML_ERROR_CORRUPTED_INFOROM = 14,
  NVML_ERROR_GPU_IS_LOST = 15,
  NVML_ERROR_RESET_REQUIRED = 16,
  NVML_ERROR_OPERATING_SYSTEM = 17,
  NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
  NVML_ERROR_IN_USE = 19,
  NVML_ERROR_MEMORY = 20,
  NVML_ERROR_NO_DATA = 21,
  NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22,
  NVML_ERROR_INSUFFICIENT_RESOURCES = 23,
  NVML_ERROR_FREQ_NOT_SUPPORTED = 24,
  NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
  NVML_ERROR_DEPRECATED = 26,
  NVML_ERROR_NOT_READY = 27,
  NVML_ERROR_GPU_NOT_FOUND = 28,
  NVML_ERROR_INVALID_STATE = 29,
  NVML_ERROR_RESET_TYPE_NOT_SUPPORTED = 30,
  NVML_ERROR_UNKNOWN = 999
} nvmlReturn_t;

typedef enum {
  NVML_COMPUTEMODE_DEFAULT = 0,
  NVML_COMPUTEMODE_EXCLUSIVE_THREAD = 1,
  NVML_COMPUTEMODE_PROHIBITED = 2,
  NVML_COMPUTEMODE_EXCLUSIVE_PROCESS = 3,
  NVML_COMPUTEMODE_COUNT = 4
} nvmlComputeMode_t;

typedef enum { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 } nvmlEnableState_t;

typedef enum { NVML_TEMPERATURE_GPU = 0, NVML_TEMPERATURE_COUNT = 1 } nvmlTemperatureSensors_t;

typedef enum {
  NVML_VALUE_TYPE_DOUBLE = 0,
  NVML_VALUE_TYPE_UNSIGNED_INT = 1,
  NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
  NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
  NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
  NVML_VALUE_TYPE_SIGNED_INT = 5,
  NVML_VALUE_TYPE_UNSIGNED_SHORT = 6
} nvmlValueType_t;

typedef unsigned int nvmlDeviceArchitecture_t;

/* nvmlBrandType_t (not in nvml-abi.json; values of NVML's public documentation). Only the value
   the simulator answers is named. */
typedef enum { NVML_BRAND_NVIDIA = 14 } nvmlBrandType_t;

/* Opaque 8-byte handles. The simulator encodes values in them and never dereferences them. */
typedef struct simOpaqueDevice *nvmlDevice_t;
typedef struct simOpaqueGpuInstance *nvmlGpuInstance_t;
typedef struct simOpaqueComputeInstance *nvmlComputeInstance_t;
typedef struct simOpaqueEventSet *nvmlEventSet_t;
typedef struct simOpaqueGpmSample *nvmlGpmSample_t;

#define NVML_DEVICE_MIG_DISABLE 0u
#define NVML_DEVICE_MIG_ENABLE 1u
#define NVML_INIT_FLAG_NO_GPUS 1u
#define NVML_GPU_INSTANCE_PROFILE_COUNT 18u
#define NVML_COMPUTE_INSTANCE_PROFILE_COUNT 9u
#define NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED 0u
#define NVML_FI_DEV_IS_RESETLESS_MIG_SUPPORTED 184u
#define NVML_FI_DEV_IS_MIG_MODE_INDEPENDENT_MIG_QUERY_CAPABLE 199u
#define NVML_GPM_METRIC_MAX 333u
#define NVML_GPM_METRICS_GET_VERSION 1u
#define NVML_GPM_SUPPORT_VERSION 1u
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96u
#define SIM_INVALID_ID 0xFFFFFFFFu

#define SIM_EVENT_SINGLE_BIT_ECC 0x1ull
#define SIM_EVENT_DOUBLE_BIT_ECC 0x2ull
#define SIM_EVENT_PSTATE 0x4ull
#define SIM_EVENT_XID_CRITICAL 0x8ull
#define SIM_EVENT_CLOCK 0x10ull

/* version macro = sizeof(struct) | (version << 24) */
#define SIM_VERSION(size, ver) ((unsigned int)(size) | ((unsigned int)(ver) << 24))
#define SIM_MEMORY_V2 SIM_VERSION(40, 2)
#define SIM_GI_PROFILE_INFO_V2 SIM_VERSION(152, 2)
#define SIM_GI_PROFILE_INFO_V3 SIM_VERSION(152, 3)
#define SIM_CI_PROFILE_INFO_V2 SIM_VERSION(136, 2)
#define SIM_CI_PROFILE_INFO_V3 SIM_VERSION(140, 3)
#define SIM_PROCESSES_UTIL_INFO_V1 SIM_VERSION(24, 1)
#define SIM_TEMPERATURE_V1 SIM_VERSION(12, 1)

typedef struct {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

typedef struct {
  unsigned int gpu;
  unsigned int memory;
} nvmlUtilization_t;

typedef struct {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;

typedef struct {
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_v2_t;

typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlProcessInfo_t;

typedef struct {
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil;
  unsigned int memUtil;
  unsigned int encUtil;
  unsigned int decUtil;
} nvmlProcessUtilizationSample_t;

typedef struct {
  unsigned long long timeStamp;
  unsigned int pid;
  unsigned int smUtil;
  unsigned int memUtil;
  unsigned int encUtil;
  unsigned int decUtil;
  unsigned int jpgUtil;
  unsigned int ofaUtil;
} nvmlProcessUtilizationInfo_v1_t;

typedef struct {
  unsigned int version;
  unsigned int processSamplesCount;
  unsigned long long lastSeenTimeStamp;
  nvmlProcessUtilizationInfo_v1_t *procUtilArray;
} nvmlProcessesUtilizationInfo_t;

typedef struct {
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
  unsigned int gpuInstanceSliceCount;
  unsigned int computeInstanceSliceCount;
  unsigned long long memorySizeMB;
} nvmlDeviceAttributes_t;

typedef struct {
  unsigned int start;
  unsigned int size;
} nvmlGpuInstancePlacement_t;

typedef struct {
  unsigned int id;
  unsigned int isP2pSupported;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int copyEngineCount;
  unsigned int decoderCount;
  unsigned int encoderCount;
  unsigned int jpegCount;
  unsigned int ofaCount;
  unsigned long long memorySizeMB;
} nvmlGpuInstanceProfileInfo_t;

typedef struct {
  unsigned int version;
  unsigned int id;
  unsigned int isP2pSupported;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int copyEngineCount;
  unsigned int decoderCount;
  unsigned int encoderCount;
  unsigned int jpegCount;
  unsigned int ofaCount;
  unsigned long long memorySizeMB;
  char name[96];
} nvmlGpuInstanceProfileInfo_v2_t;

typedef struct {
  unsigned int version;
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int copyEngineCount;
  unsigned int decoderCount;
  unsigned int encoderCount;
  unsigned int jpegCount;
  unsigned int ofaCount;
  unsigned long long memorySizeMB;
  char name[96];
  unsigned int capabilities;
} nvmlGpuInstanceProfileInfo_v3_t;

typedef struct {
  nvmlDevice_t device;
  unsigned int id;
  unsigned int profileId;
  nvmlGpuInstancePlacement_t placement;
} nvmlGpuInstanceInfo_t;

typedef struct {
  unsigned int start;
  unsigned int size;
} nvmlComputeInstancePlacement_t;

typedef struct {
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
} nvmlComputeInstanceProfileInfo_t;

typedef struct {
  unsigned int version;
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
  char name[96];
} nvmlComputeInstanceProfileInfo_v2_t;

typedef struct {
  unsigned int version;
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
  char name[96];
  unsigned int capabilities;
} nvmlComputeInstanceProfileInfo_v3_t;

typedef struct {
  nvmlDevice_t device;
  nvmlGpuInstance_t gpuInstance;
  unsigned int id;
  unsigned int profileId;
  nvmlComputeInstancePlacement_t placement;
} nvmlComputeInstanceInfo_t;

typedef struct {
  nvmlDevice_t device;
  unsigned long long eventType;
  unsigned long long eventData;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlEventData_t;

typedef union {
  double dVal;
  int siVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
  unsigned short usVal;
} nvmlValue_t;

typedef struct {
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;
  long long latencyUsec;
  nvmlValueType_t valueType;
  nvmlReturn_t nvmlReturn;
  nvmlValue_t value;
} nvmlFieldValue_t;

typedef struct {
  unsigned int version;
  nvmlTemperatureSensors_t sensorType;
  int temperature;
} nvmlTemperature_t;

typedef struct {
  unsigned int metricId;
  nvmlReturn_t nvmlReturn;
  double value;
  struct {
    char *shortName;
    char *longName;
    char *unit;
  } metricInfo;
} nvmlGpmMetric_t;

typedef struct {
  unsigned int version;
  unsigned int numMetrics;
  nvmlGpmSample_t sample1;
  nvmlGpmSample_t sample2;
  nvmlGpmMetric_t metrics[NVML_GPM_METRIC_MAX];
} nvmlGpmMetricsGet_t;

typedef struct {
  unsigned int version;
  unsigned int isSupportedDevice;
} nvmlGpmSupport_t;

/* Layout checks against nvml-abi.json (x86-64 and arm64 LP64 agree for these structs). */
#define SIM_CHECK(c) _Static_assert(c, #c)
SIM_CHECK(sizeof(nvmlReturn_t) == 4);
SIM_CHECK(sizeof(nvmlDevice_t) == 8);
SIM_CHECK(sizeof(nvmlPciInfo_t) == 68 && offsetof(nvmlPciInfo_t, pciDeviceId) == 28 &&
          offsetof(nvmlPciInfo_t, busId) == 36);
SIM_CHECK(sizeof(nvmlMemory_t) == 24);
SIM_CHECK(sizeof(nvmlMemory_v2_t) == 40 && offsetof(nvmlMemory_v2_t, total) == 8 &&
          offsetof(nvmlMemory_v2_t, used) == 32);
SIM_CHECK(sizeof(nvmlProcessInfo_t) == 24 && offsetof(nvmlProcessInfo_t, usedGpuMemory) == 8 &&
          offsetof(nvmlProcessInfo_t, computeInstanceId) == 20);
SIM_CHECK(sizeof(nvmlProcessUtilizationSample_t) == 32 &&
          offsetof(nvmlProcessUtilizationSample_t, smUtil) == 16);
SIM_CHECK(sizeof(nvmlProcessUtilizationInfo_v1_t) == 40 &&
          offsetof(nvmlProcessUtilizationInfo_v1_t, ofaUtil) == 32);
SIM_CHECK(sizeof(nvmlProcessesUtilizationInfo_t) == 24 &&
          offsetof(nvmlProcessesUtilizationInfo_t, procUtilArray) == 16);
SIM_CHECK(sizeof(nvmlDeviceAttributes_t) == 40 && offsetof(nvmlDeviceAttributes_t, memorySizeMB) == 32);
SIM_CHECK(sizeof(nvmlGpuInstanceProfileInfo_t) == 48 &&
          offsetof(nvmlGpuInstanceProfileInfo_t, memorySizeMB) == 40);
SIM_CHECK(sizeof(nvmlGpuInstanceProfileInfo_v2_t) == 152 &&
          offsetof(nvmlGpuInstanceProfileInfo_v2_t, memorySizeMB) == 48 &&
          offsetof(nvmlGpuInstanceProfileInfo_v2_t, name) == 56);
SIM_CHECK(sizeof(nvmlGpuInstanceProfileInfo_v3_t) == 152 &&
          offsetof(nvmlGpuInstanceProfileInfo_v3_t, memorySizeMB) == 40 &&
          offsetof(nvmlGpuInstanceProfileInfo_v3_t, name) == 48 &&
          offsetof(nvmlGpuInstanceProfileInfo_v3_t, capabilities) == 144);
SIM_CHECK(sizeof(nvmlGpuInstanceInfo_t) == 24 && offsetof(nvmlGpuInstanceInfo_t, placement) == 16);
SIM_CHECK(sizeof(nvmlComputeInstanceProfileInfo_t) == 36);
SIM_CHECK(sizeof(nvmlComputeInstanceProfileInfo_v2_t) == 136 &&
          offsetof(nvmlComputeInstanceProfileInfo_v2_t, name) == 40);
SIM_CHECK(sizeof(nvmlComputeInstanceProfileInfo_v3_t) == 140 &&
          offsetof(nvmlComputeInstanceProfileInfo_v3_t, capabilities) == 136);
SIM_CHECK(sizeof(nvmlComputeInstanceInfo_t) == 32 && offsetof(nvmlComputeInstanceInfo_t, placement) == 24);
SIM_CHECK(sizeof(nvmlEventData_t) == 32 && offsetof(nvmlEventData_t, gpuInstanceId) == 24);
SIM_CHECK(sizeof(nvmlFieldValue_t) == 40 && offsetof(nvmlFieldValue_t, nvmlReturn) == 28 &&
          offsetof(nvmlFieldValue_t, value) == 32);
SIM_CHECK(sizeof(nvmlTemperature_t) == 12);
SIM_CHECK(sizeof(nvmlGpmMetric_t) == 40);
SIM_CHECK(sizeof(nvmlGpmMetricsGet_t) == 13344 && offsetof(nvmlGpmMetricsGet_t, metrics) == 24);
SIM_CHECK(sizeof(nvmlGpmSupport_t) == 8);

#endif
