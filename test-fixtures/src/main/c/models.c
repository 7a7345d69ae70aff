/*
 * GPU model data. The data file profiles/.../gpu-models.tsv is embedded at compile time
 * (SIM_MODELS_TSV is its path as a C string literal, set by build-sim.sh) and parsed once.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#ifndef SIM_MODELS_TSV
#error "SIM_MODELS_TSV (the path of gpu-models.tsv, as a string literal) must be defined"
#endif

__asm__(".section .rodata\n"
        ".balign 16\n"
        ".globl sim_models_tsv_data\n"
        ".hidden sim_models_tsv_data\n"
        ".type sim_models_tsv_data, %object\n"
        "sim_models_tsv_data:\n"
        ".incbin \"" SIM_MODELS_TSV "\"\n"
        ".byte 0\n"
        ".size sim_models_tsv_data, . - sim_models_tsv_data\n"
        ".previous\n");

extern const char sim_models_tsv_data[] __attribute__((visibility("hidden")));

static pthread_once_t models_once = PTHREAD_ONCE_INIT;
static struct sim_model models[SIM_MAX_MODELS];
static unsigned nmodels;
static char models_err[256];

struct kv {
  const char *key;
  char *val;
};

static char *field_value(struct kv *kvs, unsigned n, const char *key) {
  for (unsigned i = 0; i < n; i++)
    if (strcmp(kvs[i].key, key) == 0) return kvs[i].val;
  return NULL;
}

static int num_field(struct kv *kvs, unsigned n, const char *key, unsigned *out) {
  char *v = field_value(kvs, n, key);
  return v != NULL && sim_parse_uint(v, out) == 0;
}

static struct sim_model *find_mutable(const char *key) {
  for (unsigned i = 0; i < nmodels; i++)
    if (sim_strcaseeq(models[i].key, key)) return &models[i];
  return NULL;
}

static int parse_placements(char *s, struct sim_gi_profile *g) {
  char *save = NULL;
  g->nplacements = 0;
  for (char *tok = strtok_r(s, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
    char *colon = strchr(tok, ':');
    if (colon == NULL || g->nplacements >= SIM_MAX_PLACEMENTS) return -1;
    *colon = '\0';
    struct sim_placement *p = &g->pl[g->nplacements++];
    if (sim_parse_uint(tok, &p->start) || sim_parse_uint(colon + 1, &p->size) || p->size == 0)
      return -1;
  }
  return g->nplacements > 0 ? 0 : -1;
}

/* Splits "k=v" fields after the positional ones; returns the number of pairs or -1. */
static int split_kv(char **fields, unsigned nf, unsigned first, struct kv *out, unsigned max) {
  unsigned n = 0;
  for (unsigned i = first; i < nf; i++) {
    char *eq = strchr(fields[i], '=');
    if (eq == NULL || n >= max) return -1;
    *eq = '\0';
    out[n].key = fields[i];
    out[n].val = eq + 1;
    n++;
  }
  return (int)n;
}

static int parse_model(char **f, unsigned nf) {
  struct kv kv[16];
  int n = split_kv(f, nf, 2, kv, 16);
  if (n < 0 || nmodels >= SIM_MAX_MODELS || find_mutable(f[1]) != NULL) return -1;
  struct sim_model *m = &models[nmodels];
  memset(m, 0, sizeof(*m));
  unsigned mem, mig;
  char *name = field_value(kv, (unsigned)n, "name");
  char *pci = field_value(kv, (unsigned)n, "pci");
  char *cc = field_value(kv, (unsigned)n, "cc");
  char *gi_ids = field_value(kv, (unsigned)n, "gi_ids");
  if (gi_ids == NULL) return -1;
  if (strcmp(gi_ids, "none") == 0) m->gi_ids = SIM_GI_IDS_NONE;
  else if (strcmp(gi_ids, "direct") == 0) m->gi_ids = SIM_GI_IDS_DIRECT;
  else if (strcmp(gi_ids, "swapped") == 0) m->gi_ids = SIM_GI_IDS_SWAPPED;
  else if (strcmp(gi_ids, "a30") == 0) m->gi_ids = SIM_GI_IDS_A30;
  else return -1;
  if (name == NULL || pci == NULL || cc == NULL || strlen(f[1]) >= sizeof(m->key) ||
      strlen(name) >= sizeof(m->name) || !num_field(kv, (unsigned)n, "arch", &m->arch) ||
      !num_field(kv, (unsigned)n, "memory_mib", &mem) || !num_field(kv, (unsigned)n, "sm", &m->sm) ||
      !num_field(kv, (unsigned)n, "mig", &mig) ||
      !num_field(kv, (unsigned)n, "memory_slices", &m->mem_slices) || sim_parse_uint(pci, &m->pci))
    return -1;
  if (sscanf(cc, "%d.%d", &m->cc_major, &m->cc_minor) != 2) return -1;
  strcpy(m->key, f[1]);
  strcpy(m->name, name);
  m->mem_mib = mem;
  m->mig = mig != 0;
  if (m->mig && (m->mem_slices == 0 || m->mem_slices > 31)) return -1;
  if (m->mig != (m->gi_ids != SIM_GI_IDS_NONE)) return -1;
  nmodels++;
  return 0;
}

