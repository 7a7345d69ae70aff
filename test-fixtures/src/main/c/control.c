/*
 * nvmlsim_control: the simulator's own entry point (also behind the nvml-sim command).
 * Exit status: 0 done, 1 refused (with a sentence saying why), 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define USAGE_INIT "init --gpus MODEL[,MODEL...] [--seed S] [--keep]"
#define USAGE_STATUS "status [-o json|text]"
#define USAGE_ATTACH                                                       \
  "attach --gpu N [--gi ID [--ci ID]] --pid P --mem MIB [--name NAME]\n" \
  "   or: attach --gpu N --holder --pid P [--name NAME]"
#define USAGE_DETACH "detach --pid P"
#define USAGE_RESET "reset --gpu N"
#define USAGE_PASSTHROUGH "passthrough --gpu N on|off"
#define USAGE_MINOR "minor --gpu N MINOR"
#define USAGE_XID "xid --gpu N [--gi ID] --xid CODE"
#define USAGE_FAULTS "faults 'function[@I][#N]=NVML_ERROR_NAME|KILL;...'   (empty SPEC clears)"
#define USAGE_LATENCY "latency MS"
#define USAGE_STATE "state FILE|-"

static const char *const usage_all =
    "usage: nvml-sim [--state FILE] COMMAND ...\n"
    "commands:\n"
    "  " USAGE_INIT "\n"
    "  " USAGE_STATUS "\n"
    "  attach --gpu N [--gi ID [--ci ID]] --pid P --mem MIB [--name NAME]\n"
    "  attach --gpu N --holder --pid P [--name NAME]\n"
    "  " USAGE_DETACH "\n"
    "  " USAGE_RESET "\n"
    "  " USAGE_PASSTHROUGH "\n"
    "  " USAGE_MINOR "\n"
    "  " USAGE_XID "\n"
    "  " USAGE_FAULTS "\n"
    "  " USAGE_LATENCY "\n"
    "  " USAGE_STATE "\n"
    "  models\n"
    "  help\n";

struct args {
  unsigned nopt, npos;
  char name[16][24];
  const char *value[16];
  const char *pos[8];
};

static int is_flag(const char *name) { return strcmp(name, "--keep") == 0 || strcmp(name, "--holder") == 0; }

static int usage(struct sbuf *o, const char *line, const char *why) {
  if (why) sb_printf(o, "%s\n", why);
  sb_printf(o, "usage: nvml-sim %s\n", line);
  return 2;
}

static int parse_args(int argc, const char **argv, struct args *a, struct sbuf *o, const char *line) {
  memset(a, 0, sizeof(*a));
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i] ? argv[i] : "";
    if (s[0] == '-' && s[1] != '\0') {
      if (a->nopt >= 16) return usage(o, line, "too many options");
      const char *eq = strchr(s, '=');
      size_t len = eq ? (size_t)(eq - s) : strlen(s);
      if (len >= sizeof(a->name[0])) return usage(o, line, "unknown option");
      memcpy(a->name[a->nopt], s, len);
      a->name[a->nopt][len] = '\0';
      if (eq) {
        a->value[a->nopt] = eq + 1;
      } else if (is_flag(a->name[a->nopt])) {
        a->value[a->nopt] = "";
      } else {
        if (i + 1 >= argc || argv[i + 1] == NULL) {
          char why[64];
          snprintf(why, sizeof(why), "option %s needs a value", a->name[a->nopt]);
          return usage(o, line, why);
        }
        a->value[a->nopt] = argv[++i];
      }
      a->nopt++;
    } else {
      if (a->npos >= 8) return usage(o, line, "too many arguments");
      a->pos[a->npos++] = s;
    }
  }
  return 0;
}

static const char *opt(const struct args *a, const char *name) {
  for (unsigned i = 0; i < a->nopt; i++)
    if (strcmp(a->name[i], name) == 0) return a->value[i];
  return NULL;
}

/* Every option must be one of allowed (NULL-terminated); npos_max positional arguments. */
static int check_args(const struct args *a, const char *const *allowed, unsigned npos_max, struct sbuf *o,
                      const char *line) {
  for (unsigned i = 0; i < a->nopt; i++) {
    int ok = 0;
    for (const char *const *p = allowed; *p && !ok; p++) ok = strcmp(*p, a->name[i]) == 0;
    for (unsigned j = 0; j < i && ok; j++) ok = strcmp(a->name[j], a->name[i]) != 0;
    if (!ok) {
      char why[64];
      snprintf(why, sizeof(why), "unknown or repeated option %s", a->name[i]);
      return usage(o, line, why);
    }
  }
  if (a->npos > npos_max) return usage(o, line, "unexpected argument");
  return 0;
}

