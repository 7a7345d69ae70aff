/* Compute instances and MIG device handles. */
#include <stdio.h>
#include <string.h>

#include "sim.h"

static nvmlReturn_t resolve_gi(struct sim_ctx *c, nvmlGpuInstance_t h, struct sim_ref *r,
                               const struct sim_gi_profile **gp) {
  nvmlReturn_t rc = sim_resolve(c->st, (uint64_t)(uintptr_t)h, SIM_KIND_BIT(HK_GI), r);
  if (rc != NVML_SUCCESS) return rc;
  *gp = sim_gi_profile_of(r->gpu, r->gi);
  return *gp ? NVML_SUCCESS : NVML_ERROR_UNKNOWN;
}

static void fill_ci_info(const struct sim_gi_profile *gp, const struct sim_ci_profile *p,
                         nvmlComputeInstanceProfileInfo_t *o) {
  memset(o, 0, sizeof(*o));
  o->id = p->id;
  o->sliceCount = p->slices;
  o->instanceCount = p->instances;
  o->multiprocessorCount = p->sm;
  o->sharedCopyEngineCount = gp->ce;
  o->sharedDecoderCount = gp->dec;
  o->sharedEncoderCount = gp->enc;
  o->sharedJpegCount = gp->jpg;
  o->sharedOfaCount = gp->ofa;
}