static int parse_gi(char **f, unsigned nf) {
  struct kv kv[16];
  struct sim_model *m = nf > 3 ? find_mutable(f[1]) : NULL;
  int n = split_kv(f, nf, 3, kv, 16);
  if (m == NULL || n < 0 || !m->mig || m->ngi >= SIM_MAX_GI_PROFILES ||
      strlen(f[2]) >= sizeof(m->gi[0].name))
    return -1;
  struct sim_gi_profile *g = &m->gi[m->ngi];
  memset(g, 0, sizeof(*g));
  unsigned mem;
  unsigned nk = (unsigned)n;
  char *pl = field_value(kv, nk, "placements");
  if (!num_field(kv, nk, "index", &g->index) || !num_field(kv, nk, "id", &g->id) ||
      !num_field(kv, nk, "slices", &g->slices) || !num_field(kv, nk, "instances", &g->instances) ||
      !num_field(kv, nk, "memory_mib", &mem) || !num_field(kv, nk, "sm", &g->sm) ||
      !num_field(kv, nk, "ce", &g->ce) || !num_field(kv, nk, "dec", &g->dec) ||
      !num_field(kv, nk, "enc", &g->enc) || !num_field(kv, nk, "jpg", &g->jpg) ||
      !num_field(kv, nk, "ofa", &g->ofa) || pl == NULL || parse_placements(pl, g) != 0)
    return -1;
  if (g->index >= NVML_GPU_INSTANCE_PROFILE_COUNT || g->slices == 0 ||
      sim_gi_profile_by_index(m, g->index) != NULL || sim_gi_profile_by_id(m, g->id) != NULL)
    return -1;
  for (unsigned i = 0; i < g->nplacements; i++)
    if (g->pl[i].start + g->pl[i].size > m->mem_slices) return -1;
  strcpy(g->name, f[2]);
  g->mem_mib = mem;
  if (g->slices > m->compute_slices) m->compute_slices = g->slices;
  m->ngi++;
  return 0;
}

static int parse_ci(char **f, unsigned nf) {
  struct kv kv[16];
  struct sim_model *m = nf > 3 ? find_mutable(f[1]) : NULL;
  unsigned gid;
  if (m == NULL || sim_parse_uint(f[2], &gid)) return -1;
  struct sim_gi_profile *g = (struct sim_gi_profile *)sim_gi_profile_by_id(m, gid);
  int n = split_kv(f, nf, 3, kv, 16);
  if (g == NULL || n < 0 || g->nci >= SIM_MAX_CI_PROFILES) return -1;
  struct sim_ci_profile *c = &g->ci[g->nci];
  unsigned nk = (unsigned)n;
  if (!num_field(kv, nk, "index", &c->index) || !num_field(kv, nk, "id", &c->id) ||
      !num_field(kv, nk, "slices", &c->slices) || !num_field(kv, nk, "instances", &c->instances) ||
      !num_field(kv, nk, "sm", &c->sm))
    return -1;
  if (c->index >= NVML_COMPUTE_INSTANCE_PROFILE_COUNT || c->slices == 0 ||
      c->slices > g->slices || c->instances == 0 || sim_ci_profile_by_index(g, c->index) != NULL ||
      sim_ci_profile_by_id(g, c->id) != NULL)
    return -1;
  g->nci++;
  return 0;
}

/* Parses model records from text (modified in place); 0, or -1 with models_err set. */
static int parse_records(char *text, const char *source) {
  unsigned lineno = 0;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
    lineno++;
    size_t len = strlen(line);
    while (len > 0 && isspace((unsigned char)line[len - 1])) line[--len] = '\0';
    if (len == 0 || line[0] == '#') continue;
    char *fields[24];
    unsigned nf = 0;
    for (char *p = line; nf < 24;) {
      fields[nf++] = p;
      char *bar = strchr(p, '|');
      if (bar == NULL) break;
      *bar = '\0';
      p = bar + 1;
    }
    int r = -1;
    if (nf >= 2 && strcmp(fields[0], "model") == 0) r = parse_model(fields, nf);
    else if (nf >= 3 && strcmp(fields[0], "gi") == 0) r = parse_gi(fields, nf);
    else if (nf >= 3 && strcmp(fields[0], "ci") == 0) r = parse_ci(fields, nf);
    if (r != 0) {
      snprintf(models_err, sizeof(models_err), "%s: bad or inconsistent record on data line %u",
               source, lineno);
      return -1;
    }
  }
  return 0;
}