/* Parses a required/optional unsigned option; 0 ok, 2 bad usage. */
static int num_opt(const struct args *a, const char *name, int required, unsigned *out, int *present,
                   struct sbuf *o, const char *line) {
  const char *v = opt(a, name);
  if (present) *present = v != NULL;
  if (v == NULL) {
    if (!required) return 0;
    char why[64];
    snprintf(why, sizeof(why), "missing %s", name);
    return usage(o, line, why);
  }
  if (sim_parse_uint(v, out) != 0) {
    char why[96];
    snprintf(why, sizeof(why), "%s must be a number, not \"%.40s\"", name, v);
    return usage(o, line, why);
  }
  return 0;
}

static int refuse(struct sbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct sbuf *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char msg[512];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  sb_printf(o, "%s\n", msg);
  return 1;
}

/* Opens the state for a command; returns 0, or 1 with a message. */
static int open_state(struct sim_ctx *c, int write, int autocreate, struct sbuf *o) {
  char err[320];
  if (sim_acquire(c, write, autocreate, err, sizeof(err)) != 0) return refuse(o, "%s", err);
  return 0;
}

static int close_state(struct sim_ctx *c, int status, struct sbuf *o) {
  char err[320];
  if (status == 0 && sim_commit(c, err, sizeof(err)) != 0) status = refuse(o, "%s", err);
  sim_release(c);
  return status;
}

static int need_gpu(struct sim_ctx *c, unsigned gpu, struct sbuf *o) {
  if (!c->exists || c->st->ngpus == 0)
    return refuse(o, "no simulated GPUs are configured (run: nvml-sim init --gpus MODELS)");
  if (gpu >= c->st->ngpus)
    return refuse(o, "there is no GPU %u (the simulated node has %u GPU%s)", gpu, c->st->ngpus,
                  c->st->ngpus == 1 ? "" : "s");
  return 0;
}

static int cmd_init(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"--gpus", "--seed", "--keep", NULL};
  int rc = check_args(a, allowed, 0, o, USAGE_INIT);
  if (rc) return rc;
  const char *gpus = opt(a, "--gpus");
  const char *seed_s = opt(a, "--seed");
  if (gpus == NULL) return usage(o, USAGE_INIT, "missing --gpus");
  unsigned long long seed;
  if (seed_s != NULL && sim_parse_u64(seed_s, &seed) != 0)
    return usage(o, USAGE_INIT, "--seed must be decimal or 0x hex");
  const struct sim_model *m[SIM_MAX_GPUS];
  unsigned n;
  char err[600], want[512], have[512];
  if (sim_parse_model_list(gpus, m, &n, err, sizeof(err)) != 0) return usage(o, USAGE_INIT, err);
  sim_models_str(m, n, want, sizeof(want));
  struct sim_ctx c;
  if (open_state(&c, 1, SIM_ACQ_OVERWRITE, o)) return 1;
  if (opt(a, "--keep") != NULL && c.exists) {
    sim_state_models_str(c.st, have, sizeof(have));
    if (strcmp(have, want) == 0) {
      sb_printf(o, "kept the existing state with GPUs %s\n", have);
      return close_state(&c, 0, o);
    }
    rc = refuse(o, "the existing state holds GPUs %s, not %s; run init without --keep to replace it", have, want);
    return close_state(&c, rc, o);
  }
  if (seed_s == NULL) seed = sim_env_seed();
  if (sim_state_create(c.st, want, seed, c.exists ? c.st : NULL, err, sizeof(err)) != 0) {
    rc = refuse(o, "%s", err);
    return close_state(&c, rc, o);
  }
  c.dirty = 1;
  sb_printf(o, "initialised %u GPU%s: %s (seed 0x%016llx)\n", n, n == 1 ? "" : "s", want, seed);
  return close_state(&c, 0, o);
}

static int cmd_status(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"-o", "--output", NULL};
  int rc = check_args(a, allowed, 0, o, USAGE_STATUS);
  if (rc) return rc;
  const char *fmt = opt(a, "-o") ? opt(a, "-o") : opt(a, "--output");
  int json = 0;
  if (fmt != NULL) {
    if (strcmp(fmt, "json") == 0) json = 1;
    else if (strcmp(fmt, "text") != 0) return usage(o, USAGE_STATUS, "-o takes json or text");
  }
  struct sim_ctx c;
  if (open_state(&c, 0, SIM_ACQ_CREATE, o)) return 1;
  rc = sim_control_status(c.st, c.exists, json, o);
  sim_release(&c);
  return rc;
}

