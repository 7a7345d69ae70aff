/* MIG placement rules, capacity, id assignment and MIG-device enumeration. */
#include <stdio.h>
#include <string.h>

#include "sim.h"

/*
 * GPU-instance ids are the driver's partition numbers: a function of the placement's size (in
 * memory slices) and start, never of the order of creation. Index = start / size.
 */
static const unsigned direct_ids[4][8] = {
    {7, 8, 9, 10, 11, 12, 13, 14}, /* size 1 (start 7 is never offered) */
    {3, 4, 5, 6},                  /* size 2 */
    {1, 2},                        /* size 4 */
    {0},                           /* size 8 */
};
static const unsigned swapped_ids[4][8] = {
    {11, 12, 13, 14, 7, 8, 9, 10},
    {5, 6, 3, 4},
    {2, 1},
    {0},
};
static const unsigned a30_ids[3][4] = {
    {3, 4, 5, 6}, /* size 1 */
    {1, 2},       /* size 2 */
    {0},          /* size 4 */
};

unsigned sim_gi_id_for(const struct sim_model *m, struct sim_placement pl) {
  unsigned level;
  switch (pl.size) {
    case 1: level = 0; break;
    case 2: level = 1; break;
    case 4: level = 2; break;
    case 8: level = 3; break;
    default: return SIM_INVALID_ID;
  }
  if (pl.start % pl.size != 0 || pl.start + pl.size > m->mem_slices) return SIM_INVALID_ID;
  unsigned pos = pl.start / pl.size;
  switch (m->gi_ids) {
    case SIM_GI_IDS_DIRECT:
      return m->mem_slices == 8 ? direct_ids[level][pos] : SIM_INVALID_ID;
    case SIM_GI_IDS_SWAPPED:
      return m->mem_slices == 8 ? swapped_ids[level][pos] : SIM_INVALID_ID;
    case SIM_GI_IDS_A30:
      return m->mem_slices == 4 && level < 3 ? a30_ids[level][pos] : SIM_INVALID_ID;
    case SIM_GI_IDS_NONE:
      return SIM_INVALID_ID;
  }
  return SIM_INVALID_ID;
}

/*
 * The order in which the driver tries starts when no placement is given, by placement size in
 * memory slices (8-slice GPUs): one-slice 6,4,5,0,1,2,3 was captured on an H100; the first of
 * the others (4:2, 4:4) too, their rest is assumed. 4-slice GPUs (A30): ascending.
 */
static const unsigned order_1[] = {6, 4, 5, 0, 1, 2, 3};
static const unsigned order_2[] = {4, 6, 0, 2};
static const unsigned order_4[] = {4, 0};

static unsigned start_rank(const struct sim_model *m, struct sim_placement pl) {
  const unsigned *order = NULL;
  unsigned n = 0;
  if (m->mem_slices == 8) {
    if (pl.size == 1) {
      order = order_1;
      n = sizeof(order_1) / sizeof(order_1[0]);
    } else if (pl.size == 2) {
      order = order_2;
      n = sizeof(order_2) / sizeof(order_2[0]);
    } else if (pl.size == 4) {
      order = order_4;
      n = sizeof(order_4) / sizeof(order_4[0]);
    }
  }
  for (unsigned i = 0; i < n; i++)
    if (order[i] == pl.start) return i;
  return n + pl.start;
}

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