/* The text of the file NVML_SIM_MODELS names (malloc'd), or NULL with models_err set. */
static char *read_models_file(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    snprintf(models_err, sizeof(models_err), "NVML_SIM_MODELS: cannot read %.200s", path);
    return NULL;
  }
  size_t cap = 4096, len = 0;
  char *text = malloc(cap);
  while (text != NULL) {
    size_t n = fread(text + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) break;
    if (len + 1 == cap) {
      char *more = realloc(text, cap * 2);
      if (more == NULL) {
        free(text);
        text = NULL;
        break;
      }
      text = more;
      cap *= 2;
    }
  }
  int failed = ferror(f);
  fclose(f);
  if (text == NULL || failed) {
    free(text);
    snprintf(models_err, sizeof(models_err), "NVML_SIM_MODELS: cannot read %.200s", path);
    return NULL;
  }
  text[len] = '\0';
  return text;
}

static void parse_all(void) {
  char *text = strdup(sim_models_tsv_data);
  if (text == NULL) {
    snprintf(models_err, sizeof(models_err), "out of memory parsing the model data");
    return;
  }
  int r = parse_records(text, "embedded gpu-models.tsv");
  free(text);
  /* more models, in the same format, for tests: a driver whose profiles differ from migd's
     catalogue (same PCI id, other profiles), or a MIG model migd does not know */
  const char *extra = getenv("NVML_SIM_MODELS");
  if (r == 0 && extra != NULL && extra[0] != '\0') {
    text = read_models_file(extra);
    if (text == NULL || parse_records(text, "NVML_SIM_MODELS") != 0) nmodels = 0;
    free(text);
  }
  if (r != 0) nmodels = 0;
  for (unsigned i = 0; i < nmodels && models_err[0] == '\0'; i++) {
    const struct sim_model *m = &models[i];
    if (m->mig && m->ngi == 0)
      snprintf(models_err, sizeof(models_err), "model %.31s has MIG but no GPU-instance profile", m->key);
    for (unsigned j = 0; j < m->ngi; j++) {
      if (m->gi[j].nci == 0)
        snprintf(models_err, sizeof(models_err), "model %.31s profile %.31s has no compute-instance profile",
                 m->key, m->gi[j].name);
      for (unsigned k = 0; k < m->gi[j].nplacements; k++)
        if (sim_gi_id_for(m, m->gi[j].pl[k]) == SIM_INVALID_ID)
          snprintf(models_err, sizeof(models_err),
                   "model %.31s profile %.31s: placement %u:%u has no GPU-instance id under gi_ids",
                   m->key, m->gi[j].name, m->gi[j].pl[k].start, m->gi[j].pl[k].size);
    }
  }
  if (models_err[0] == '\0' && nmodels == 0)
    snprintf(models_err, sizeof(models_err), "embedded gpu-models.tsv has no model");
  if (models_err[0] != '\0') nmodels = 0;
}

static void ensure_parsed(void) { pthread_once(&models_once, parse_all); }

const char *sim_models_error(void) {
  ensure_parsed();
  return models_err[0] ? models_err : NULL;
}

unsigned sim_model_count(void) {
  ensure_parsed();
  return nmodels;
}

const struct sim_model *sim_model_at(unsigned i) {
  ensure_parsed();
  return i < nmodels ? &models[i] : NULL;
}

const struct sim_model *sim_model_find(const char *key) {
  ensure_parsed();
  return find_mutable(key);
}

const struct sim_gi_profile *sim_gi_profile_by_id(const struct sim_model *m, unsigned id) {
  for (unsigned i = 0; i < m->ngi; i++)
    if (m->gi[i].id == id) return &m->gi[i];
  return NULL;
}

const struct sim_gi_profile *sim_gi_profile_by_index(const struct sim_model *m, unsigned index) {
  for (unsigned i = 0; i < m->ngi; i++)
    if (m->gi[i].index == index) return &m->gi[i];
  return NULL;
}

const struct sim_ci_profile *sim_ci_profile_by_id(const struct sim_gi_profile *g, unsigned id) {
  for (unsigned i = 0; i < g->nci; i++)
    if (g->ci[i].id == id) return &g->ci[i];
  return NULL;
}

const struct sim_ci_profile *sim_ci_profile_by_index(const struct sim_gi_profile *g, unsigned index) {
  for (unsigned i = 0; i < g->nci; i++)
    if (g->ci[i].index == index) return &g->ci[i];
  return NULL;
}