static void clean_name(const char *in, char *out) {
  size_t n = 0;
  for (; in && in[n] && n < SIM_NAME_LEN - 1; n++) {
    unsigned char ch = (unsigned char)in[n];
    out[n] = (ch < 0x20 || ch == 0x7F) ? '?' : (char)ch;
  }
  out[n] = '\0';
}

static int attach_compute(struct sim_ctx *c, struct sim_proc *p, int has_gi, int has_ci, struct sbuf *o) {
  struct sim_gpu *g = &c->st->gpu[p->gpu];
  unsigned long long free_mib;
  if (g->model->mig && g->mig_current == NVML_DEVICE_MIG_ENABLE) {
    if (!has_gi) return refuse(o, "GPU %u has MIG enabled: --gi is required to attach a compute process", p->gpu);
    struct sim_gi *gi = sim_gi_find(g, p->gi);
    if (gi == NULL) return refuse(o, "GPU %u has no GPU instance %u", p->gpu, p->gi);
    struct sim_ci *ci = NULL;
    if (has_ci) {
      ci = sim_ci_find(gi, p->ci);
      if (ci == NULL) return refuse(o, "GPU instance %u on GPU %u has no compute instance %u", p->gi, p->gpu, p->ci);
    } else {
      for (unsigned i = 0; i < gi->nci; i++)
        if (ci == NULL || gi->ci[i].id < ci->id) ci = &gi->ci[i];
      if (ci == NULL)
        return refuse(o, "GPU instance %u on GPU %u has no compute instance to run on", p->gi, p->gpu);
      p->ci = ci->id;
    }
    const struct sim_gi_profile *gp = sim_gi_profile_of(g, gi);
    unsigned long long used = sim_used_mib(c->st, p->gpu, gi->id);
    free_mib = gp && gp->mem_mib > used ? gp->mem_mib - used : 0;
    if (p->mem_mib > free_mib)
      return refuse(o, "%llu MiB do not fit in GPU instance %u on GPU %u (%llu MiB free of %llu)", p->mem_mib,
                    gi->id, p->gpu, free_mib, gp ? gp->mem_mib : 0ull);
    return 0;
  }
  if (has_gi) return refuse(o, "GPU %u has MIG disabled: attach without --gi", p->gpu);
  p->gi = p->ci = SIM_INVALID_ID;
  unsigned long long used = sim_used_mib(c->st, p->gpu, SIM_INVALID_ID);
  free_mib = g->model->mem_mib > used ? g->model->mem_mib - used : 0;
  if (p->mem_mib > free_mib)
    return refuse(o, "%llu MiB do not fit on GPU %u (%llu MiB free of %llu)", p->mem_mib, p->gpu, free_mib,
                  g->model->mem_mib);
  return 0;
}

