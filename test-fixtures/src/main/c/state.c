/* The simulated node's state: creation, identities (UUIDs, PCI ids) and the text file format. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static uint64_t key_hash(const char *s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (; *s; s++) {
    h ^= (uint64_t)(unsigned char)toupper((unsigned char)*s);
    h *= 0x100000001B3ull;
  }
  return h;
}

static void format_uuid(const char *prefix, uint64_t a, uint64_t b, char out[SIM_UUID_LEN]) {
  snprintf(out, SIM_UUID_LEN, "%s-%08x-%04x-%04x-%04x-%012llx", prefix, (unsigned)(a >> 32),
           (unsigned)((a >> 16) & 0xFFFF), (unsigned)(a & 0xFFFF), (unsigned)(b >> 48),
           (unsigned long long)(b & 0xFFFFFFFFFFFFull));
}

void sim_gpu_uuid(const struct sim_state *st, unsigned idx, char out[SIM_UUID_LEN]) {
  uint64_t a = mix64(st->seed ^ mix64(0x4750550000000000ull + idx) ^ key_hash(st->gpu[idx].model->key));
  uint64_t b = mix64(a ^ 0x5555AAAA33336666ull);
  format_uuid("GPU", a, b, out);
}

static int hex_nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/*
 * As on real drivers, a MIG device's UUID depends only on its GPU and its (GPU-instance id,
 * compute-instance id): RFC 4122 section 4.3 name-based UUID with SHA-1 (version 5), namespace =
 * the 16 bytes of the GPU's UUID, name = "<gi>/<ci>" in ASCII.
 */
void sim_mig_uuid(const struct sim_state *st, unsigned idx, unsigned gi, unsigned ci,
                  char out[SIM_UUID_LEN]) {
  char gpu[SIM_UUID_LEN];
  sim_gpu_uuid(st, idx, gpu);
  unsigned char buf[16 + 32];
  unsigned n = 0;
  for (const char *p = gpu + 4; *p != '\0' && n < 16; p++) {
    if (*p == '-') continue;
    int hi = hex_nibble(p[0]), lo = hex_nibble(p[1]);
    if (hi < 0 || lo < 0) break;
    buf[n++] = (unsigned char)(hi << 4 | lo);
    p++;
  }
  int name_len = snprintf((char *)buf + 16, sizeof(buf) - 16, "%u/%u", gi, ci);
  unsigned char h[20];
  sim_sha1(buf, 16 + (size_t)name_len, h);
  h[6] = (unsigned char)((h[6] & 0x0F) | 0x50); /* version 5 */
  h[8] = (unsigned char)((h[8] & 0x3F) | 0x80); /* RFC 4122 variant */
  snprintf(out, SIM_UUID_LEN,
           "MIG-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", h[0], h[1],
           h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], h[13], h[14], h[15]);
}

/* PCI bus number of GPU idx: 0x07, 0x17, ..., 0xF7 (ascending, like NVML's index order). */
unsigned sim_pci_bus(unsigned idx) { return 0x10u * idx + 0x07u; }

unsigned long long sim_next_serial(struct sim_state *st) { return ++st->serial; }

void sim_state_reset(struct sim_state *st) { memset(st, 0, sizeof(*st)); }

int sim_parse_model_list(const char *csv, const struct sim_model **out, unsigned *n, char *err,
                         size_t errlen) {
  *n = 0;
  if (sim_models_error() != NULL) {
    snprintf(err, errlen, "%s", sim_models_error());
    return -1;
  }
  const char *p = csv;
  while (1) {
    while (*p == ' ' || *p == '\t') p++;
    const char *end = p;
    while (*end && *end != ',') end++;
    const char *tail = end;
    while (tail > p && (tail[-1] == ' ' || tail[-1] == '\t')) tail--;
    char key[64];
    size_t len = (size_t)(tail - p);
    if (len == 0 || len >= sizeof(key)) {
      snprintf(err, errlen, "empty or overlong model name in GPU list \"%s\"", csv);
      return -1;
    }
    memcpy(key, p, len);
    key[len] = '\0';
    const struct sim_model *m = sim_model_find(key);
    if (m == NULL) {
      char known[512] = "";
      for (unsigned i = 0; i < sim_model_count(); i++) {
        if (i) strncat(known, ", ", sizeof(known) - strlen(known) - 1);
        strncat(known, sim_model_at(i)->key, sizeof(known) - strlen(known) - 1);
      }
      snprintf(err, errlen, "unknown GPU model \"%s\" (known: %s)", key, known);
      return -1;
    }
    if (*n >= SIM_MAX_GPUS) {
      snprintf(err, errlen, "too many GPUs (at most %d)", SIM_MAX_GPUS);
      return -1;
    }
    out[(*n)++] = m;
    if (*end == '\0') break;
    p = end + 1;
  }
  return 0;
}

