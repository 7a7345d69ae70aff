/*
 * GPU performance monitoring (Hopper and newer). Samples are malloc'd and registered; a sample
 * pointer is only dereferenced after it was found in the registry.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define GPM_MAGIC 0x47504D53u

enum gpm_scope { GPM_GPU, GPM_MIG_DEVICE, GPM_GPU_INSTANCE };

struct gpm_sample {
  unsigned magic;
  struct gpm_sample *next;
  int filled;
  enum gpm_scope scope;
  unsigned idx, gi, ci;
  unsigned long long ts_us;
  unsigned nprocs;
};

static struct gpm_sample *samples;

void sim_gpm_clear(void) {
  while (samples != NULL) {
    struct gpm_sample *n = samples->next;
    free(samples);
    samples = n;
  }
}

static struct gpm_sample *sample_of(nvmlGpmSample_t s) {
  for (struct gpm_sample *p = samples; p != NULL; p = p->next)
    if ((void *)p == (void *)s) return p;
  return NULL;
}

static int gpm_capable(const struct sim_gpu *g) { return g->model->arch >= 9u; }

static nvmlReturn_t query_support(struct sim_ctx *c, nvmlDevice_t d, nvmlGpmSupport_t *s) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (s == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (s->version != NVML_GPM_SUPPORT_VERSION) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  s->isSupportedDevice = gpm_capable(r.gpu) ? 1u : 0u;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t device, nvmlGpmSupport_t *gpmSupport) {
  API_CALL_ON(nvmlGpmQueryDeviceSupport, SIM_READ, device, query_support(&ctx_, device, gpmSupport));
}

static nvmlReturn_t sample_alloc(nvmlGpmSample_t *out) {
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  struct gpm_sample *s = calloc(1, sizeof(*s));
  if (s == NULL) return NVML_ERROR_MEMORY;
  s->magic = GPM_MAGIC;
  s->next = samples;
  samples = s;
  *out = (nvmlGpmSample_t)(void *)s;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpmSampleAlloc(nvmlGpmSample_t *gpmSample) {
  API_CALL(nvmlGpmSampleAlloc, SIM_READ, sample_alloc(gpmSample));
}

static nvmlReturn_t sample_free(nvmlGpmSample_t s) {
  for (struct gpm_sample **pp = &samples; *pp != NULL; pp = &(*pp)->next)
    if ((void *)*pp == (void *)s) {
      struct gpm_sample *p = *pp;
      *pp = p->next;
      free(p);
      return NVML_SUCCESS;
    }
  return NVML_ERROR_INVALID_ARGUMENT;
}

SIM_API nvmlReturn_t nvmlGpmSampleFree(nvmlGpmSample_t gpmSample) {
  API_CALL(nvmlGpmSampleFree, SIM_READ, sample_free(gpmSample));
}

static nvmlReturn_t sample_get(struct sim_ctx *c, nvmlDevice_t d, nvmlGpmSample_t h) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  struct gpm_sample *s = sample_of(h);
  if (s == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpm_capable(r.gpu)) return NVML_ERROR_NOT_SUPPORTED;
  s->idx = r.idx;
  if (r.kind == HK_MIG) {
    s->scope = GPM_MIG_DEVICE;
    s->gi = r.gi->id;
    s->ci = r.ci->id;
  } else {
    s->scope = GPM_GPU;
    s->gi = s->ci = SIM_INVALID_ID;
  }
  s->nprocs = sim_count_procs(c->st, r.idx, s->gi, s->ci, 0);
  s->ts_us = sim_now_us();
  s->filled = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t device, nvmlGpmSample_t gpmSample) {
  API_CALL_ON(nvmlGpmSampleGet, SIM_READ, device, sample_get(&ctx_, device, gpmSample));
}

static nvmlReturn_t mig_sample_get(struct sim_ctx *c, nvmlDevice_t d, unsigned gi_id, nvmlGpmSample_t h) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_gpu(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  struct gpm_sample *s = sample_of(h);
  if (s == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (!gpm_capable(r.gpu) || r.gpu->mig_current != NVML_DEVICE_MIG_ENABLE) return NVML_ERROR_NOT_SUPPORTED;
  if (sim_gi_find(r.gpu, gi_id) == NULL) return NVML_ERROR_NOT_FOUND;
  s->idx = r.idx;
  s->scope = GPM_GPU_INSTANCE;
  s->gi = gi_id;
  s->ci = SIM_INVALID_ID;
  s->nprocs = sim_count_procs(c->st, r.idx, gi_id, SIM_INVALID_ID, 0);
  s->ts_us = sim_now_us();
  s->filled = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpmMigSampleGet(nvmlDevice_t device, unsigned int gpuInstanceId, nvmlGpmSample_t gpmSample) {
  API_CALL_ON(nvmlGpmMigSampleGet, SIM_READ, device, mig_sample_get(&ctx_, device, gpuInstanceId, gpmSample));
}

static int metric_known(unsigned id) {
  return (id >= 1 && id <= 13) || id == 20 || id == 21 || (id >= 30 && id <= 37) || (id >= 40 && id <= 47) ||
         id == 50 || id == 51 || (id >= 60 && id <= 97) || (id >= 100 && id <= 209) ||
         (id >= 212 && id < NVML_GPM_METRIC_MAX);
}

/* Value of a metric for a scope whose busy percentage is util and process count n. */
static double metric_value(unsigned id, double util, unsigned n, const char **name, const char **unit) {
  *name = NULL;
  *unit = "%";
  switch (id) {
    case 1: *name = "GR_UTIL"; return util;
    case 2: *name = "SM_UTIL"; return util;
    case 3: *name = "SM_OCCUPANCY"; return util * 0.6;
    case 4: *name = "INTEGER_UTIL"; return util * 0.2;
    case 5: *name = "ANY_TENSOR_UTIL"; return util * 0.5;
    case 6: *name = "DFMA_TENSOR_UTIL"; return util * 0.25;
    case 7: *name = "HMMA_TENSOR_UTIL"; return util * 0.25;
    case 8: *name = "DMMA_TENSOR_UTIL"; return util * 0.25;
    case 9: *name = "IMMA_TENSOR_UTIL"; return util * 0.25;
    case 10: *name = "DRAM_BW_UTIL"; return util * 0.4;
    case 11: *name = "FP64_UTIL"; return util * 0.3;
    case 12: *name = "FP32_UTIL"; return util * 0.3;
    case 13: *name = "FP16_UTIL"; return util * 0.3;
    case 20: *name = "PCIE_TX"; *unit = "MiB/sec"; return 100.0 * n;
    case 21: *name = "PCIE_RX"; *unit = "MiB/sec"; return 100.0 * n;
    default: *unit = NULL; return 0.0;
  }
}