/* The first free placement of the profile in the driver's order; -1 if none. */
static int driver_free(const struct sim_model *m, const struct sim_gi_profile *p, unsigned used) {
  int best = -1;
  for (unsigned i = 0; i < p->nplacements; i++) {
    if (range_mask(p->pl[i].start, p->pl[i].size) & used) continue;
    if (best < 0 || start_rank(m, p->pl[i]) < start_rank(m, p->pl[best])) best = (int)i;
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
  int i = driver_free(g->model, p, used);
  if (i < 0) return NVML_ERROR_INSUFFICIENT_RESOURCES;
  *chosen = p->pl[i];
  return NVML_SUCCESS;
}

/* How many more GPU instances of p fit together (filled in the driver's order, same rules). */
unsigned sim_gi_capacity(const struct sim_gpu *g, const struct sim_gi_profile *p) {
  unsigned used = gi_used_mask(g);
  unsigned have = gi_count_profile(g, p->id);
  int ofa = gi_ofa_used(g);
  unsigned n = 0;
  while (have + n < p->instances && g->ngi + n < SIM_MAX_GIS && !(p->ofa > 0 && ofa)) {
    int i = driver_free(g->model, p, used);
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

/*
 * A compute instance without a placement: the free placement that leaves the most
 * compute-instance placements of the GPU instance (all its CI profiles) free, ties to the highest
 * start (a lone 1-slice CI in a 3-slice GPU instance goes to 2:1, so a 2-slice one fits at 0:2,
 * as drivers from 525 on do). -1 if none is free.
 */
static int ci_best_free(const struct sim_gi_profile *gp, const struct sim_placement *pl, unsigned n,
                        unsigned used) {
  int best = -1;
  unsigned best_score = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned mask = range_mask(pl[i].start, pl[i].size);
    if (mask & used) continue;
    unsigned score = 0;
    for (unsigned j = 0; j < gp->nci; j++) {
      struct sim_placement other[SIM_MAX_PLACEMENTS];
      unsigned m = ci_placements_in(gp->slices, &gp->ci[j], other);
      for (unsigned k = 0; k < m; k++)
        if (!(range_mask(other[k].start, other[k].size) & (used | mask))) score++;
    }
    if (best < 0 || score > best_score || (score == best_score && pl[i].start > pl[best].start)) {
      best = (int)i;
      best_score = score;
    }
  }
  return best;
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
  int i = ci_best_free(gp, pl, n, used);
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
    int i = ci_best_free(gp, pl, n, used);
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
  unsigned id = sim_gi_id_for(g->model, pl);
  if (id == SIM_INVALID_ID || sim_gi_find(g, id) != NULL || g->ngi >= SIM_MAX_GIS) return NULL;
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
  sim_mig_uuid(st, idx, gi->id, ci->id, ci->uuid);
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

/*
 * MIG device indexes go in (GPU-instance id, compute-instance id) order. Fills out[] with the
 * compute instances of the GPU in that order; returns how many.
 */
static unsigned mig_order(const struct sim_gpu *g, const struct sim_gi **gis, const struct sim_ci **cis) {
  unsigned n = 0;
  unsigned last_gi = 0;
  int have_gi = 0;
  for (unsigned round = 0; round < g->ngi; round++) {
    const struct sim_gi *next = NULL;
    for (unsigned i = 0; i < g->ngi; i++) {
      const struct sim_gi *gi = &g->gi[i];
      if (have_gi && gi->id <= last_gi) continue;
      if (next == NULL || gi->id < next->id) next = gi;
    }
    if (next == NULL) break;
    have_gi = 1;
    last_gi = next->id;
    unsigned last_ci = 0;
    for (unsigned k = 0; k < next->nci; k++) {
      const struct sim_ci *pick = NULL;
      for (unsigned j = 0; j < next->nci; j++) {
        const struct sim_ci *ci = &next->ci[j];
        if (k > 0 && ci->id <= last_ci) continue;
        if (pick == NULL || ci->id < pick->id) pick = ci;
      }
      last_ci = pick->id;
      gis[n] = next;
      cis[n] = pick;
      n++;
    }
  }
  return n;
}

int sim_mig_index(const struct sim_gpu *g, const struct sim_gi *gi, const struct sim_ci *ci) {
  const struct sim_gi *gis[SIM_MAX_GIS * SIM_MAX_CIS];
  const struct sim_ci *cis[SIM_MAX_GIS * SIM_MAX_CIS];
  unsigned n = mig_order(g, gis, cis);
  for (unsigned i = 0; i < n; i++)
    if (gis[i] == gi && cis[i] == ci) return (int)i;
  return -1;
}

int sim_mig_at(struct sim_gpu *g, unsigned index, struct sim_gi **gi, struct sim_ci **ci) {
  const struct sim_gi *gis[SIM_MAX_GIS * SIM_MAX_CIS];
  const struct sim_ci *cis[SIM_MAX_GIS * SIM_MAX_CIS];
  unsigned n = mig_order(g, gis, cis);
  if (index >= n) return -1;
  /* the arrays point into g, which the caller may change */
  *gi = &g->gi[gis[index] - g->gi];
  *ci = &(*gi)->ci[cis[index] - (*gi)->ci];
  return 0;
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
