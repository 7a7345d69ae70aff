/* MIG mode and GPU instances. */
#include <stdio.h>
#include <string.h>

#include "sim.h"

/* A physical GPU handle of a MIG-capable model. */
static nvmlReturn_t mig_gpu(struct sim_ctx *c, nvmlDevice_t d, struct sim_ref *r) {
  nvmlReturn_t rc = sim_resolve_gpu(c->st, d, r);
  if (rc != NVML_SUCCESS) return rc;
  return r->gpu->model->mig ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

static nvmlReturn_t get_mig_mode(struct sim_ctx *c, nvmlDevice_t d, unsigned *cur, unsigned *pend) {
  struct sim_ref r;
  nvmlReturn_t rc = mig_gpu(c, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (cur == NULL || pend == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *cur = r.gpu->mig_current;
  *pend = r.gpu->mig_pending;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode, unsigned int *pendingMode) {
  API_CALL_ON(nvmlDeviceGetMigMode, SIM_READ, device, get_mig_mode(&ctx_, device, currentMode, pendingMode));
}

static nvmlReturn_t set_mig_mode(struct sim_ctx *c, nvmlDevice_t d, unsigned mode, nvmlReturn_t *activation) {
  struct sim_ref r;
  nvmlReturn_t rc = mig_gpu(c, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (activation == NULL || mode > NVML_DEVICE_MIG_ENABLE) return NVML_ERROR_INVALID_ARGUMENT;
  struct sim_gpu *g = r.gpu;
  if (mode == g->mig_current) {
    if (g->mig_pending != mode) {
      g->mig_pending = mode; /* cancels the pending change, nothing else */
      c->dirty = 1;
    }
    *activation = NVML_SUCCESS;
    return NVML_SUCCESS;
  }
  if (g->passthrough) {
    *activation = NVML_ERROR_RESET_REQUIRED;
  } else if (sim_count_procs(c->st, r.idx, SIM_INVALID_ID, SIM_INVALID_ID, 0) > 0 ||
             (g->model->arch == 7u && sim_count_procs(c->st, r.idx, SIM_INVALID_ID, SIM_INVALID_ID, 1) > 0)) {
    *activation = NVML_ERROR_IN_USE;
  } else {
    g->mig_current = mode;
    sim_gpu_drop_instances(g);
    *activation = NVML_SUCCESS;
  }
  g->mig_pending = mode;
  c->dirty = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceSetMigMode(nvmlDevice_t device, unsigned int mode, nvmlReturn_t *activationStatus) {
  API_CALL_ON(nvmlDeviceSetMigMode, SIM_WRITE | SIM_CHANGES, device, set_mig_mode(&ctx_, device, mode, activationStatus));
}

static void fill_gi_info(const struct sim_gi_profile *p, nvmlGpuInstanceProfileInfo_t *o) {
  memset(o, 0, sizeof(*o));
  o->id = p->id;
  o->isP2pSupported = 0;
  o->sliceCount = p->slices;
  o->instanceCount = p->instances;
  o->multiprocessorCount = p->sm;
  o->copyEngineCount = p->ce;
  o->decoderCount = p->dec;
  o->encoderCount = p->enc;
  o->jpegCount = p->jpg;
  o->ofaCount = p->ofa;
  o->memorySizeMB = p->mem_mib;
}

static nvmlReturn_t gi_profile_info(struct sim_ctx *c, nvmlDevice_t d, unsigned index,
                                    nvmlGpuInstanceProfileInfo_t *info) {
  struct sim_ref r;
  nvmlReturn_t rc = mig_gpu(c, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (info == NULL || index >= NVML_GPU_INSTANCE_PROFILE_COUNT) return NVML_ERROR_INVALID_ARGUMENT;
  const struct sim_gi_profile *p = sim_gi_profile_by_index(r.gpu->model, index);
  if (p == NULL) return NVML_ERROR_NOT_SUPPORTED;
  fill_gi_info(p, info);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfo(nvmlDevice_t device, unsigned int profile,
                                                         nvmlGpuInstanceProfileInfo_t *info) {
  API_CALL_ON(nvmlDeviceGetGpuInstanceProfileInfo, SIM_READ, device, gi_profile_info(&ctx_, device, profile, info));
}

/* The ...V calls: v2 and v3 structs (same size); need MIG enabled. by_id selects the lookup. */
static nvmlReturn_t gi_profile_info_v(struct sim_ctx *c, nvmlDevice_t d, unsigned key, int by_id,
                                      nvmlGpuInstanceProfileInfo_v2_t *info) {
  struct sim_ref r;
  nvmlReturn_t rc = mig_gpu(c, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (info == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned version = info->version;
  if (version != SIM_GI_PROFILE_INFO_V2 && version != SIM_GI_PROFILE_INFO_V3) return NVML_ERROR_INVALID_ARGUMENT;
  if (!by_id && key >= NVML_GPU_INSTANCE_PROFILE_COUNT) return NVML_ERROR_INVALID_ARGUMENT;
  if (r.gpu->mig_current != NVML_DEVICE_MIG_ENABLE) return NVML_ERROR_NOT_SUPPORTED;
  const struct sim_gi_profile *p =
      by_id ? sim_gi_profile_by_id(r.gpu->model, key) : sim_gi_profile_by_index(r.gpu->model, key);
  if (p == NULL) return by_id ? NVML_ERROR_INVALID_ARGUMENT : NVML_ERROR_NOT_SUPPORTED;
  nvmlGpuInstanceProfileInfo_t base;
  fill_gi_info(p, &base);
  if (version == SIM_GI_PROFILE_INFO_V2) {
    memset(info, 0, sizeof(*info));
    info->version = version;
    info->id = base.id;
    info->isP2pSupported = base.isP2pSupported;
    info->sliceCount = base.sliceCount;
    info->instanceCount = base.instanceCount;
    info->multiprocessorCount = base.multiprocessorCount;
    info->copyEngineCount = base.copyEngineCount;
    info->decoderCount = base.decoderCount;
    info->encoderCount = base.encoderCount;
    info->jpegCount = base.jpegCount;
    info->ofaCount = base.ofaCount;
    info->memorySizeMB = base.memorySizeMB;
    snprintf(info->name, sizeof(info->name), "MIG %s", p->name);
  } else {
    nvmlGpuInstanceProfileInfo_v3_t *v3 = (nvmlGpuInstanceProfileInfo_v3_t *)(void *)info;
    memset(v3, 0, sizeof(*v3));
    v3->version = version;
    v3->id = base.id;
    v3->sliceCount = base.sliceCount;
    v3->instanceCount = base.instanceCount;
    v3->multiprocessorCount = base.multiprocessorCount;
    v3->copyEngineCount = base.copyEngineCount;
    v3->decoderCount = base.decoderCount;
    v3->encoderCount = base.encoderCount;
    v3->jpegCount = base.jpegCount;
    v3->ofaCount = base.ofaCount;
    v3->memorySizeMB = base.memorySizeMB;
    snprintf(v3->name, sizeof(v3->name), "MIG %s", p->name);
    v3->capabilities = 0; /* neither P2P nor GFX on the simulated models */
  }
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfoV(nvmlDevice_t device, unsigned int profile,
                                                          nvmlGpuInstanceProfileInfo_v2_t *info) {
  API_CALL_ON(nvmlDeviceGetGpuInstanceProfileInfoV, SIM_READ, device, gi_profile_info_v(&ctx_, device, profile, 0, info));
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfoByIdV(nvmlDevice_t device, unsigned int profileId,
                                                              nvmlGpuInstanceProfileInfo_v2_t *info) {
  API_CALL_ON(nvmlDeviceGetGpuInstanceProfileInfoByIdV, SIM_READ, device,
           gi_profile_info_v(&ctx_, device, profileId, 1, info));
}

static nvmlReturn_t profile_of(struct sim_ctx *c, nvmlDevice_t d, unsigned profile_id, int need_mig,
                               struct sim_ref *r, const struct sim_gi_profile **p) {
  nvmlReturn_t rc = mig_gpu(c, d, r);
  if (rc != NVML_SUCCESS) return rc;
  if (need_mig && r->gpu->mig_current != NVML_DEVICE_MIG_ENABLE) return NVML_ERROR_NOT_SUPPORTED;
  *p = sim_gi_profile_by_id(r->gpu->model, profile_id);
  return *p ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

static nvmlReturn_t gi_placements(struct sim_ctx *c, nvmlDevice_t d, unsigned profile_id,
                                  nvmlGpuInstancePlacement_t *out, unsigned *count) {
  struct sim_ref r;
  const struct sim_gi_profile *p;
  nvmlReturn_t rc = profile_of(c, d, profile_id, 0, &r, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (out != NULL)
    for (unsigned i = 0; i < p->nplacements; i++) {
      out[i].start = p->pl[i].start;
      out[i].size = p->pl[i].size;
    }
  *count = p->nplacements;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstancePossiblePlacements_v2(nvmlDevice_t device, unsigned int profileId,
                                                                   nvmlGpuInstancePlacement_t *placements,
                                                                   unsigned int *count) {
  API_CALL_ON(nvmlDeviceGetGpuInstancePossiblePlacements_v2, SIM_READ, device,
           gi_placements(&ctx_, device, profileId, placements, count));
}

static nvmlReturn_t gi_capacity(struct sim_ctx *c, nvmlDevice_t d, unsigned profile_id, unsigned *count) {
  struct sim_ref r;
  const struct sim_gi_profile *p;
  nvmlReturn_t rc = profile_of(c, d, profile_id, 1, &r, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *count = sim_gi_capacity(r.gpu, p);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstanceRemainingCapacity(nvmlDevice_t device, unsigned int profileId,
                                                               unsigned int *count) {
  API_CALL_ON(nvmlDeviceGetGpuInstanceRemainingCapacity, SIM_READ, device, gi_capacity(&ctx_, device, profileId, count));
}

static nvmlReturn_t create_gi(struct sim_ctx *c, nvmlDevice_t d, unsigned profile_id,
                              const nvmlGpuInstancePlacement_t *placement, int with_placement,
                              nvmlGpuInstance_t *out) {
  struct sim_ref r;
  const struct sim_gi_profile *p;
  nvmlReturn_t rc = profile_of(c, d, profile_id, 1, &r, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL || (with_placement && placement == NULL)) return NVML_ERROR_INVALID_ARGUMENT;
  struct sim_placement want, chosen;
  if (with_placement) {
    want.start = placement->start;
    want.size = placement->size;
  }
  rc = sim_gi_check(r.gpu, p, with_placement ? &want : NULL, &chosen);
  if (rc != NVML_SUCCESS) return rc;
  struct sim_gi *gi = sim_gi_add(c->st, r.gpu, p->id, chosen);
  if (gi == NULL) return NVML_ERROR_INSUFFICIENT_RESOURCES;
  *out = sim_gi_handle(r.idx, gi);
  c->dirty = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceCreateGpuInstance(nvmlDevice_t device, unsigned int profileId,
                                                 nvmlGpuInstance_t *gpuInstance) {
  API_CALL_ON(nvmlDeviceCreateGpuInstance, SIM_WRITE | SIM_CHANGES, device,
           create_gi(&ctx_, device, profileId, NULL, 0, gpuInstance));
}

SIM_API nvmlReturn_t nvmlDeviceCreateGpuInstanceWithPlacement(nvmlDevice_t device, unsigned int profileId,
                                                              const nvmlGpuInstancePlacement_t *placement,
                                                              nvmlGpuInstance_t *gpuInstance) {
  API_CALL_ON(nvmlDeviceCreateGpuInstanceWithPlacement, SIM_WRITE | SIM_CHANGES, device,
           create_gi(&ctx_, device, profileId, placement, 1, gpuInstance));
}

static nvmlReturn_t destroy_gi(struct sim_ctx *c, nvmlGpuInstance_t h) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve(c->st, (uint64_t)(uintptr_t)h, SIM_KIND_BIT(HK_GI), &r);
  if (rc != NVML_SUCCESS) return rc;
  if (r.gi->nci > 0 || sim_count_procs(c->st, r.idx, r.gi->id, SIM_INVALID_ID, 0) > 0) return NVML_ERROR_IN_USE;
  sim_gi_remove(r.gpu, r.gi);
  c->dirty = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceDestroy(nvmlGpuInstance_t gpuInstance) {
  API_CALL_ON(nvmlGpuInstanceDestroy, SIM_WRITE | SIM_CHANGES, gpuInstance, destroy_gi(&ctx_, gpuInstance));
}

static nvmlReturn_t list_gis(struct sim_ctx *c, nvmlDevice_t d, unsigned profile_id, nvmlGpuInstance_t *out,
                             unsigned *count) {
  struct sim_ref r;
  const struct sim_gi_profile *p;
  nvmlReturn_t rc = profile_of(c, d, profile_id, 1, &r, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned n = 0;
  for (unsigned i = 0; i < r.gpu->ngi; i++) {
    if (r.gpu->gi[i].profile_id != p->id) continue;
    if (out != NULL) out[n] = sim_gi_handle(r.idx, &r.gpu->gi[i]);
    n++;
  }
  *count = n;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstances(nvmlDevice_t device, unsigned int profileId,
                                               nvmlGpuInstance_t *gpuInstances, unsigned int *count) {
  API_CALL_ON(nvmlDeviceGetGpuInstances, SIM_READ, device, list_gis(&ctx_, device, profileId, gpuInstances, count));
}

static nvmlReturn_t gi_by_id(struct sim_ctx *c, nvmlDevice_t d, unsigned id, nvmlGpuInstance_t *out) {
  struct sim_ref r;
  nvmlReturn_t rc = mig_gpu(c, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (r.gpu->mig_current != NVML_DEVICE_MIG_ENABLE) return NVML_ERROR_NOT_SUPPORTED;
  struct sim_gi *gi = sim_gi_find(r.gpu, id);
  if (gi == NULL) return NVML_ERROR_NOT_FOUND;
  *out = sim_gi_handle(r.idx, gi);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstanceById(nvmlDevice_t device, unsigned int id,
                                                  nvmlGpuInstance_t *gpuInstance) {
  API_CALL_ON(nvmlDeviceGetGpuInstanceById, SIM_READ, device, gi_by_id(&ctx_, device, id, gpuInstance));
}

static nvmlReturn_t gi_info(struct sim_ctx *c, nvmlGpuInstance_t h, nvmlGpuInstanceInfo_t *info) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve(c->st, (uint64_t)(uintptr_t)h, SIM_KIND_BIT(HK_GI), &r);
  if (rc != NVML_SUCCESS) return rc;
  if (info == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  memset(info, 0, sizeof(*info));
  info->device = sim_gpu_handle(c->st, r.idx);
  info->id = r.gi->id;
  info->profileId = r.gi->profile_id;
  info->placement.start = r.gi->start;
  info->placement.size = r.gi->size;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceGetInfo(nvmlGpuInstance_t gpuInstance, nvmlGpuInstanceInfo_t *info) {
  API_CALL_ON(nvmlGpuInstanceGetInfo, SIM_READ, gpuInstance, gi_info(&ctx_, gpuInstance, info));
}