static nvmlReturn_t metrics_get(nvmlGpmMetricsGet_t *m) {
  if (m == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (m->version != NVML_GPM_METRICS_GET_VERSION) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (m->numMetrics > NVML_GPM_METRIC_MAX) return NVML_ERROR_INVALID_ARGUMENT;
  struct gpm_sample *a = sample_of(m->sample1), *b = sample_of(m->sample2);
  if (a == NULL || b == NULL || !a->filled || !b->filled || a->idx != b->idx || a->scope != b->scope ||
      a->gi != b->gi || a->ci != b->ci)
    return NVML_ERROR_INVALID_ARGUMENT;
  double util = (double)sim_util_percent(b->nprocs);
  for (unsigned i = 0; i < m->numMetrics; i++) {
    nvmlGpmMetric_t *x = &m->metrics[i];
    const char *name, *unit;
    x->value = 0.0;
    x->metricInfo.shortName = x->metricInfo.longName = x->metricInfo.unit = NULL;
    if (!metric_known(x->metricId)) {
      x->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
      continue;
    }
    x->value = metric_value(x->metricId, util, b->nprocs, &name, &unit);
    x->metricInfo.shortName = (char *)(uintptr_t)name;
    x->metricInfo.longName = (char *)(uintptr_t)name;
    x->metricInfo.unit = (char *)(uintptr_t)unit;
    x->nvmlReturn = NVML_SUCCESS;
  }
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpmMetricsGet(nvmlGpmMetricsGet_t *metricsGet) {
  API_CALL(nvmlGpmMetricsGet, SIM_READ, metrics_get(metricsGet));
}