void sim_models_str(const struct sim_model *const *m, unsigned n, char *buf, size_t len) {
  if (len == 0) return;
  buf[0] = '\0';
  for (unsigned i = 0; i < n; i++) {
    if (i) strncat(buf, ",", len - strlen(buf) - 1);
    strncat(buf, m[i]->key, len - strlen(buf) - 1);
  }
}

void sim_state_models_str(const struct sim_state *st, char *buf, size_t len) {
  const struct sim_model *m[SIM_MAX_GPUS];
  for (unsigned i = 0; i < st->ngpus; i++) m[i] = st->gpu[i].model;
  sim_models_str(m, st->ngpus, buf, len);
}

int sim_state_create(struct sim_state *st, const char *models_csv, unsigned long long seed,
                     const struct sim_state *previous, char *err, size_t errlen) {
  const struct sim_model *m[SIM_MAX_GPUS];
  unsigned n;
  if (sim_parse_model_list(models_csv, m, &n, err, errlen) != 0) return -1;
  unsigned long long serial = previous ? previous->serial : 0;
  unsigned long long xid_seq = previous ? previous->xid_seq : 0;
  sim_state_reset(st);
  st->seed = seed;
  st->serial = serial;
  st->xid_seq = xid_seq;
  st->ngpus = n;
  for (unsigned i = 0; i < n; i++) {
    st->gpu[i].model = m[i];
    st->gpu[i].minor = i;
    st->gpu[i].serial = sim_next_serial(st);
  }
  return 0;
}

/* ---- file format ---- */

int sim_state_format(const struct sim_state *st, struct sbuf *b) {
  sb_printf(b, "nvml-sim-state %d\n", SIM_STATE_FORMAT);
  sb_printf(b, "# simulated NVML node; written by libnvidia-ml.so.1 (test-fixtures), do not edit\n");
  sb_printf(b, "seed 0x%016llx\nserial %llu\nxidseq %llu\n", st->seed, st->serial, st->xid_seq);
  for (unsigned i = 0; i < st->ngpus; i++) {
    const struct sim_gpu *g = &st->gpu[i];
    sb_printf(b,
              "gpu index=%u model=%s serial=%llu mig=%u pending=%u passthrough=%d computemode=%u "
              "minor=%u\n",
              i, g->model->key, g->serial, g->mig_current, g->mig_pending, g->passthrough,
              g->compute_mode, g->minor);
    for (unsigned j = 0; j < g->ngi; j++) {
      const struct sim_gi *gi = &g->gi[j];
      sb_printf(b, "gi gpu=%u id=%u profile=%u start=%u size=%u serial=%llu\n", i, gi->id,
                gi->profile_id, gi->start, gi->size, gi->serial);
      for (unsigned k = 0; k < gi->nci; k++) {
        const struct sim_ci *ci = &gi->ci[k];
        sb_printf(b,
                  "ci gpu=%u gi=%u id=%u profile=%u start=%u size=%u serial=%llu computemode=%u uuid=%s\n",
                  i, gi->id, ci->id, ci->profile_id, ci->start, ci->size, ci->serial,
                  ci->compute_mode, ci->uuid);
      }
    }
  }
  for (unsigned i = 0; i < st->nprocs; i++) {
    const struct sim_proc *p = &st->procs[i];
    sb_printf(b, "proc pid=%u gpu=%u gi=%u ci=%u mem=%llu holder=%d name=%s\n", p->pid, p->gpu, p->gi,
              p->ci, p->mem_mib, p->holder, p->name);
  }
  for (unsigned i = 0; i < st->nxids; i++) {
    const struct sim_xid *x = &st->xids[i];
    sb_printf(b, "xid seq=%llu gpu=%u gi=%u code=%u\n", x->seq, x->gpu, x->gi, x->code);
  }
  return b->oom ? -1 : 0;
}

