/* Initialisation, system queries, enumeration and identity. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim.h"

#define SIM_DRIVER_VERSION "580.95.05"
#define SIM_NVML_VERSION "13.580.95.05"
#define SIM_CUDA_VERSION 13000

SIM_API nvmlReturn_t nvmlInit_v2(void) { return sim_do_init(0, FN_nvmlInit_v2); }

SIM_API nvmlReturn_t nvmlInitWithFlags(unsigned int flags) {
  return sim_do_init(flags, FN_nvmlInitWithFlags);
}

SIM_API nvmlReturn_t nvmlShutdown(void) { return sim_do_shutdown(); }

SIM_API const char *nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_ALREADY_INITIALIZED: return "Already Initialized";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_INSUFFICIENT_POWER: return "Insufficient External Power";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_TIMEOUT: return "Timeout";
    case NVML_ERROR_IRQ_ISSUE: return "Interrupt Request Issue";
    case NVML_ERROR_LIBRARY_NOT_FOUND: return "Library Not Found";
    case NVML_ERROR_FUNCTION_NOT_FOUND: return "Function Not Found";
    case NVML_ERROR_CORRUPTED_INFOROM: return "Corrupted infoROM";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    case NVML_ERROR_RESET_REQUIRED: return "GPU requires reset";
    case NVML_ERROR_OPERATING_SYSTEM: return "GPU access blocked by the operating system";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH: return "Driver/library version mismatch";
    case NVML_ERROR_IN_USE: return "In use by another client";
    case NVML_ERROR_MEMORY: return "Insufficient Memory";
    case NVML_ERROR_NO_DATA: return "No data";
    case NVML_ERROR_VGPU_ECC_NOT_SUPPORTED: return "vGPU ECC not supported";
    case NVML_ERROR_INSUFFICIENT_RESOURCES: return "Insufficient resources";
    case NVML_ERROR_FREQ_NOT_SUPPORTED: return "Frequency not supported";
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH: return "Argument version mismatch";
    case NVML_ERROR_DEPRECATED: return "Deprecated";
    case NVML_ERROR_NOT_READY: return "Not ready";
    case NVML_ERROR_GPU_NOT_FOUND: return "GPU not found";
    case NVML_ERROR_INVALID_STATE: return "Invalid state";
    case NVML_ERROR_RESET_TYPE_NOT_SUPPORTED: return "Reset type not supported";
    default: return "Unknown Error";
  }
}

static nvmlReturn_t copy_const(char *dst, unsigned len, const char *s) { return sim_copy_string(dst, len, s); }

SIM_API nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
  API_CALL(nvmlSystemGetDriverVersion, SIM_READ, copy_const(version, length, SIM_DRIVER_VERSION));
}

SIM_API nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
  API_CALL(nvmlSystemGetNVMLVersion, SIM_READ | SIM_NOINIT, copy_const(version, length, SIM_NVML_VERSION));
}

static nvmlReturn_t cuda_version(int *out) {
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *out = SIM_CUDA_VERSION;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion) {
  API_CALL(nvmlSystemGetCudaDriverVersion, SIM_READ, cuda_version(cudaDriverVersion));
}

SIM_API nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion) {
  API_CALL(nvmlSystemGetCudaDriverVersion_v2, SIM_READ, cuda_version(cudaDriverVersion));
}

static nvmlReturn_t process_name(struct sim_ctx *c, unsigned pid, char *name, unsigned length) {
  if (name == NULL || length == 0) return NVML_ERROR_INVALID_ARGUMENT;
  const char *recorded = NULL;
  for (unsigned i = 0; i < c->st->nprocs && recorded == NULL; i++)
    if (c->st->procs[i].pid == pid && c->st->procs[i].name[0] != '\0') recorded = c->st->procs[i].name;
  char comm[64] = "";
  if (recorded == NULL) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%u/comm", pid);
    FILE *f = fopen(path, "re");
    if (f == NULL) return NVML_ERROR_NOT_FOUND;
    if (fgets(comm, sizeof(comm), f) == NULL) comm[0] = '\0';
    fclose(f);
    comm[strcspn(comm, "\n")] = '\0';
    recorded = comm;
  }
  size_t n = strlen(recorded);
  if (n >= length) n = length - 1;
  memcpy(name, recorded, n);
  name[n] = '\0';
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int length) {
  API_CALL(nvmlSystemGetProcessName, SIM_READ, process_name(&ctx_, pid, name, length));
}

static nvmlReturn_t device_count(struct sim_ctx *c, unsigned *out) {
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *out = c->st->ngpus;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount) {
  API_CALL(nvmlDeviceGetCount_v2, SIM_READ, device_count(&ctx_, deviceCount));
}

static nvmlReturn_t handle_by_index(struct sim_ctx *c, unsigned index, nvmlDevice_t *out) {
  if (out == NULL || index >= c->st->ngpus) return NVML_ERROR_INVALID_ARGUMENT;
  *out = sim_gpu_handle(c->st, index);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
  API_CALL_GPU(nvmlDeviceGetHandleByIndex_v2, SIM_READ, index, handle_by_index(&ctx_, index, device));
}

static nvmlReturn_t handle_by_uuid(struct sim_ctx *c, const char *uuid, nvmlDevice_t *out) {
  if (uuid == NULL || out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  struct sim_state *st = c->st;
  for (unsigned i = 0; i < st->ngpus; i++) {
    char u[SIM_UUID_LEN];
    sim_gpu_uuid(st, i, u);
    if (strcasecmp(u, uuid) == 0) {
      *out = sim_gpu_handle(st, i);
      return NVML_SUCCESS;
    }
    struct sim_gpu *g = &st->gpu[i];
    for (unsigned j = 0; j < g->ngi; j++)
      for (unsigned k = 0; k < g->gi[j].nci; k++)
        if (strcasecmp(g->gi[j].ci[k].uuid, uuid) == 0) {
          *out = sim_mig_handle(i, &g->gi[j], &g->gi[j].ci[k]);
          return NVML_SUCCESS;
        }
  }
  return NVML_ERROR_NOT_FOUND;
}

SIM_API nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device) {
  API_CALL(nvmlDeviceGetHandleByUUID, SIM_READ, handle_by_uuid(&ctx_, uuid, device));
}

static int parse_hex(const char *s, size_t len, unsigned *out) {
  if (len == 0 || len > 8) return -1;
  unsigned v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isxdigit((unsigned char)s[i])) return -1;
    int c = tolower((unsigned char)s[i]);
    v = v * 16u + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
  }
  *out = v;
  return 0;
}

/* Accepts domain:bus:device.function, domain:bus:device and bus:device.function (hex). */
static int parse_bus_id(const char *s, unsigned *domain, unsigned *bus, unsigned *dev, unsigned *fn) {
  const char *parts[3];
  size_t lens[3];
  unsigned n = 0;
  for (const char *p = s;;) {
    const char *colon = strchr(p, ':');
    if (n == 3) return -1;
    parts[n] = p;
    lens[n] = colon ? (size_t)(colon - p) : strlen(p);
    n++;
    if (colon == NULL) break;
    p = colon + 1;
  }
  if (n < 2) return -1;
  *domain = 0;
  *fn = 0;
  const char *last = parts[n - 1];
  size_t last_len = lens[n - 1];
  const char *dot = memchr(last, '.', last_len);
  size_t dev_len = dot ? (size_t)(dot - last) : last_len;
  if (n == 3) {
    if (parse_hex(parts[0], lens[0], domain) || parse_hex(parts[1], lens[1], bus)) return -1;
  } else {
    if (dot == NULL || parse_hex(parts[0], lens[0], bus)) return -1;
  }
  if (parse_hex(last, dev_len, dev)) return -1;
  if (dot != NULL && parse_hex(dot + 1, last_len - dev_len - 1, fn)) return -1;
  return 0;
}