static int cmd_attach(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"--gpu", "--gi", "--ci", "--pid", "--mem", "--name", "--holder", NULL};
  int rc = check_args(a, allowed, 0, o, USAGE_ATTACH);
  if (rc) return rc;
  struct sim_proc p;
  memset(&p, 0, sizeof(p));
  unsigned mem = 0;
  int has_gi, has_ci, has_mem;
  if ((rc = num_opt(a, "--gpu", 1, &p.gpu, NULL, o, USAGE_ATTACH)) ||
      (rc = num_opt(a, "--pid", 1, &p.pid, NULL, o, USAGE_ATTACH)) ||
      (rc = num_opt(a, "--gi", 0, &p.gi, &has_gi, o, USAGE_ATTACH)) ||
      (rc = num_opt(a, "--ci", 0, &p.ci, &has_ci, o, USAGE_ATTACH)) ||
      (rc = num_opt(a, "--mem", 0, &mem, &has_mem, o, USAGE_ATTACH)))
    return rc;
  p.holder = opt(a, "--holder") != NULL;
  if (p.pid == 0) return usage(o, USAGE_ATTACH, "--pid must be a positive process id");
  if (p.holder && (has_gi || has_ci || has_mem))
    return usage(o, USAGE_ATTACH, "a holder takes no --gi, --ci or --mem");
  if (!p.holder && !has_mem) return usage(o, USAGE_ATTACH, "missing --mem");
  if (has_ci && !has_gi) return usage(o, USAGE_ATTACH, "--ci needs --gi");
  if (!has_gi) p.gi = SIM_INVALID_ID;
  if (!has_ci) p.ci = SIM_INVALID_ID;
  p.mem_mib = mem;
  clean_name(opt(a, "--name"), p.name);
  struct sim_ctx c;
  if (open_state(&c, 1, SIM_ACQ_CREATE, o)) return 1;
  if ((rc = need_gpu(&c, p.gpu, o))) return close_state(&c, rc, o);
  for (unsigned i = 0; i < c.st->nprocs; i++)
    if (c.st->procs[i].pid == p.pid && c.st->procs[i].gpu == p.gpu)
      return close_state(&c, refuse(o, "pid %u is already attached to GPU %u", p.pid, p.gpu), o);
  if (c.st->nprocs >= SIM_MAX_PROCS)
    return close_state(&c, refuse(o, "too many simulated processes (at most %d)", SIM_MAX_PROCS), o);
  if (!p.holder && (rc = attach_compute(&c, &p, has_gi, has_ci, o))) return close_state(&c, rc, o);
  c.st->procs[c.st->nprocs++] = p;
  c.dirty = 1;
  if (p.holder) sb_printf(o, "pid %u holds GPU %u\n", p.pid, p.gpu);
  else if (p.gi == SIM_INVALID_ID) sb_printf(o, "pid %u runs on GPU %u using %llu MiB\n", p.pid, p.gpu, p.mem_mib);
  else
    sb_printf(o, "pid %u runs on GPU %u GPU instance %u compute instance %u using %llu MiB\n", p.pid, p.gpu, p.gi,
              p.ci, p.mem_mib);
  return close_state(&c, 0, o);
}

static int cmd_detach(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"--pid", NULL};
  unsigned pid;
  int rc = check_args(a, allowed, 0, o, USAGE_DETACH);
  if (rc || (rc = num_opt(a, "--pid", 1, &pid, NULL, o, USAGE_DETACH))) return rc;
  struct sim_ctx c;
  if (open_state(&c, 1, SIM_ACQ_CREATE, o)) return 1;
  unsigned kept = 0, removed = 0;
  for (unsigned i = 0; i < c.st->nprocs; i++) {
    if (c.st->procs[i].pid == pid) removed++;
    else c.st->procs[kept++] = c.st->procs[i];
  }
  c.st->nprocs = kept;
  if (removed == 0) return close_state(&c, refuse(o, "pid %u is not attached to any simulated GPU", pid), o);
  c.dirty = 1;
  sb_printf(o, "pid %u detached\n", pid);
  return close_state(&c, 0, o);
}

/* Lists what runs on or holds a GPU; returns the count. */
static unsigned describe_users(const struct sim_state *st, unsigned gpu, char *buf, size_t len) {
  unsigned n = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < st->nprocs; i++) {
    const struct sim_proc *p = &st->procs[i];
    if (p->gpu != gpu) continue;
    char item[128];
    snprintf(item, sizeof(item), "%spid %u%s%s (%s)", n ? ", " : "", p->pid, p->name[0] ? " " : "", p->name,
             p->holder ? "holds the GPU" : "compute process");
    strncat(buf, item, len - strlen(buf) - 1);
    n++;
  }
  return n;
}

static const char *mode_name(unsigned m) { return m == NVML_DEVICE_MIG_ENABLE ? "enabled" : "disabled"; }

static int cmd_reset(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"--gpu", NULL};
  unsigned gpu;
  int rc = check_args(a, allowed, 0, o, USAGE_RESET);
  if (rc || (rc = num_opt(a, "--gpu", 1, &gpu, NULL, o, USAGE_RESET))) return rc;
  struct sim_ctx c;
  if (open_state(&c, 1, SIM_ACQ_CREATE, o)) return 1;
  if ((rc = need_gpu(&c, gpu, o))) return close_state(&c, rc, o);
  char users[1024];
  if (describe_users(c.st, gpu, users, sizeof(users)) > 0)
    return close_state(&c, refuse(o, "GPU %u cannot be reset while it is in use: %s", gpu, users), o);
  struct sim_gpu *g = &c.st->gpu[gpu];
  g->mig_current = g->mig_pending;
  sim_gpu_drop_instances(g);
  g->serial = sim_next_serial(c.st);
  c.dirty = 1;
  if (g->model->mig) sb_printf(o, "GPU %u reset; MIG %s\n", gpu, mode_name(g->mig_current));
  else sb_printf(o, "GPU %u reset\n", gpu);
  return close_state(&c, 0, o);
}