struct fields {
  unsigned n;
  char *key[16];
  char *val[16];
};

/* Splits "k=v k=v ... name=rest of line". */
static int split_fields(char *s, struct fields *f) {
  f->n = 0;
  while (*s) {
    while (*s == ' ') s++;
    if (*s == '\0') break;
    char *eq = strchr(s, '=');
    if (eq == NULL || f->n >= 16) return -1;
    *eq = '\0';
    f->key[f->n] = s;
    f->val[f->n] = eq + 1;
    f->n++;
    if (strcmp(s, "name") == 0) break; /* the name takes the rest of the line */
    char *sp = strchr(eq + 1, ' ');
    if (sp == NULL) break;
    *sp = '\0';
    s = sp + 1;
  }
  return 0;
}

static const char *fget(const struct fields *f, const char *key) {
  for (unsigned i = 0; i < f->n; i++)
    if (strcmp(f->key[i], key) == 0) return f->val[i];
  return NULL;
}

static int fnum(const struct fields *f, const char *key, unsigned *out) {
  return sim_parse_uint(fget(f, key), out) == 0 ? 0 : -1;
}

static int fnum64(const struct fields *f, const char *key, unsigned long long *out) {
  const char *v = fget(f, key);
  return v != NULL && sim_parse_u64(v, out) == 0 ? 0 : -1;
}

static int cmp_gi(const void *a, const void *b) {
  const struct sim_gi *x = a, *y = b;
  return (x->start > y->start) - (x->start < y->start);
}

static int cmp_ci(const void *a, const void *b) {
  const struct sim_ci *x = a, *y = b;
  return (x->start > y->start) - (x->start < y->start);
}