static nvmlReturn_t handle_by_pci(struct sim_ctx *c, const char *bus_id, nvmlDevice_t *out) {
  if (bus_id == NULL || out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned domain, bus, dev, fn;
  if (parse_bus_id(bus_id, &domain, &bus, &dev, &fn) != 0) return NVML_ERROR_INVALID_ARGUMENT;
  for (unsigned i = 0; i < c->st->ngpus; i++)
    if (domain == 0 && bus == sim_pci_bus(i) && dev == 0 && fn == 0) {
      *out = sim_gpu_handle(c->st, i);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_NOT_FOUND;
}

SIM_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device) {
  API_CALL(nvmlDeviceGetHandleByPciBusId_v2, SIM_READ, handle_by_pci(&ctx_, pciBusId, device));
}

static nvmlReturn_t device_index(struct sim_ctx *c, nvmlDevice_t d, unsigned *out) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *out = r.kind == HK_MIG ? (unsigned)sim_mig_index(r.gpu, r.gi, r.ci) : r.idx;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index) {
  API_CALL_ON(nvmlDeviceGetIndex, SIM_READ, device, device_index(&ctx_, device, index));
}

static nvmlReturn_t device_uuid(struct sim_ctx *c, nvmlDevice_t d, char *out, unsigned len) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  char u[SIM_UUID_LEN];
  if (r.kind == HK_MIG) snprintf(u, sizeof(u), "%s", r.ci->uuid);
  else sim_gpu_uuid(c->st, r.idx, u);
  return sim_copy_string(out, len, u);
}