static int cmd_passthrough(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"--gpu", NULL};
  unsigned gpu;
  int rc = check_args(a, allowed, 1, o, USAGE_PASSTHROUGH);
  if (rc || (rc = num_opt(a, "--gpu", 1, &gpu, NULL, o, USAGE_PASSTHROUGH))) return rc;
  if (a->npos != 1 || (strcmp(a->pos[0], "on") != 0 && strcmp(a->pos[0], "off") != 0))
    return usage(o, USAGE_PASSTHROUGH, "say on or off");
  int on = strcmp(a->pos[0], "on") == 0;
  struct sim_ctx c;
  if (open_state(&c, 1, SIM_ACQ_CREATE, o)) return 1;
  if ((rc = need_gpu(&c, gpu, o))) return close_state(&c, rc, o);
  c.st->gpu[gpu].passthrough = on;
  c.dirty = 1;
  sb_printf(o, "GPU %u passthrough %s\n", gpu, on ? "on" : "off");
  return close_state(&c, 0, o);
}

/* A node whose device minors are not its NVML indexes (a GPU left out, or minors in another
   order than the PCI bus order NVML enumerates by) answers these from nvmlDeviceGetMinorNumber. */
static int cmd_minor(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"--gpu", NULL};
  unsigned gpu, minor;
  int rc = check_args(a, allowed, 1, o, USAGE_MINOR);
  if (rc || (rc = num_opt(a, "--gpu", 1, &gpu, NULL, o, USAGE_MINOR))) return rc;
  if (a->npos != 1 || sim_parse_uint(a->pos[0], &minor) != 0 || minor > 254)
    return usage(o, USAGE_MINOR, "say the minor number, 0 to 254");
  struct sim_ctx c;
  if (open_state(&c, 1, SIM_ACQ_CREATE, o)) return 1;
  if ((rc = need_gpu(&c, gpu, o))) return close_state(&c, rc, o);
  for (unsigned i = 0; i < c.st->ngpus; i++)
    if (i != gpu && c.st->gpu[i].minor == minor)
      return close_state(&c, refuse(o, "GPU %u already has minor number %u", i, minor), o);
  c.st->gpu[gpu].minor = minor;
  c.dirty = 1;
  sb_printf(o, "GPU %u minor %u\n", gpu, minor);
  return close_state(&c, 0, o);
}

static int cmd_xid(const struct args *a, struct sbuf *o) {
  static const char *const allowed[] = {"--gpu", "--gi", "--xid", NULL};
  unsigned gpu, gi = SIM_INVALID_ID, code;
  int has_gi;
  int rc = check_args(a, allowed, 0, o, USAGE_XID);
  if (rc || (rc = num_opt(a, "--gpu", 1, &gpu, NULL, o, USAGE_XID)) ||
      (rc = num_opt(a, "--gi", 0, &gi, &has_gi, o, USAGE_XID)) || (rc = num_opt(a, "--xid", 1, &code, NULL, o, USAGE_XID)))
    return rc;
  if (!has_gi) gi = SIM_INVALID_ID;
  struct sim_ctx c;
  if (open_state(&c, 1, SIM_ACQ_CREATE, o)) return 1;
  if ((rc = need_gpu(&c, gpu, o))) return close_state(&c, rc, o);
  struct sim_state *st = c.st;
  if (has_gi && sim_gi_find(&st->gpu[gpu], gi) == NULL)
    return close_state(&c, refuse(o, "GPU %u has no GPU instance %u", gpu, gi), o);
  if (st->nxids >= SIM_MAX_XIDS) {
    memmove(&st->xids[0], &st->xids[1], sizeof(st->xids[0]) * (SIM_MAX_XIDS - 1));
    st->nxids--;
  }
  struct sim_xid *x = &st->xids[st->nxids++];
  x->seq = ++st->xid_seq;
  x->gpu = gpu;
  x->gi = gi;
  x->code = code;
  c.dirty = 1;
  if (has_gi) sb_printf(o, "XID %u on GPU %u GPU instance %u (event %llu)\n", code, gpu, gi, x->seq);
  else sb_printf(o, "XID %u on GPU %u (event %llu)\n", code, gpu, x->seq);
  return close_state(&c, 0, o);
}

