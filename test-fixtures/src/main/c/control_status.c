/* `status` output of the control function: a human table or JSON (schema in README.md). */
#include <stdio.h>
#include <string.h>

#include "sim.h"

static void proc_name(const struct sim_proc *p, char *out, size_t len) {
  if (p->name[0] != '\0') {
    snprintf(out, len, "%s", p->name);
    return;
  }
  out[0] = '\0';
  char path[64];
  snprintf(path, sizeof(path), "/proc/%u/comm", p->pid);
  FILE *f = fopen(path, "re");
  if (f == NULL) return;
  if (fgets(out, (int)len, f) == NULL) out[0] = '\0';
  fclose(f);
  out[strcspn(out, "\n")] = '\0';
}

static const char *mode_word(unsigned m) { return m == NVML_DEVICE_MIG_ENABLE ? "enabled" : "disabled"; }

static void status_text(const struct sim_state *st, int exists, struct sbuf *b) {
  const char *path = sim_state_path();
  if (!exists) {
    sb_printf(b, "state: %s (not configured)\nno GPUs configured (nvml-sim init --gpus MODEL[,MODEL...])\n",
              path ? path : "in memory");
    return;
  }
  sb_printf(b, "state: %s, seed 0x%016llx\n", path ? path : "in memory", st->seed);
  for (unsigned i = 0; i < st->ngpus; i++) {
    const struct sim_gpu *g = &st->gpu[i];
    char uuid[SIM_UUID_LEN];
    sim_gpu_uuid(st, i, uuid);
    sb_printf(b, "GPU %u  %-15s %s  00000000:%02X:00.0  ", i, g->model->key, uuid, sim_pci_bus(i));
    if (!g->model->mig) sb_printf(b, "MIG not supported");
    else if (g->mig_current == g->mig_pending) sb_printf(b, "MIG %s", mode_word(g->mig_current));
    else sb_printf(b, "MIG %s (pending %s)", mode_word(g->mig_current), mode_word(g->mig_pending));
    sb_printf(b, "%s\n", g->passthrough ? "  passthrough" : "");
    for (unsigned j = 0; j < g->ngi; j++) {
      const struct sim_gi *gi = &g->gi[j];
      char prof[48];
      sim_mig_profile_name(g, gi, NULL, prof, sizeof(prof));
      sb_printf(b, "  GI %-3u profile %-3u %-14s placement %u:%u\n", gi->id, gi->profile_id, prof, gi->start,
                gi->size);
      for (unsigned k = 0; k < gi->nci; k++) {
        const struct sim_ci *ci = &gi->ci[k];
        sim_mig_profile_name(g, gi, ci, prof, sizeof(prof));
        sb_printf(b, "    CI %-3u profile %-3u %-14s placement %u:%u  %s\n", ci->id, ci->profile_id, prof,
                  ci->start, ci->size, ci->uuid);
      }
    }
    for (unsigned j = 0; j < st->nprocs; j++) {
      const struct sim_proc *p = &st->procs[j];
      if (p->gpu != i) continue;
      char name[SIM_NAME_LEN];
      proc_name(p, name, sizeof(name));
      if (p->holder) {
        sb_printf(b, "  pid %-8u holder   %s\n", p->pid, name);
      } else if (p->gi == SIM_INVALID_ID) {
        sb_printf(b, "  pid %-8u compute  %llu MiB  %s\n", p->pid, p->mem_mib, name);
      } else {
        sb_printf(b, "  pid %-8u compute  GI %u CI %u  %llu MiB  %s\n", p->pid, p->gi, p->ci, p->mem_mib, name);
      }
    }
  }
  if (st->ngpus == 0) sb_printf(b, "no GPUs configured (nvml-sim init --gpus MODEL[,MODEL...])\n");
}

/* A small pretty-printing JSON writer: 2-space indentation, "key": value. */
struct jw {
  struct sbuf *b;
  int depth;
  int count[16];
};

static void jw_sep(struct jw *w, const char *key) {
  if (w->count[w->depth]++ > 0) sb_printf(w->b, ",");
  sb_printf(w->b, "\n%*s", 2 * w->depth, "");
  if (key != NULL) {
    sb_json_str(w->b, key);
    sb_printf(w->b, ": ");
  }
}

static void jw_open(struct jw *w, const char *key, char bracket) {
  if (w->depth == 0 && w->count[0] == 0 && key == NULL) {
    w->count[0] = 1;
  } else {
    jw_sep(w, key);
  }
  sb_printf(w->b, "%c", bracket);
  w->depth++;
  w->count[w->depth] = 0;
}

static void jw_close(struct jw *w, char bracket) {
  int had = w->count[w->depth] > 0;
  w->depth--;
  if (had) sb_printf(w->b, "\n%*s", 2 * w->depth, "");
  sb_printf(w->b, "%c", bracket);
}

static void jw_uint(struct jw *w, const char *key, unsigned long long v) {
  jw_sep(w, key);
  sb_printf(w->b, "%llu", v);
}

static void jw_id(struct jw *w, const char *key, unsigned v) {
  jw_sep(w, key);
  if (v == SIM_INVALID_ID) sb_printf(w->b, "null");
  else sb_printf(w->b, "%u", v);
}

static void jw_str(struct jw *w, const char *key, const char *v) {
  jw_sep(w, key);
  if (v == NULL) sb_printf(w->b, "null");
  else sb_json_str(w->b, v);
}