static int parse_line(struct sim_state *st, char *line) {
  char *sp = strchr(line, ' ');
  if (sp == NULL) return -1;
  *sp = '\0';
  char *rest = sp + 1;
  if (strcmp(line, "seed") == 0) return sim_parse_u64(rest, &st->seed);
  if (strcmp(line, "serial") == 0) return sim_parse_u64(rest, &st->serial);
  if (strcmp(line, "xidseq") == 0) return sim_parse_u64(rest, &st->xid_seq);
  struct fields f;
  if (split_fields(rest, &f) != 0) return -1;
  if (strcmp(line, "gpu") == 0) {
    unsigned idx;
    const char *model = fget(&f, "model");
    if (fnum(&f, "index", &idx) || idx != st->ngpus || idx >= SIM_MAX_GPUS || model == NULL) return -1;
    struct sim_gpu *g = &st->gpu[idx];
    g->model = sim_model_find(model);
    if (g->model == NULL || fnum64(&f, "serial", &g->serial) || fnum(&f, "mig", &g->mig_current) ||
        fnum(&f, "pending", &g->mig_pending) || fnum(&f, "computemode", &g->compute_mode))
      return -1;
    unsigned pt;
    if (fnum(&f, "passthrough", &pt)) return -1;
    g->passthrough = pt != 0;
    /* minor= came later: a state file without it keeps the index */
    if (fget(&f, "minor") == NULL) g->minor = idx;
    else if (fnum(&f, "minor", &g->minor)) return -1;
    st->ngpus++;
    return 0;
  }
  if (strcmp(line, "gi") == 0) {
    unsigned idx;
    if (fnum(&f, "gpu", &idx) || idx >= st->ngpus) return -1;
    struct sim_gpu *g = &st->gpu[idx];
    if (g->ngi >= SIM_MAX_GIS) return -1;
    struct sim_gi *gi = &g->gi[g->ngi];
    memset(gi, 0, sizeof(*gi));
    if (fnum(&f, "id", &gi->id) || fnum(&f, "profile", &gi->profile_id) || fnum(&f, "start", &gi->start) ||
        fnum(&f, "size", &gi->size) || fnum64(&f, "serial", &gi->serial) ||
        sim_gi_profile_by_id(g->model, gi->profile_id) == NULL || sim_gi_find(g, gi->id) != NULL ||
        gi->size == 0 || gi->start >= g->model->mem_slices || gi->size > g->model->mem_slices - gi->start)
      return -1;
    g->ngi++;
    return 0;
  }
  if (strcmp(line, "ci") == 0) {
    unsigned idx, giid;
    const char *uuid = fget(&f, "uuid");
    if (fnum(&f, "gpu", &idx) || idx >= st->ngpus || fnum(&f, "gi", &giid) || uuid == NULL ||
        strlen(uuid) >= SIM_UUID_LEN)
      return -1;
    struct sim_gi *gi = sim_gi_find(&st->gpu[idx], giid);
    if (gi == NULL || gi->nci >= SIM_MAX_CIS) return -1;
    struct sim_ci *ci = &gi->ci[gi->nci];
    memset(ci, 0, sizeof(*ci));
    const struct sim_gi_profile *gp = sim_gi_profile_by_id(st->gpu[idx].model, gi->profile_id);
    if (fnum(&f, "id", &ci->id) || fnum(&f, "profile", &ci->profile_id) || fnum(&f, "start", &ci->start) ||
        fnum(&f, "size", &ci->size) || fnum64(&f, "serial", &ci->serial) ||
        fnum(&f, "computemode", &ci->compute_mode) || sim_ci_profile_by_id(gp, ci->profile_id) == NULL ||
        sim_ci_find(gi, ci->id) != NULL || ci->size == 0 || ci->start >= gp->slices ||
        ci->size > gp->slices - ci->start)
      return -1;
    strcpy(ci->uuid, uuid);
    gi->nci++;
    return 0;
  }
  if (strcmp(line, "proc") == 0) {
    if (st->nprocs >= SIM_MAX_PROCS) return -1;
    struct sim_proc *p = &st->procs[st->nprocs];
    memset(p, 0, sizeof(*p));
    unsigned holder;
    const char *name = fget(&f, "name");
    if (fnum(&f, "pid", &p->pid) || fnum(&f, "gpu", &p->gpu) || p->gpu >= st->ngpus ||
        fnum(&f, "gi", &p->gi) || fnum(&f, "ci", &p->ci) || fnum64(&f, "mem", &p->mem_mib) ||
        fnum(&f, "holder", &holder) || name == NULL)
      return -1;
    p->holder = holder != 0;
    snprintf(p->name, sizeof(p->name), "%s", name);
    st->nprocs++;
    return 0;
  }
  if (strcmp(line, "xid") == 0) {
    if (st->nxids >= SIM_MAX_XIDS) return -1;
    struct sim_xid *x = &st->xids[st->nxids];
    if (fnum64(&f, "seq", &x->seq) || fnum(&f, "gpu", &x->gpu) || fnum(&f, "gi", &x->gi) ||
        fnum(&f, "code", &x->code))
      return -1;
    st->nxids++;
    return 0;
  }
  return -1;
}

int sim_state_parse(struct sim_state *st, const char *text, char *err, size_t errlen) {
  sim_state_reset(st);
  if (sim_models_error() != NULL) {
    snprintf(err, errlen, "%s", sim_models_error());
    return -1;
  }
  char *copy = strdup(text);
  if (copy == NULL) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  unsigned lineno = 0;
  int seen_header = 0, rc = 0;
  char *save = NULL;
  for (char *line = strtok_r(copy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\0') continue;
    if (!seen_header) {
      int ver = 0;
      if (sscanf(line, "nvml-sim-state %d", &ver) != 1 || ver != SIM_STATE_FORMAT) {
        snprintf(err, errlen, "not an nvml-sim state file of format %d (first line: \"%.60s\")",
                 SIM_STATE_FORMAT, line);
        rc = -1;
        break;
      }
      seen_header = 1;
      continue;
    }
    if (parse_line(st, line) != 0) {
      snprintf(err, errlen, "corrupt state file at line %u", lineno);
      rc = -1;
      break;
    }
  }
  free(copy);
  if (rc == 0 && !seen_header) {
    snprintf(err, errlen, "empty state file");
    rc = -1;
  }
  if (rc != 0) {
    sim_state_reset(st);
    return -1;
  }
  for (unsigned i = 0; i < st->ngpus; i++) {
    struct sim_gpu *g = &st->gpu[i];
    qsort(g->gi, g->ngi, sizeof(g->gi[0]), cmp_gi);
    for (unsigned j = 0; j < g->ngi; j++) qsort(g->gi[j].ci, g->gi[j].nci, sizeof(struct sim_ci), cmp_ci);
  }
  return 0;
}