static int cmd_faults(const struct args *a, struct sbuf *o) {
  static const char *const none[] = {NULL};
  int rc = check_args(a, none, 1, o, USAGE_FAULTS);
  if (rc) return rc;
  char err[256];
  if (sim_faults_set(a->npos ? a->pos[0] : "", 1, err, sizeof(err)) != 0) return usage(o, USAGE_FAULTS, err);
  sb_printf(o, "%s\n", a->npos && a->pos[0][0] ? "faults set; call counters reset" : "faults cleared");
  return 0;
}

static int cmd_latency(const struct args *a, struct sbuf *o) {
  static const char *const none[] = {NULL};
  unsigned ms;
  int rc = check_args(a, none, 1, o, USAGE_LATENCY);
  if (rc) return rc;
  if (a->npos != 1 || sim_parse_uint(a->pos[0], &ms) != 0) return usage(o, USAGE_LATENCY, "MS must be a number");
  sim_latency_set(ms);
  sb_printf(o, "latency %u ms\n", ms);
  return 0;
}

static int cmd_state(const struct args *a, struct sbuf *o) {
  static const char *const none[] = {NULL};
  int rc = check_args(a, none, 1, o, USAGE_STATE);
  if (rc) return rc;
  if (a->npos != 1 || a->pos[0][0] == '\0') return usage(o, USAGE_STATE, "name a state file, or - for memory");
  sim_set_state_path(strcmp(a->pos[0], "-") == 0 ? NULL : a->pos[0]);
  sb_printf(o, "state: %s\n", sim_state_path() ? sim_state_path() : "in memory");
  return 0;
}

static int cmd_models(const struct args *a, struct sbuf *o) {
  static const char *const none[] = {NULL};
  int rc = check_args(a, none, 0, o, "models");
  if (rc) return rc;
  if (sim_models_error() != NULL) return refuse(o, "%s", sim_models_error());
  for (unsigned i = 0; i < sim_model_count(); i++) {
    const struct sim_model *m = sim_model_at(i);
    sb_printf(o, "%-15s %-24s 0x%08X  %6llu MiB  %s", m->key, m->name, m->pci, m->mem_mib, m->mig ? "MIG:" : "no MIG");
    for (unsigned j = 0; j < m->ngi; j++) sb_printf(o, " %s", m->gi[j].name);
    sb_printf(o, "\n");
  }
  return 0;
}

static int dispatch(int argc, const char **argv, struct sbuf *o) {
  if (argc < 1 || argv == NULL || argv[0] == NULL) {
    sb_printf(o, "%s", usage_all);
    return 2;
  }
  static const struct {
    const char *name;
    int (*fn)(const struct args *, struct sbuf *);
    const char *usage;
  } cmds[] = {
      {"init", cmd_init, USAGE_INIT},          {"status", cmd_status, USAGE_STATUS},
      {"attach", cmd_attach, USAGE_ATTACH},    {"detach", cmd_detach, USAGE_DETACH},
      {"reset", cmd_reset, USAGE_RESET},       {"passthrough", cmd_passthrough, USAGE_PASSTHROUGH},
      {"minor", cmd_minor, USAGE_MINOR},       {"xid", cmd_xid, USAGE_XID},
      {"faults", cmd_faults, USAGE_FAULTS},
      {"latency", cmd_latency, USAGE_LATENCY}, {"state", cmd_state, USAGE_STATE},
      {"models", cmd_models, "models"},
  };
  const char *cmd = argv[0];
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    sb_printf(o, "%s", usage_all);
    return 0;
  }
  for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
    if (strcmp(cmds[i].name, cmd) != 0) continue;
    struct args a;
    int rc = parse_args(argc, argv, &a, o, cmds[i].usage);
    return rc ? rc : cmds[i].fn(&a, o);
  }
  sb_printf(o, "unknown command \"%s\"\n%s", cmd, usage_all);
  return 2;
}

SIM_API int nvmlsim_control(int argc, const char **argv, char *out, unsigned int outSize) {
  struct sbuf o;
  sb_init(&o);
  pthread_mutex_lock(&sim_mu);
  sim_config_load();
  int status = dispatch(argc, argv, &o);
  pthread_mutex_unlock(&sim_mu);
  if (o.oom) status = 1;
  if (out != NULL && outSize > 0) {
    size_t n = o.len < outSize - 1 ? o.len : outSize - 1;
    if (n > 0) memcpy(out, o.p, n);
    out[n] = '\0';
  }
  sb_free(&o);
  return status;
}