SIM_API nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
  API_CALL_ON(nvmlDeviceGetUUID, SIM_READ, device, device_uuid(&ctx_, device, uuid, length));
}

static nvmlReturn_t device_name(struct sim_ctx *c, nvmlDevice_t d, char *out, unsigned len) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
  if (r.kind == HK_MIG) {
    char prof[48];
    sim_mig_profile_name(r.gpu, r.gi, r.ci, prof, sizeof(prof));
    snprintf(name, sizeof(name), "%.60s MIG %.30s", r.gpu->model->name, prof);
  } else {
    snprintf(name, sizeof(name), "%s", r.gpu->model->name);
  }
  return sim_copy_string(out, len, name);
}

SIM_API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
  API_CALL_ON(nvmlDeviceGetName, SIM_READ, device, device_name(&ctx_, device, name, length));
}

static nvmlReturn_t pci_info(struct sim_ctx *c, nvmlDevice_t d, nvmlPciInfo_t *pci) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (pci == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  memset(pci, 0, sizeof(*pci));
  unsigned bus = sim_pci_bus(r.idx);
  snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), "%04X:%02X:%02X.0", 0u, bus, 0u);
  snprintf(pci->busId, sizeof(pci->busId), "%08X:%02X:%02X.0", 0u, bus, 0u);
  pci->domain = 0;
  pci->bus = bus;
  pci->device = 0;
  pci->pciDeviceId = r.gpu->model->pci;
  pci->pciSubSystemId = r.gpu->model->pci ^ 0x80000000u;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
  API_CALL_ON(nvmlDeviceGetPciInfo_v3, SIM_READ, device, pci_info(&ctx_, device, pci));
}

enum dev_uint_query { Q_MINOR, Q_ARCH, Q_BRAND, Q_PERSISTENCE };

static nvmlReturn_t device_uint(struct sim_ctx *c, nvmlDevice_t d, enum dev_uint_query q, unsigned *out) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  switch (q) {
    case Q_MINOR: *out = r.gpu->minor; break;
    case Q_ARCH: *out = r.gpu->model->arch; break;
    /* Current drivers report NVML_BRAND_NVIDIA for data-center GPUs (nvidia-smi "Product Brand :
       NVIDIA" for T4 on 530, A100, H100 on 550/560), and NVIDIA for every model simulated. */
    case Q_BRAND: *out = NVML_BRAND_NVIDIA; break;
    case Q_PERSISTENCE: *out = NVML_FEATURE_ENABLED; break;
  }
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minorNumber) {
  API_CALL_ON(nvmlDeviceGetMinorNumber, SIM_READ, device, device_uint(&ctx_, device, Q_MINOR, minorNumber));
}

SIM_API nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t device, nvmlDeviceArchitecture_t *arch) {
  API_CALL_ON(nvmlDeviceGetArchitecture, SIM_READ, device, device_uint(&ctx_, device, Q_ARCH, arch));
}

SIM_API nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t device, nvmlBrandType_t *type) {
  API_CALL_ON(nvmlDeviceGetBrand, SIM_READ, device, device_uint(&ctx_, device, Q_BRAND, (unsigned *)(void *)type));
}

SIM_API nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, nvmlEnableState_t *mode) {
  API_CALL_ON(nvmlDeviceGetPersistenceMode, SIM_READ, device,
           device_uint(&ctx_, device, Q_PERSISTENCE, (unsigned *)(void *)mode));
}

static nvmlReturn_t compute_capability(struct sim_ctx *c, nvmlDevice_t d, int *major, int *minor) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (major == NULL || minor == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *major = r.gpu->model->cc_major;
  *minor = r.gpu->model->cc_minor;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor) {
  API_CALL_ON(nvmlDeviceGetCudaComputeCapability, SIM_READ, device, compute_capability(&ctx_, device, major, minor));
}
