/* MIG placement rules, capacity, id assignment and MIG-device enumeration. */
#include <stdio.h>
#include <string.h>

#include "sim.h"

/*
 * GPU-instance ids: the first id of this fixed order that no existing GPU instance of the GPU
 * uses. Seven 1g instances created one after another get 9,7,8,11,12,13,14, the order observed
 * on an H100 (mig-profiles.json conventions.instance_ids).
 */
static const unsigned gi_id_order[] = {9, 7, 8, 11, 12, 13, 14, 1, 2, 3, 4, 5, 6, 10, 0};

const struct sim_gi_profile *sim_gi_profile_of(const struct sim_gpu *g, const struct sim_gi *gi) {
  return sim_gi_profile_by_id(g->model, gi->profile_id);
}

const struct sim_ci_profile *sim_ci_profile_of(const struct sim_gpu *g, const struct sim_gi *gi,
                                               const struct sim_ci *ci) {
  const struct sim_gi_profile *gp = sim_gi_profile_of(g, gi);
  return gp ? sim_ci_profile_by_id(gp, ci->profile_id) : NULL;
}

static unsigned range_mask(unsigned start, unsigned size) {
  if (start >= 32) return 0;
  if (size >= 32 - start) return 0xFFFFFFFFu << start;
  return ((1u << size) - 1u) << start;
}

static unsigned gi_used_mask(const struct sim_gpu *g) {
  unsigned m = 0;
  for (unsigned i = 0; i < g->ngi; i++) m |= range_mask(g->gi[i].start, g->gi[i].size);
  return m;
}

static int gi_ofa_used(const struct sim_gpu *g) {
  for (unsigned i = 0; i < g->ngi; i++) {
    const struct sim_gi_profile *p = sim_gi_profile_of(g, &g->gi[i]);
    if (p != NULL && p->ofa > 0) return 1;
  }
  return 0;
}

static unsigned gi_count_profile(const struct sim_gpu *g, unsigned profile_id) {
  unsigned n = 0;
  for (unsigned i = 0; i < g->ngi; i++)
    if (g->gi[i].profile_id == profile_id) n++;
  return n;
}

static int placement_listed(const struct sim_placement *pl, unsigned n, const struct sim_placement *want) {
  for (unsigned i = 0; i < n; i++)
    if (pl[i].start == want->start && pl[i].size == want->size) return 1;
  return 0;
}

/* Lowest-start placement of pl[] that does not intersect used; -1 if none. */
static int lowest_free(const struct sim_placement *pl, unsigned n, unsigned used) {
  int best = -1;
  for (unsigned i = 0; i < n; i++) {
    if (range_mask(pl[i].start, pl[i].size) & used) continue;
    if (best < 0 || pl[i].start < pl[best].start) best = (int)i;
  }
  return best;
}

nvmlReturn_t sim_gi_check(const struct sim_gpu *g, const struct sim_gi_profile *p,
                          const struct sim_placement *want, struct sim_placement *chosen) {
  if (want != NULL && !placement_listed(p->pl, p->nplacements, want)) return NVML_ERROR_INVALID_ARGUMENT;
  if (g->ngi >= SIM_MAX_GIS || gi_count_profile(g, p->id) >= p->instances) {
    return NVML_ERROR_INSUFFICIENT_RESOURCES;
  }
  if (p->ofa > 0 && gi_ofa_used(g)) return NVML_ERROR_INSUFFICIENT_RESOURCES;
  unsigned used = gi_used_mask(g);
  if (want != NULL) {
    if (range_mask(want->start, want->size) & used) return NVML_ERROR_INSUFFICIENT_RESOURCES;
    *chosen = *want;
    return NVML_SUCCESS;
  }
  int i = lowest_free(p->pl, p->nplacements, used);
  if (i < 0) return NVML_ERROR_INSUFFICIENT_RESOURCES;
  *chosen = p->pl[i];
  return NVML_SUCCESS;
}

/* How many more GPU instances of p fit together (greedy, lowest start first, same rules). */
unsigned sim_gi_capacity(const struct sim_gpu *g, const struct sim_gi_profile *p) {
  unsigned used = gi_used_mask(g);
  unsigned have = gi_count_profile(g, p->id);
  int ofa = gi_ofa_used(g);
  unsigned n = 0;
  while (have + n < p->instances && g->ngi + n < SIM_MAX_GIS && !(p->ofa > 0 && ofa)) {
    int i = lowest_free(p->pl, p->nplacements, used);
    if (i < 0) break;
    used |= range_mask(p->pl[i].start, p->pl[i].size);
    if (p->ofa > 0) ofa = 1;
    n++;
  }
  return n;
}

