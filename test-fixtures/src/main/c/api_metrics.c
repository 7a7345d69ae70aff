/* Memory, utilisation, processes, power, temperature, field values and compute mode. */
#include <string.h>

#include "sim.h"

#define MIB (1024ull * 1024ull)

static nvmlReturn_t memory_numbers(struct sim_ctx *c, nvmlDevice_t d, unsigned long long *total,
                                   unsigned long long *used, unsigned long long *reserved) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (r.kind == HK_MIG) {
    const struct sim_gi_profile *gp = sim_gi_profile_of(r.gpu, r.gi);
    *total = (gp ? gp->mem_mib : 0) * MIB;
    *used = sim_used_mib(c->st, r.idx, r.gi->id) * MIB;
    *reserved = 0;
  } else {
    *total = r.gpu->model->mem_mib * MIB;
    *used = sim_used_mib(c->st, r.idx, SIM_INVALID_ID) * MIB;
    *reserved = (r.gpu->model->mem_mib / 128u) * MIB;
  }
  if (*used > *total) *used = *total;
  return NVML_SUCCESS;
}

static nvmlReturn_t memory_v1(struct sim_ctx *c, nvmlDevice_t d, nvmlMemory_t *m) {
  unsigned long long total, used, reserved;
  nvmlReturn_t rc = memory_numbers(c, d, &total, &used, &reserved);
  if (rc != NVML_SUCCESS) return rc;
  if (m == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  m->total = total;
  m->used = used;
  m->free = total - used;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
  API_CALL_ON(nvmlDeviceGetMemoryInfo, SIM_READ, device, memory_v1(&ctx_, device, memory));
}

static nvmlReturn_t memory_v2(struct sim_ctx *c, nvmlDevice_t d, nvmlMemory_v2_t *m) {
  unsigned long long total, used, reserved;
  nvmlReturn_t rc = memory_numbers(c, d, &total, &used, &reserved);
  if (rc != NVML_SUCCESS) return rc;
  if (m == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (m->version != SIM_MEMORY_V2) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (used + reserved > total) reserved = total - used;
  m->total = total;
  m->reserved = reserved;
  m->used = used + reserved;
  m->free = total - m->used;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
  API_CALL_ON(nvmlDeviceGetMemoryInfo_v2, SIM_READ, device, memory_v2(&ctx_, device, memory));
}

/* Resolves a physical GPU with MIG off (utilisation calls are not supported otherwise). */
static nvmlReturn_t whole_gpu(struct sim_ctx *c, nvmlDevice_t d, struct sim_ref *r) {
  nvmlReturn_t rc = sim_resolve_device(c->st, d, r);
  if (rc != NVML_SUCCESS) return rc;
  if (r->kind == HK_MIG || r->gpu->mig_current == NVML_DEVICE_MIG_ENABLE) return NVML_ERROR_NOT_SUPPORTED;
  return NVML_SUCCESS;
}

static nvmlReturn_t utilization_rates(struct sim_ctx *c, nvmlDevice_t d, nvmlUtilization_t *u) {
  struct sim_ref r;
  nvmlReturn_t rc = whole_gpu(c, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (u == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned busy = sim_util_percent(sim_count_procs(c->st, r.idx, SIM_INVALID_ID, SIM_INVALID_ID, 0));
  u->gpu = busy;
  u->memory = busy / 2u;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) {
  API_CALL_ON(nvmlDeviceGetUtilizationRates, SIM_READ, device, utilization_rates(&ctx_, device, utilization));
}

static nvmlReturn_t running_processes(struct sim_ctx *c, nvmlDevice_t d, unsigned *count,
                                      nvmlProcessInfo_t *infos, int mps) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (mps) {
    *count = 0;
    return NVML_SUCCESS;
  }
  unsigned gi = SIM_INVALID_ID, ci = SIM_INVALID_ID;
  if (r.kind == HK_MIG) {
    gi = r.gi->id;
    ci = r.ci->id;
  }
  unsigned n = sim_count_procs(c->st, r.idx, gi, ci, 0);
  if (*count < n) {
    *count = n;
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  if (n > 0 && infos == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned k = 0;
  for (unsigned i = 0; i < c->st->nprocs && k < n; i++) {
    const struct sim_proc *p = &c->st->procs[i];
    if (p->gpu != r.idx || p->holder) continue;
    if (gi != SIM_INVALID_ID && (p->gi != gi || p->ci != ci)) continue;
    memset(&infos[k], 0, sizeof(infos[k]));
    infos[k].pid = p->pid;
    infos[k].usedGpuMemory = p->mem_mib * MIB;
    infos[k].gpuInstanceId = p->gi;
    infos[k].computeInstanceId = p->ci;
    k++;
  }
  *count = n;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount,
                                                             nvmlProcessInfo_t *infos) {
  API_CALL_ON(nvmlDeviceGetComputeRunningProcesses_v3, SIM_READ, device,
           running_processes(&ctx_, device, infoCount, infos, 0));
}

SIM_API nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount,
                                                                nvmlProcessInfo_t *infos) {
  API_CALL_ON(nvmlDeviceGetMPSComputeRunningProcesses_v3, SIM_READ, device,
           running_processes(&ctx_, device, infoCount, infos, 1));
}

/* Per-process samples: every compute process gets an equal share of the GPU's busy value. */
struct proc_sample {
  unsigned pid, sm, mem;
};

static nvmlReturn_t process_samples(struct sim_ctx *c, nvmlDevice_t d, unsigned long long last_seen,
                                    struct proc_sample *out, unsigned *n, unsigned long long *now) {
  struct sim_ref r;
  nvmlReturn_t rc = whole_gpu(c, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  unsigned total = sim_count_procs(c->st, r.idx, SIM_INVALID_ID, SIM_INVALID_ID, 0);
  *now = sim_now_us();
  *n = 0;
  if (total == 0 || last_seen >= *now) return NVML_ERROR_NOT_FOUND;
  unsigned share = sim_util_percent(total) / total;
  for (unsigned i = 0; i < c->st->nprocs && *n < SIM_MAX_PROCS; i++) {
    const struct sim_proc *p = &c->st->procs[i];
    if (p->gpu != r.idx || p->holder) continue;
    out[*n].pid = p->pid;
    out[*n].sm = share;
    out[*n].mem = share / 2u;
    (*n)++;
  }
  return NVML_SUCCESS;
}

static nvmlReturn_t process_utilization(struct sim_ctx *c, nvmlDevice_t d, nvmlProcessUtilizationSample_t *u,
                                        unsigned *count, unsigned long long last_seen) {
  static struct proc_sample s[SIM_MAX_PROCS];
  unsigned n;
  unsigned long long now;
  if (count == NULL) {
    struct sim_ref r;
    nvmlReturn_t rc = whole_gpu(c, d, &r);
    return rc != NVML_SUCCESS ? rc : NVML_ERROR_INVALID_ARGUMENT;
  }
  nvmlReturn_t rc = process_samples(c, d, last_seen, s, &n, &now);
  if (rc != NVML_SUCCESS) return rc;
  if (u == NULL || *count < n) {
    *count = n;
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  for (unsigned i = 0; i < n; i++) {
    memset(&u[i], 0, sizeof(u[i]));
    u[i].pid = s[i].pid;
    u[i].timeStamp = now;
    u[i].smUtil = s[i].sm;
    u[i].memUtil = s[i].mem;
  }
  *count = n;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device, nvmlProcessUtilizationSample_t *utilization,
                                                     unsigned int *processSamplesCount,
                                                     unsigned long long lastSeenTimeStamp) {
  API_CALL_ON(nvmlDeviceGetProcessUtilization, SIM_READ, device,
           process_utilization(&ctx_, device, utilization, processSamplesCount, lastSeenTimeStamp));
}

static nvmlReturn_t processes_utilization_info(struct sim_ctx *c, nvmlDevice_t d,
                                               nvmlProcessesUtilizationInfo_t *info) {
  static struct proc_sample s[SIM_MAX_PROCS];
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (info == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (info->version != SIM_PROCESSES_UTIL_INFO_V1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  unsigned n;
  unsigned long long now;
  rc = process_samples(c, d, info->lastSeenTimeStamp, s, &n, &now);
  if (rc != NVML_SUCCESS) return rc;
  if (info->procUtilArray == NULL || info->processSamplesCount < n) {
    info->processSamplesCount = n;
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  for (unsigned i = 0; i < n; i++) {
    nvmlProcessUtilizationInfo_v1_t *e = &info->procUtilArray[i];
    memset(e, 0, sizeof(*e));
    e->timeStamp = now;
    e->pid = s[i].pid;
    e->smUtil = s[i].sm;
    e->memUtil = s[i].mem;
  }
  info->processSamplesCount = n;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetProcessesUtilizationInfo(nvmlDevice_t device,
                                                           nvmlProcessesUtilizationInfo_t *procesesUtilInfo) {
  API_CALL_ON(nvmlDeviceGetProcessesUtilizationInfo, SIM_READ, device,
           processes_utilization_info(&ctx_, device, procesesUtilInfo));
}

/* Busy value of the whole board (all compute processes, MIG or not). */
static unsigned board_busy(const struct sim_state *st, unsigned idx) {
  return sim_util_percent(sim_count_procs(st, idx, SIM_INVALID_ID, SIM_INVALID_ID, 0));
}

static nvmlReturn_t power_usage(struct sim_ctx *c, nvmlDevice_t d, unsigned *mw) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (r.kind == HK_MIG) return NVML_ERROR_NOT_SUPPORTED;
  if (mw == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned sm = r.gpu->model->sm;
  *mw = 20000u + 300u * sm + 25u * sm * board_busy(c->st, r.idx);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) {
  API_CALL_ON(nvmlDeviceGetPowerUsage, SIM_READ, device, power_usage(&ctx_, device, power));
}

static nvmlReturn_t temperature(struct sim_ctx *c, nvmlDevice_t d, unsigned sensor, int *out) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL || sensor != NVML_TEMPERATURE_GPU) return NVML_ERROR_INVALID_ARGUMENT;
  *out = 30 + (int)(r.idx % 4u) + (int)(board_busy(c->st, r.idx) * 40u / 100u);
  return NVML_SUCCESS;
}

static nvmlReturn_t temperature_v1(struct sim_ctx *c, nvmlDevice_t d, nvmlTemperature_t *t) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (t == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (t->version != SIM_TEMPERATURE_V1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  return temperature(c, d, (unsigned)t->sensorType, &t->temperature);
}

SIM_API nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t device, nvmlTemperature_t *temp) {
  API_CALL_ON(nvmlDeviceGetTemperatureV, SIM_READ, device, temperature_v1(&ctx_, device, temp));
}

static nvmlReturn_t temperature_old(struct sim_ctx *c, nvmlDevice_t d, unsigned sensor, unsigned *out) {
  int v = 0;
  if (out == NULL) {
    struct sim_ref r;
    nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
    return rc != NVML_SUCCESS ? rc : NVML_ERROR_INVALID_ARGUMENT;
  }
  nvmlReturn_t rc = temperature(c, d, sensor, &v);
  if (rc == NVML_SUCCESS) *out = (unsigned)v;
  return rc;
}

SIM_API nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType,
                                              unsigned int *temp) {
  API_CALL_ON(nvmlDeviceGetTemperature, SIM_READ, device, temperature_old(&ctx_, device, (unsigned)sensorType, temp));
}

static nvmlReturn_t field_values(struct sim_ctx *c, nvmlDevice_t d, int count, nvmlFieldValue_t *v) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (count < 0 || (count > 0 && v == NULL)) return NVML_ERROR_INVALID_ARGUMENT;
  const struct sim_model *m = r.gpu->model;
  long long now = (long long)sim_now_us();
  for (int i = 0; i < count; i++) {
    nvmlFieldValue_t *f = &v[i];
    f->timestamp = now;
    f->latencyUsec = 0;
    memset(&f->value, 0, sizeof(f->value));
    f->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
    f->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
    if (!m->mig) continue;
    if (f->fieldId == NVML_FI_DEV_IS_RESETLESS_MIG_SUPPORTED) {
      f->value.uiVal = m->arch >= 9u ? 1u : 0u;
      f->nvmlReturn = NVML_SUCCESS;
    } else if (f->fieldId == NVML_FI_DEV_IS_MIG_MODE_INDEPENDENT_MIG_QUERY_CAPABLE) {
      f->value.uiVal = 1u;
      f->nvmlReturn = NVML_SUCCESS;
    }
  }
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values) {
  API_CALL_ON(nvmlDeviceGetFieldValues, SIM_READ, device, field_values(&ctx_, device, valuesCount, values));
}

static nvmlReturn_t get_compute_mode(struct sim_ctx *c, nvmlDevice_t d, nvmlComputeMode_t *mode) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (mode == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *mode = (nvmlComputeMode_t)(r.kind == HK_MIG ? r.ci->compute_mode : r.gpu->compute_mode);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device, nvmlComputeMode_t *mode) {
  API_CALL_ON(nvmlDeviceGetComputeMode, SIM_READ, device, get_compute_mode(&ctx_, device, mode));
}

static nvmlReturn_t set_compute_mode(struct sim_ctx *c, nvmlDevice_t d, unsigned mode) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (mode >= NVML_COMPUTEMODE_COUNT) return NVML_ERROR_INVALID_ARGUMENT;
  if (mode == NVML_COMPUTEMODE_EXCLUSIVE_THREAD) return NVML_ERROR_NOT_SUPPORTED;
  if (r.kind == HK_MIG) {
    r.ci->compute_mode = mode;
  } else {
    if (r.gpu->mig_current == NVML_DEVICE_MIG_ENABLE) return NVML_ERROR_NOT_SUPPORTED;
    r.gpu->compute_mode = mode;
  }
  c->dirty = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceSetComputeMode(nvmlDevice_t device, nvmlComputeMode_t mode) {
  API_CALL_ON(nvmlDeviceSetComputeMode, SIM_WRITE | SIM_CHANGES, device, set_compute_mode(&ctx_, device, (unsigned)mode));
}