static nvmlReturn_t ci_profile_lookup(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned index, unsigned eng,
                                      const void *info, const struct sim_gi_profile **gp,
                                      const struct sim_ci_profile **p) {
  struct sim_ref r;
  nvmlReturn_t rc = resolve_gi(c, h, &r, gp);
  if (rc != NVML_SUCCESS) return rc;
  if (info == NULL || index >= NVML_COMPUTE_INSTANCE_PROFILE_COUNT ||
      eng != NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED)
    return NVML_ERROR_INVALID_ARGUMENT;
  *p = sim_ci_profile_by_index(*gp, index);
  return *p ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

static nvmlReturn_t ci_profile_info(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned index, unsigned eng,
                                    nvmlComputeInstanceProfileInfo_t *info) {
  const struct sim_gi_profile *gp;
  const struct sim_ci_profile *p;
  nvmlReturn_t rc = ci_profile_lookup(c, h, index, eng, info, &gp, &p);
  if (rc != NVML_SUCCESS) return rc;
  fill_ci_info(gp, p, info);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceProfileInfo(nvmlGpuInstance_t gpuInstance, unsigned int profile,
                                                                  unsigned int engProfile,
                                                                  nvmlComputeInstanceProfileInfo_t *info) {
  API_CALL_ON(nvmlGpuInstanceGetComputeInstanceProfileInfo, SIM_READ, gpuInstance,
           ci_profile_info(&ctx_, gpuInstance, profile, engProfile, info));
}

static nvmlReturn_t ci_profile_info_v(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned index, unsigned eng,
                                      nvmlComputeInstanceProfileInfo_v2_t *info) {
  const struct sim_gi_profile *gp;
  const struct sim_ci_profile *p;
  struct sim_ref r;
  nvmlReturn_t rc = resolve_gi(c, h, &r, &gp);
  if (rc != NVML_SUCCESS) return rc;
  if (info == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned version = info->version;
  if (version != SIM_CI_PROFILE_INFO_V2 && version != SIM_CI_PROFILE_INFO_V3) return NVML_ERROR_INVALID_ARGUMENT;
  rc = ci_profile_lookup(c, h, index, eng, info, &gp, &p);
  if (rc != NVML_SUCCESS) return rc;
  nvmlComputeInstanceProfileInfo_t base;
  fill_ci_info(gp, p, &base);
  char name[48];
  sim_ci_profile_name(gp, p, name, sizeof(name));
  /* v2 is a prefix of v3 (same fields, v3 adds capabilities at the end) */
  if (version == SIM_CI_PROFILE_INFO_V3)
    memset((nvmlComputeInstanceProfileInfo_v3_t *)(void *)info, 0, sizeof(nvmlComputeInstanceProfileInfo_v3_t));
  else
    memset(info, 0, sizeof(*info));
  info->version = version;
  info->id = base.id;
  info->sliceCount = base.sliceCount;
  info->instanceCount = base.instanceCount;
  info->multiprocessorCount = base.multiprocessorCount;
  info->sharedCopyEngineCount = base.sharedCopyEngineCount;
  info->sharedDecoderCount = base.sharedDecoderCount;
  info->sharedEncoderCount = base.sharedEncoderCount;
  info->sharedJpegCount = base.sharedJpegCount;
  info->sharedOfaCount = base.sharedOfaCount;
  snprintf(info->name, sizeof(info->name), "MIG %s", name);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceProfileInfoV(nvmlGpuInstance_t gpuInstance, unsigned int profile,
                                                                   unsigned int engProfile,
                                                                   nvmlComputeInstanceProfileInfo_v2_t *info) {
  API_CALL_ON(nvmlGpuInstanceGetComputeInstanceProfileInfoV, SIM_READ, gpuInstance,
           ci_profile_info_v(&ctx_, gpuInstance, profile, engProfile, info));
}

static nvmlReturn_t ci_profile_by_id(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned id, struct sim_ref *r,
                                     const struct sim_gi_profile **gp, const struct sim_ci_profile **p) {
  nvmlReturn_t rc = resolve_gi(c, h, r, gp);
  if (rc != NVML_SUCCESS) return rc;
  *p = sim_ci_profile_by_id(*gp, id);
  return *p ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

static nvmlReturn_t ci_capacity(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned id, unsigned *count) {
  struct sim_ref r;
  const struct sim_gi_profile *gp;
  const struct sim_ci_profile *p;
  nvmlReturn_t rc = ci_profile_by_id(c, h, id, &r, &gp, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *count = sim_ci_capacity_in(gp, r.gi, p);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceRemainingCapacity(nvmlGpuInstance_t gpuInstance,
                                                                        unsigned int profileId, unsigned int *count) {
  API_CALL_ON(nvmlGpuInstanceGetComputeInstanceRemainingCapacity, SIM_READ, gpuInstance,
           ci_capacity(&ctx_, gpuInstance, profileId, count));
}

static nvmlReturn_t ci_placements(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned id,
                                  nvmlComputeInstancePlacement_t *out, unsigned *count) {
  struct sim_ref r;
  const struct sim_gi_profile *gp;
  const struct sim_ci_profile *p;
  nvmlReturn_t rc = ci_profile_by_id(c, h, id, &r, &gp, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  struct sim_placement pl[SIM_MAX_PLACEMENTS];
  unsigned n = sim_ci_placements_for(gp, p, pl);
  if (out != NULL)
    for (unsigned i = 0; i < n; i++) {
      out[i].start = pl[i].start;
      out[i].size = pl[i].size;
    }
  *count = n;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceGetComputeInstancePossiblePlacements(nvmlGpuInstance_t gpuInstance,
                                                                         unsigned int profileId,
                                                                         nvmlComputeInstancePlacement_t *placements,
                                                                         unsigned int *count) {
  API_CALL_ON(nvmlGpuInstanceGetComputeInstancePossiblePlacements, SIM_READ, gpuInstance,
           ci_placements(&ctx_, gpuInstance, profileId, placements, count));
}

static nvmlReturn_t create_ci(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned id,
                              const nvmlComputeInstancePlacement_t *placement, int with_placement,
                              nvmlComputeInstance_t *out) {
  struct sim_ref r;
  const struct sim_gi_profile *gp;
  const struct sim_ci_profile *p;
  nvmlReturn_t rc = ci_profile_by_id(c, h, id, &r, &gp, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL || (with_placement && placement == NULL)) return NVML_ERROR_INVALID_ARGUMENT;
  struct sim_placement want, chosen;
  if (with_placement) {
    want.start = placement->start;
    want.size = placement->size;
  }
  rc = sim_ci_check_in(gp, r.gi, p, with_placement ? &want : NULL, &chosen);
  if (rc != NVML_SUCCESS) return rc;
  struct sim_ci *ci = sim_ci_add(c->st, r.idx, r.gi, p->id, chosen);
  if (ci == NULL) return NVML_ERROR_INSUFFICIENT_RESOURCES;
  *out = sim_ci_handle(r.idx, r.gi, ci);
  c->dirty = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceCreateComputeInstance(nvmlGpuInstance_t gpuInstance, unsigned int profileId,
                                                          nvmlComputeInstance_t *computeInstance) {
  API_CALL_ON(nvmlGpuInstanceCreateComputeInstance, SIM_WRITE | SIM_CHANGES, gpuInstance,
           create_ci(&ctx_, gpuInstance, profileId, NULL, 0, computeInstance));
}

SIM_API nvmlReturn_t nvmlGpuInstanceCreateComputeInstanceWithPlacement(nvmlGpuInstance_t gpuInstance,
                                                                       unsigned int profileId,
                                                                       const nvmlComputeInstancePlacement_t *placement,
                                                                       nvmlComputeInstance_t *computeInstance) {
  API_CALL_ON(nvmlGpuInstanceCreateComputeInstanceWithPlacement, SIM_WRITE | SIM_CHANGES, gpuInstance,
           create_ci(&ctx_, gpuInstance, profileId, placement, 1, computeInstance));
}

static nvmlReturn_t destroy_ci(struct sim_ctx *c, nvmlComputeInstance_t h) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve(c->st, (uint64_t)(uintptr_t)h, SIM_KIND_BIT(HK_CI), &r);
  if (rc != NVML_SUCCESS) return rc;
  if (sim_count_procs(c->st, r.idx, r.gi->id, r.ci->id, 0) > 0) return NVML_ERROR_IN_USE;
  sim_ci_remove(r.gi, r.ci);
  c->dirty = 1;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlComputeInstanceDestroy(nvmlComputeInstance_t computeInstance) {
  API_CALL_ON(nvmlComputeInstanceDestroy, SIM_WRITE | SIM_CHANGES, computeInstance, destroy_ci(&ctx_, computeInstance));
}

static nvmlReturn_t list_cis(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned id, nvmlComputeInstance_t *out,
                             unsigned *count) {
  struct sim_ref r;
  const struct sim_gi_profile *gp;
  const struct sim_ci_profile *p;
  nvmlReturn_t rc = ci_profile_by_id(c, h, id, &r, &gp, &p);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  unsigned n = 0;
  for (unsigned i = 0; i < r.gi->nci; i++) {
    if (r.gi->ci[i].profile_id != p->id) continue;
    if (out != NULL) out[n] = sim_ci_handle(r.idx, r.gi, &r.gi->ci[i]);
    n++;
  }
  *count = n;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceGetComputeInstances(nvmlGpuInstance_t gpuInstance, unsigned int profileId,
                                                        nvmlComputeInstance_t *computeInstances, unsigned int *count) {
  API_CALL_ON(nvmlGpuInstanceGetComputeInstances, SIM_READ, gpuInstance,
           list_cis(&ctx_, gpuInstance, profileId, computeInstances, count));
}

static nvmlReturn_t ci_by_id(struct sim_ctx *c, nvmlGpuInstance_t h, unsigned id, nvmlComputeInstance_t *out) {
  struct sim_ref r;
  const struct sim_gi_profile *gp;
  nvmlReturn_t rc = resolve_gi(c, h, &r, &gp);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  struct sim_ci *ci = sim_ci_find(r.gi, id);
  if (ci == NULL) return NVML_ERROR_NOT_FOUND;
  *out = sim_ci_handle(r.idx, r.gi, ci);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlGpuInstanceGetComputeInstanceById(nvmlGpuInstance_t gpuInstance, unsigned int id,
                                                           nvmlComputeInstance_t *computeInstance) {
  API_CALL_ON(nvmlGpuInstanceGetComputeInstanceById, SIM_READ, gpuInstance, ci_by_id(&ctx_, gpuInstance, id, computeInstance));
}

static nvmlReturn_t ci_info(struct sim_ctx *c, nvmlComputeInstance_t h, nvmlComputeInstanceInfo_t *info) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve(c->st, (uint64_t)(uintptr_t)h, SIM_KIND_BIT(HK_CI), &r);
  if (rc != NVML_SUCCESS) return rc;
  if (info == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  memset(info, 0, sizeof(*info));
  info->device = sim_gpu_handle(c->st, r.idx);
  info->gpuInstance = sim_gi_handle(r.idx, r.gi);
  info->id = r.ci->id;
  info->profileId = r.ci->profile_id;
  info->placement.start = r.ci->start;
  info->placement.size = r.ci->size;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlComputeInstanceGetInfo_v2(nvmlComputeInstance_t computeInstance,
                                                   nvmlComputeInstanceInfo_t *info) {
  API_CALL_ON(nvmlComputeInstanceGetInfo_v2, SIM_READ, computeInstance, ci_info(&ctx_, computeInstance, info));
}

/* ---- MIG device handles ---- */

enum mig_query { MQ_IS_MIG, MQ_GI_ID, MQ_CI_ID };

static nvmlReturn_t mig_uint(struct sim_ctx *c, nvmlDevice_t d, enum mig_query q, unsigned *out) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (q == MQ_IS_MIG) {
    *out = r.kind == HK_MIG ? 1u : 0u;
    return NVML_SUCCESS;
  }
  if (r.kind != HK_MIG) return NVML_ERROR_NOT_SUPPORTED;
  *out = q == MQ_GI_ID ? r.gi->id : r.ci->id;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device, unsigned int *isMigDevice) {
  API_CALL_ON(nvmlDeviceIsMigDeviceHandle, SIM_READ, device, mig_uint(&ctx_, device, MQ_IS_MIG, isMigDevice));
}

SIM_API nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id) {
  API_CALL_ON(nvmlDeviceGetGpuInstanceId, SIM_READ, device, mig_uint(&ctx_, device, MQ_GI_ID, id));
}

SIM_API nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int *id) {
  API_CALL_ON(nvmlDeviceGetComputeInstanceId, SIM_READ, device, mig_uint(&ctx_, device, MQ_CI_ID, id));
}

static unsigned max_mig(const struct sim_gpu *g) {
  return g->model->mig && g->mig_current == NVML_DEVICE_MIG_ENABLE ? g->model->compute_slices : 0u;
}

static nvmlReturn_t max_mig_count(struct sim_ctx *c, nvmlDevice_t d, unsigned *count) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_gpu(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *count = max_mig(r.gpu);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count) {
  API_CALL_ON(nvmlDeviceGetMaxMigDeviceCount, SIM_READ, device, max_mig_count(&ctx_, device, count));
}

static nvmlReturn_t mig_by_index(struct sim_ctx *c, nvmlDevice_t d, unsigned index, nvmlDevice_t *out) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_gpu(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (!r.gpu->model->mig) return NVML_ERROR_NOT_SUPPORTED;
  if (out == NULL || index >= max_mig(r.gpu)) return NVML_ERROR_INVALID_ARGUMENT;
  struct sim_gi *gi;
  struct sim_ci *ci;
  if (sim_mig_at(r.gpu, index, &gi, &ci) != 0) return NVML_ERROR_NOT_FOUND;
  *out = sim_mig_handle(r.idx, gi, ci);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
                                                         nvmlDevice_t *migDevice) {
  API_CALL_ON(nvmlDeviceGetMigDeviceHandleByIndex, SIM_READ, device, mig_by_index(&ctx_, device, index, migDevice));
}

static nvmlReturn_t parent_of(struct sim_ctx *c, nvmlDevice_t d, nvmlDevice_t *out) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve(c->st, (uint64_t)(uintptr_t)d, SIM_KIND_BIT(HK_MIG), &r);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *out = sim_gpu_handle(c->st, r.idx);
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t migDevice, nvmlDevice_t *device) {
  API_CALL_ON(nvmlDeviceGetDeviceHandleFromMigDeviceHandle, SIM_READ, migDevice, parent_of(&ctx_, migDevice, device));
}

static nvmlReturn_t attributes(struct sim_ctx *c, nvmlDevice_t d, nvmlDeviceAttributes_t *a) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve(c->st, (uint64_t)(uintptr_t)d, SIM_KIND_BIT(HK_MIG), &r);
  if (rc != NVML_SUCCESS) return rc;
  if (a == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  const struct sim_gi_profile *gp = sim_gi_profile_of(r.gpu, r.gi);
  const struct sim_ci_profile *cp = sim_ci_profile_of(r.gpu, r.gi, r.ci);
  if (gp == NULL || cp == NULL) return NVML_ERROR_UNKNOWN;
  memset(a, 0, sizeof(*a));
  a->multiprocessorCount = cp->sm;
  a->sharedCopyEngineCount = gp->ce;
  a->sharedDecoderCount = gp->dec;
  a->sharedEncoderCount = gp->enc;
  a->sharedJpegCount = gp->jpg;
  a->sharedOfaCount = gp->ofa;
  a->gpuInstanceSliceCount = gp->slices;
  a->computeInstanceSliceCount = cp->slices;
  a->memorySizeMB = gp->mem_mib;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetAttributes_v2(nvmlDevice_t device, nvmlDeviceAttributes_t *attributes_out) {
  API_CALL_ON(nvmlDeviceGetAttributes_v2, SIM_READ, device, attributes(&ctx_, device, attributes_out));
}