static void jw_bool(struct jw *w, const char *key, int v) {
  jw_sep(w, key);
  sb_printf(w->b, "%s", v ? "true" : "false");
}

static void jw_placement(struct jw *w, unsigned start, unsigned size) {
  jw_sep(w, "placement");
  sb_printf(w->b, "{\"start\": %u, \"size\": %u}", start, size);
}

static void json_gpu_instances(struct jw *w, const struct sim_gpu *g) {
  jw_open(w, "gpuInstances", '[');
  for (unsigned j = 0; j < g->ngi; j++) {
    const struct sim_gi *gi = &g->gi[j];
    const struct sim_gi_profile *gp = sim_gi_profile_of(g, gi);
    jw_open(w, NULL, '{');
    jw_uint(w, "id", gi->id);
    jw_uint(w, "profileId", gi->profile_id);
    jw_str(w, "profile", gp ? gp->name : "unknown");
    jw_placement(w, gi->start, gi->size);
    jw_uint(w, "memoryMiB", gp ? gp->mem_mib : 0ull);
    jw_open(w, "computeInstances", '[');
    for (unsigned k = 0; k < gi->nci; k++) {
      const struct sim_ci *ci = &gi->ci[k];
      char prof[48];
      sim_mig_profile_name(g, gi, ci, prof, sizeof(prof));
      jw_open(w, NULL, '{');
      jw_uint(w, "id", ci->id);
      jw_uint(w, "profileId", ci->profile_id);
      jw_str(w, "profile", prof);
      jw_placement(w, ci->start, ci->size);
      jw_str(w, "uuid", ci->uuid);
      jw_uint(w, "migDeviceIndex", (unsigned long long)sim_mig_index(g, gi, ci));
      jw_close(w, '}');
    }
    jw_close(w, ']');
    jw_close(w, '}');
  }
  jw_close(w, ']');
}

static void json_processes(struct jw *w, const struct sim_state *st, unsigned idx) {
  jw_open(w, "processes", '[');
  for (unsigned j = 0; j < st->nprocs; j++) {
    const struct sim_proc *p = &st->procs[j];
    if (p->gpu != idx) continue;
    char name[SIM_NAME_LEN];
    proc_name(p, name, sizeof(name));
    jw_open(w, NULL, '{');
    jw_uint(w, "pid", p->pid);
    jw_str(w, "name", name[0] ? name : NULL);
    jw_id(w, "gpuInstanceId", p->gi);
    jw_id(w, "computeInstanceId", p->ci);
    jw_uint(w, "memoryMiB", p->mem_mib);
    jw_bool(w, "holder", p->holder);
    jw_close(w, '}');
  }
  jw_close(w, ']');
}

static void status_json(const struct sim_state *st, int exists, struct sbuf *b) {
  struct jw w = {b, 0, {0}};
  char buf[64];
  jw_open(&w, NULL, '{');
  jw_uint(&w, "formatVersion", SIM_STATE_FORMAT);
  jw_str(&w, "stateFile", sim_state_path());
  jw_bool(&w, "configured", exists);
  snprintf(buf, sizeof(buf), "0x%016llx", st->seed);
  jw_str(&w, "seed", exists ? buf : NULL);
  jw_open(&w, "gpus", '[');
  for (unsigned i = 0; exists && i < st->ngpus; i++) {
    const struct sim_gpu *g = &st->gpu[i];
    char uuid[SIM_UUID_LEN];
    sim_gpu_uuid(st, i, uuid);
    jw_open(&w, NULL, '{');
    jw_uint(&w, "index", i);
    jw_uint(&w, "minor", g->minor);
    jw_str(&w, "model", g->model->key);
    jw_str(&w, "name", g->model->name);
    jw_str(&w, "uuid", uuid);
    snprintf(buf, sizeof(buf), "00000000:%02X:00.0", sim_pci_bus(i));
    jw_str(&w, "pciBusId", buf);
    snprintf(buf, sizeof(buf), "0x%08X", g->model->pci);
    jw_str(&w, "pciDeviceId", buf);
    jw_uint(&w, "memoryMiB", g->model->mem_mib);
    jw_bool(&w, "migCapable", g->model->mig);
    jw_sep(&w, "migMode");
    if (g->model->mig)
      sb_printf(b, "{\"current\": %s, \"pending\": %s}", g->mig_current ? "true" : "false",
                g->mig_pending ? "true" : "false");
    else
      sb_printf(b, "null");
    jw_bool(&w, "passthrough", g->passthrough);
    jw_uint(&w, "computeMode", g->compute_mode);
    json_gpu_instances(&w, g);
    json_processes(&w, st, i);
    jw_close(&w, '}');
  }
  jw_close(&w, ']');
  jw_open(&w, "xids", '[');
  for (unsigned i = 0; i < st->nxids; i++) {
    const struct sim_xid *x = &st->xids[i];
    jw_open(&w, NULL, '{');
    jw_uint(&w, "sequence", x->seq);
    jw_uint(&w, "gpu", x->gpu);
    jw_id(&w, "gpuInstanceId", x->gi);
    jw_uint(&w, "xid", x->code);
    jw_close(&w, '}');
  }
  jw_close(&w, ']');
  jw_close(&w, '}');
  sb_printf(b, "\n");
}

int sim_control_status(struct sim_state *st, int exists, int json, struct sbuf *out) {
  if (json) status_json(st, exists, out);
  else status_text(st, exists, out);
  return out->oom ? 1 : 0;
}
