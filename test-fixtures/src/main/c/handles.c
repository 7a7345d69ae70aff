/*
 * Handles are 64-bit values the library never dereferences:
 *   bits 63..61 kind (1 GPU, 2 MIG device, 3 GPU instance, 4 compute instance, 5 event set)
 *   bits 60..56 GPU index
 *   bits 55..48 init session of this library copy (handles from before an nvmlInit go stale)
 *   bits 47..40 GPU-instance id, bits 39..32 compute-instance id
 *   bits 31..0  low 32 bits of the object's creation serial (GPU: serial of its last init/reset)
 * A handle resolves only if every part matches the current state.
 */
#include "sim.h"

unsigned sim_handle_gpu(uint64_t h) {
  unsigned kind = (unsigned)(h >> 61);
  if (kind < HK_GPU || kind > HK_CI) return SIM_INVALID_ID;
  return (unsigned)(h >> 56) & 0x1Fu;
}

uint64_t sim_handle_make(enum sim_kind kind, unsigned idx, unsigned gi, unsigned ci,
                         unsigned long long serial) {
  return ((uint64_t)kind << 61) | ((uint64_t)(idx & 0x1Fu) << 56) |
         ((uint64_t)(sim_session() & 0xFFu) << 48) | ((uint64_t)(gi & 0xFFu) << 40) |
         ((uint64_t)(ci & 0xFFu) << 32) | (uint64_t)(serial & 0xFFFFFFFFull);
}

nvmlDevice_t sim_gpu_handle(const struct sim_state *st, unsigned idx) {
  return (nvmlDevice_t)(uintptr_t)sim_handle_make(HK_GPU, idx, 0, 0, st->gpu[idx].serial);
}

nvmlDevice_t sim_mig_handle(unsigned idx, const struct sim_gi *gi, const struct sim_ci *ci) {
  return (nvmlDevice_t)(uintptr_t)sim_handle_make(HK_MIG, idx, gi->id, ci->id, ci->serial);
}

nvmlGpuInstance_t sim_gi_handle(unsigned idx, const struct sim_gi *gi) {
  return (nvmlGpuInstance_t)(uintptr_t)sim_handle_make(HK_GI, idx, gi->id, 0, gi->serial);
}

nvmlComputeInstance_t sim_ci_handle(unsigned idx, const struct sim_gi *gi, const struct sim_ci *ci) {
  return (nvmlComputeInstance_t)(uintptr_t)sim_handle_make(HK_CI, idx, gi->id, ci->id, ci->serial);
}

nvmlReturn_t sim_resolve(struct sim_state *st, uint64_t h, unsigned kinds, struct sim_ref *r) {
  unsigned kind = (unsigned)(h >> 61);
  unsigned idx = (unsigned)(h >> 56) & 0x1Fu;
  unsigned session = (unsigned)(h >> 48) & 0xFFu;
  unsigned giid = (unsigned)(h >> 40) & 0xFFu;
  unsigned ciid = (unsigned)(h >> 32) & 0xFFu;
  unsigned long long serial = h & 0xFFFFFFFFull;
  if (kind == 0 || kind > 5 || !(kinds & SIM_KIND_BIT(kind))) return NVML_ERROR_INVALID_ARGUMENT;
  if (session != (sim_session() & 0xFFu) || idx >= st->ngpus) return NVML_ERROR_INVALID_ARGUMENT;
  r->kind = (enum sim_kind)kind;
  r->idx = idx;
  r->gpu = &st->gpu[idx];
  r->gi = NULL;
  r->ci = NULL;
  if (kind == HK_GPU) {
    return (r->gpu->serial & 0xFFFFFFFFull) == serial ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
  }
  r->gi = sim_gi_find(r->gpu, giid);
  if (r->gi == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (kind == HK_GI) {
    return (r->gi->serial & 0xFFFFFFFFull) == serial ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
  }
  r->ci = sim_ci_find(r->gi, ciid);
  if (r->ci == NULL || (r->ci->serial & 0xFFFFFFFFull) != serial) return NVML_ERROR_INVALID_ARGUMENT;
  return NVML_SUCCESS;
}

nvmlReturn_t sim_resolve_device(struct sim_state *st, nvmlDevice_t d, struct sim_ref *r) {
  return sim_resolve(st, (uint64_t)(uintptr_t)d, SIM_DEVICE_KINDS, r);
}

nvmlReturn_t sim_resolve_gpu(struct sim_state *st, nvmlDevice_t d, struct sim_ref *r) {
  return sim_resolve(st, (uint64_t)(uintptr_t)d, SIM_KIND_BIT(HK_GPU), r);
}