static unsigned ci_placements_in(unsigned gi_slices, const struct sim_ci_profile *p,
                                 struct sim_placement *out) {
  unsigned n = 0;
  for (unsigned start = 0; start + p->slices <= gi_slices && n < p->instances && n < SIM_MAX_PLACEMENTS;
       start += p->slices) {
    out[n].start = start;
    out[n].size = p->slices;
    n++;
  }
  return n;
}

unsigned sim_ci_placements_for(const struct sim_gi_profile *gp, const struct sim_ci_profile *p,
                               struct sim_placement *out) {
  return ci_placements_in(gp->slices, p, out);
}

static unsigned ci_used_mask(const struct sim_gi *gi) {
  unsigned m = 0;
  for (unsigned i = 0; i < gi->nci; i++) m |= range_mask(gi->ci[i].start, gi->ci[i].size);
  return m;
}

static unsigned ci_count_profile(const struct sim_gi *gi, unsigned profile_id) {
  unsigned n = 0;
  for (unsigned i = 0; i < gi->nci; i++)
    if (gi->ci[i].profile_id == profile_id) n++;
  return n;
}

nvmlReturn_t sim_ci_check_in(const struct sim_gi_profile *gp, const struct sim_gi *gi,
                             const struct sim_ci_profile *p, const struct sim_placement *want,
                             struct sim_placement *chosen) {
  struct sim_placement pl[SIM_MAX_PLACEMENTS];
  unsigned n = ci_placements_in(gp->slices, p, pl);
  if (want != NULL && !placement_listed(pl, n, want)) return NVML_ERROR_INVALID_ARGUMENT;
  if (gi->nci >= SIM_MAX_CIS || ci_count_profile(gi, p->id) >= p->instances)
    return NVML_ERROR_INSUFFICIENT_RESOURCES;
  unsigned used = ci_used_mask(gi);
  if (want != NULL) {
    if (range_mask(want->start, want->size) & used) return NVML_ERROR_INSUFFICIENT_RESOURCES;
    *chosen = *want;
    return NVML_SUCCESS;
  }
  int i = lowest_free(pl, n, used);
  if (i < 0) return NVML_ERROR_INSUFFICIENT_RESOURCES;
  *chosen = pl[i];
  return NVML_SUCCESS;
}

unsigned sim_ci_capacity_in(const struct sim_gi_profile *gp, const struct sim_gi *gi,
                            const struct sim_ci_profile *p) {
  struct sim_placement pl[SIM_MAX_PLACEMENTS];
  unsigned n = ci_placements_in(gp->slices, p, pl);
  unsigned used = ci_used_mask(gi);
  unsigned have = ci_count_profile(gi, p->id);
  unsigned k = 0;
  while (have + k < p->instances && gi->nci + k < SIM_MAX_CIS) {
    int i = lowest_free(pl, n, used);
    if (i < 0) break;
    used |= range_mask(pl[i].start, pl[i].size);
    k++;
  }
  return k;
}

struct sim_gi *sim_gi_find(struct sim_gpu *g, unsigned id) {
  for (unsigned i = 0; i < g->ngi; i++)
    if (g->gi[i].id == id) return &g->gi[i];
  return NULL;
}

struct sim_ci *sim_ci_find(struct sim_gi *gi, unsigned id) {
  for (unsigned i = 0; i < gi->nci; i++)
    if (gi->ci[i].id == id) return &gi->ci[i];
  return NULL;
}

struct sim_gi *sim_gi_add(struct sim_state *st, struct sim_gpu *g, unsigned profile_id,
                          struct sim_placement pl) {
  unsigned id = SIM_INVALID_ID;
  for (unsigned i = 0; i < sizeof(gi_id_order) / sizeof(gi_id_order[0]) && id == SIM_INVALID_ID; i++)
    if (sim_gi_find(g, gi_id_order[i]) == NULL) id = gi_id_order[i];
  if (id == SIM_INVALID_ID || g->ngi >= SIM_MAX_GIS) return NULL;
  unsigned pos = 0;
  while (pos < g->ngi && g->gi[pos].start < pl.start) pos++;
  memmove(&g->gi[pos + 1], &g->gi[pos], sizeof(g->gi[0]) * (g->ngi - pos));
  struct sim_gi *gi = &g->gi[pos];
  memset(gi, 0, sizeof(*gi));
  gi->id = id;
  gi->profile_id = profile_id;
  gi->start = pl.start;
  gi->size = pl.size;
  gi->serial = sim_next_serial(st);
  g->ngi++;
  return gi;
}

struct sim_ci *sim_ci_add(struct sim_state *st, unsigned idx, struct sim_gi *gi, unsigned profile_id,
                          struct sim_placement pl) {
  if (gi->nci >= SIM_MAX_CIS) return NULL;
  unsigned id = 0;
  while (sim_ci_find(gi, id) != NULL) id++;
  unsigned pos = 0;
  while (pos < gi->nci && gi->ci[pos].start < pl.start) pos++;
  memmove(&gi->ci[pos + 1], &gi->ci[pos], sizeof(gi->ci[0]) * (gi->nci - pos));
  struct sim_ci *ci = &gi->ci[pos];
  memset(ci, 0, sizeof(*ci));
  ci->id = id;
  ci->profile_id = profile_id;
  ci->start = pl.start;
  ci->size = pl.size;
  ci->serial = sim_next_serial(st);
  sim_mig_uuid(st, idx, ci->serial, ci->uuid);
  gi->nci++;
  return ci;
}

void sim_gi_remove(struct sim_gpu *g, struct sim_gi *gi) {
  size_t pos = (size_t)(gi - g->gi);
  memmove(&g->gi[pos], &g->gi[pos + 1], sizeof(g->gi[0]) * (g->ngi - pos - 1));
  g->ngi--;
}

void sim_ci_remove(struct sim_gi *gi, struct sim_ci *ci) {
  size_t pos = (size_t)(ci - gi->ci);
  memmove(&gi->ci[pos], &gi->ci[pos + 1], sizeof(gi->ci[0]) * (gi->nci - pos - 1));
  gi->nci--;
}

void sim_gpu_drop_instances(struct sim_gpu *g) { g->ngi = 0; }

/* MIG device index: position of the CI in (GI placement start, CI placement start) order. */
int sim_mig_index(const struct sim_gpu *g, const struct sim_gi *gi, const struct sim_ci *ci) {
  int n = 0;
  for (unsigned i = 0; i < g->ngi; i++)
    for (unsigned j = 0; j < g->gi[i].nci; j++) {
      if (&g->gi[i] == gi && &g->gi[i].ci[j] == ci) return n;
      n++;
    }
  return -1;
}

int sim_mig_at(struct sim_gpu *g, unsigned index, struct sim_gi **gi, struct sim_ci **ci) {
  unsigned n = 0;
  for (unsigned i = 0; i < g->ngi; i++)
    for (unsigned j = 0; j < g->gi[i].nci; j++) {
      if (n == index) {
        *gi = &g->gi[i];
        *ci = &g->gi[i].ci[j];
        return 0;
      }
      n++;
    }
  return -1;
}

void sim_ci_profile_name(const struct sim_gi_profile *gp, const struct sim_ci_profile *cp, char *out,
                         size_t len) {
  if (cp == NULL || cp->slices == gp->slices) snprintf(out, len, "%s", gp->name);
  else snprintf(out, len, "%uc.%s", cp->slices, gp->name);
}

void sim_mig_profile_name(const struct sim_gpu *g, const struct sim_gi *gi, const struct sim_ci *ci,
                          char *out, size_t len) {
  const struct sim_gi_profile *gp = sim_gi_profile_of(g, gi);
  if (gp == NULL) {
    snprintf(out, len, "unknown");
    return;
  }
  sim_ci_profile_name(gp, ci ? sim_ci_profile_of(g, gi, ci) : NULL, out, len);
}

/* holders: 0 compute processes only, 1 holders only, 2 both. gi/ci SIM_INVALID_ID = any. */
unsigned sim_count_procs(const struct sim_state *st, unsigned idx, unsigned gi, unsigned ci, int holders) {
  unsigned n = 0;
  for (unsigned i = 0; i < st->nprocs; i++) {
    const struct sim_proc *p = &st->procs[i];
    if (p->gpu != idx) continue;
    if (holders == 0 && p->holder) continue;
    if (holders == 1 && !p->holder) continue;
    if (gi != SIM_INVALID_ID && p->gi != gi) continue;
    if (ci != SIM_INVALID_ID && p->ci != ci) continue;
    n++;
  }
  return n;
}

/* Memory (MiB) used by compute processes on the GPU, or in one GPU instance. */
unsigned long long sim_used_mib(const struct sim_state *st, unsigned idx, unsigned gi) {
  unsigned long long sum = 0;
  for (unsigned i = 0; i < st->nprocs; i++) {
    const struct sim_proc *p = &st->procs[i];
    if (p->gpu == idx && !p->holder && (gi == SIM_INVALID_ID || p->gi == gi)) sum += p->mem_mib;
  }
  return sum;
}
