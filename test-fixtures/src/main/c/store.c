/*
 * Call framing and persistence. One mutex guards all state of this library copy. With a state
 * file the state is re-read on every call under a flock on FILE.lock (shared for reads,
 * exclusive for read-modify-write) and written atomically (temp file, fsync, rename).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

pthread_mutex_t sim_mu = PTHREAD_MUTEX_INITIALIZER;

static struct {
  int config_loaded;
  char *path;     /* state file, NULL = in memory */
  char *env_gpus; /* NVML_SIM_GPUS */
  int refcount;
  unsigned session;
  int mem_created;
  struct sim_state mem;
  struct sim_state file_st;
} L;

static void sleep_ms(unsigned ms) {
  struct timespec ts = {(time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

void sim_config_load(void) {
  if (L.config_loaded) return;
  L.config_loaded = 1;
  const char *p = getenv("NVML_SIM_STATE");
  if (p != NULL && *p != '\0') L.path = strdup(p);
  const char *g = getenv("NVML_SIM_GPUS");
  if (g != NULL && *g != '\0') L.env_gpus = strdup(g);
  const char *lat = getenv("NVML_SIM_LATENCY_MS");
  unsigned ms;
  if (lat != NULL && *lat != '\0') {
    if (sim_parse_uint(lat, &ms) == 0) sim_latency_set(ms);
    else fprintf(stderr, "nvml-sim: ignoring NVML_SIM_LATENCY_MS=%s (not a number)\n", lat);
  }
}

const char *sim_env_gpus(void) { return L.env_gpus; }
const char *sim_state_path(void) { return L.path; }
int sim_initialized(void) { return L.refcount > 0; }
unsigned sim_session(void) { return L.session; }

void sim_set_state_path(const char *path) {
  sim_config_load();
  free(L.path);
  L.path = path ? strdup(path) : NULL;
}

unsigned long long sim_env_seed(void) {
  const char *s = getenv("NVML_SIM_SEED");
  unsigned long long v;
  if (s != NULL && *s != '\0') {
    if (sim_parse_u64(s, &v) == 0) return v;
    fprintf(stderr, "nvml-sim: ignoring NVML_SIM_SEED=%s (not decimal or 0x hex)\n", s);
  }
  return sim_random_seed();
}

/* Reads the whole file; returns 0, or the errno (ENOENT when missing). */
static int read_file(const char *path, char **out) {
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  size_t cap = 8192, len = 0;
  char *buf = malloc(cap);
  if (buf == NULL) {
    close(fd);
    return ENOMEM;
  }
  for (;;) {
    if (len + 1 >= cap) {
      char *nb = realloc(buf, cap * 2);
      if (nb == NULL) {
        free(buf);
        close(fd);
        return ENOMEM;
      }
      buf = nb;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      free(buf);
      close(fd);
      return e;
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  buf[len] = '\0';
  *out = buf;
  return 0;
}

static int write_all(int fd, const char *p, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

static int save_file(const struct sim_state *st, char *err, size_t errlen) {
  struct sbuf b;
  sb_init(&b);
  if (sim_state_format(st, &b) != 0) {
    sb_free(&b);
    snprintf(err, errlen, "out of memory writing the state");
    return -1;
  }
  size_t plen = strlen(L.path);
  char *tmp = malloc(plen + 32);
  char *dir = strdup(L.path);
  if (tmp == NULL || dir == NULL) {
    free(tmp);
    free(dir);
    sb_free(&b);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  snprintf(tmp, plen + 32, "%s.tmp.%ld", L.path, (long)getpid());
  int rc = -1;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
  } else if (write_all(fd, b.p, b.len) != 0 || fsync(fd) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    close(fd);
    unlink(tmp);
  } else if (close(fd) != 0 || rename(tmp, L.path) != 0) {
    snprintf(err, errlen, "cannot replace %s: %s", L.path, strerror(errno));
    unlink(tmp);
  } else {
    int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
    rc = 0;
  }
  free(tmp);
  free(dir);
  sb_free(&b);
  return rc;
}

/* tolerate: an unparsable file counts as missing (used by `init`, which overwrites it). */
static int load_file(struct sim_ctx *c, int tolerate, char *err, size_t errlen) {
  char *text;
  int e = read_file(L.path, &text);
  if (e == ENOENT) {
    sim_state_reset(&L.file_st);
    c->exists = 0;
    return 0;
  }
  if (e != 0) {
    snprintf(err, errlen, "cannot read state file %s: %s", L.path, strerror(e));
    return -1;
  }
  char perr[200];
  int rc = sim_state_parse(&L.file_st, text, perr, sizeof(perr));
  free(text);
  if (rc != 0 && tolerate) {
    sim_state_reset(&L.file_st);
    c->exists = 0;
    return 0;
  }
  if (rc != 0) {
    snprintf(err, errlen, "state file %s: %s", L.path, perr);
    return -1;
  }
  c->exists = 1;
  return 0;
}

static int lock_fd_to(int fd, int op) {
  while (flock(fd, op) != 0) {
    if (errno != EINTR) return -1;
  }
  return 0;
}

int sim_acquire(struct sim_ctx *c, int write, int autocreate, char *err, size_t errlen) {
  c->write = write;
  c->dirty = 0;
  c->lock_fd = -1;
  c->exists = 0;
  if (L.path == NULL) {
    if (!L.mem_created && autocreate == SIM_ACQ_CREATE && L.env_gpus != NULL) {
      if (sim_state_create(&L.mem, L.env_gpus, sim_env_seed(), &L.mem, err, errlen) != 0) return -1;
      L.mem_created = 1;
    }
    c->st = &L.mem;
    c->exists = L.mem_created;
    return 0;
  }
  size_t plen = strlen(L.path);
  char *lockpath = malloc(plen + 6);
  if (lockpath == NULL) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  snprintf(lockpath, plen + 6, "%s.lock", L.path);
  int fd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    snprintf(err, errlen, "cannot open lock file %s: %s", lockpath, strerror(errno));
    free(lockpath);
    return -1;
  }
  free(lockpath);
  if (lock_fd_to(fd, write ? LOCK_EX : LOCK_SH) != 0) {
    snprintf(err, errlen, "cannot lock %s.lock: %s", L.path, strerror(errno));
    close(fd);
    return -1;
  }
  c->lock_fd = fd;
  c->st = &L.file_st;
  if (load_file(c, autocreate == SIM_ACQ_OVERWRITE, err, errlen) != 0) goto fail;
  if (!c->exists && autocreate == SIM_ACQ_CREATE && L.env_gpus != NULL) {
    if (!write) {
      /* upgrade to create the file; somebody else may have created it meanwhile */
      if (lock_fd_to(fd, LOCK_EX) != 0 || load_file(c, 0, err, errlen) != 0) goto fail;
      if (c->exists) return 0;
    }
    if (sim_state_create(&L.file_st, L.env_gpus, sim_env_seed(), NULL, err, errlen) != 0 ||
        save_file(&L.file_st, err, errlen) != 0)
      goto fail;
    c->exists = 1;
  }
  return 0;
fail:
  flock(fd, LOCK_UN);
  close(fd);
  c->lock_fd = -1;
  return -1;
}

void sim_release(struct sim_ctx *c) {
  if (c->lock_fd >= 0) {
    flock(c->lock_fd, LOCK_UN);
    close(c->lock_fd);
    c->lock_fd = -1;
  }
}

/* Writes a changed state back (file mode) or marks the memory state as configured. */
static int commit(struct sim_ctx *c, char *err, size_t errlen) {
  if (!c->write || !c->dirty) return 0;
  if (L.path == NULL) {
    L.mem_created = 1;
    return 0;
  }
  return save_file(c->st, err, errlen);
}

static void finish(int kill_after) {
  pthread_mutex_unlock(&sim_mu);
  if (kill_after) kill(getpid(), SIGKILL);
}

int sim_enter(struct sim_ctx *c, enum sim_fn fn, int flags, nvmlReturn_t *rc) {
  return sim_enter_on(c, fn, flags, SIM_INVALID_ID, rc);
}

int sim_enter_on(struct sim_ctx *c, enum sim_fn fn, int flags, unsigned gpu, nvmlReturn_t *rc) {
  pthread_mutex_lock(&sim_mu);
  sim_config_load();
  int kill_after = 0;
  if (sim_fault_check(fn, gpu, rc, &kill_after)) {
    finish(0);
    return 0;
  }
  unsigned lat = sim_latency_ms();
  if ((flags & SIM_CHANGES) && lat > 0) {
    pthread_mutex_unlock(&sim_mu);
    sleep_ms(lat);
    pthread_mutex_lock(&sim_mu);
  }
  if (!(flags & SIM_NOINIT) && L.refcount == 0) {
    *rc = NVML_ERROR_UNINITIALIZED;
    finish(kill_after);
    return 0;
  }
  char err[320];
  if (sim_acquire(c, (flags & SIM_WRITE) != 0, SIM_ACQ_CREATE, err, sizeof(err)) != 0) {
    fprintf(stderr, "nvml-sim: %s\n", err);
    *rc = NVML_ERROR_UNKNOWN;
    finish(kill_after);
    return 0;
  }
  c->kill = kill_after;
  return 1;
}

int sim_reenter(struct sim_ctx *c, int flags, nvmlReturn_t *rc) {
  pthread_mutex_lock(&sim_mu);
  if (L.refcount == 0) {
    *rc = NVML_ERROR_UNINITIALIZED;
    pthread_mutex_unlock(&sim_mu);
    return 0;
  }
  char err[320];
  if (sim_acquire(c, (flags & SIM_WRITE) != 0, SIM_ACQ_CREATE, err, sizeof(err)) != 0) {
    fprintf(stderr, "nvml-sim: %s\n", err);
    *rc = NVML_ERROR_UNKNOWN;
    pthread_mutex_unlock(&sim_mu);
    return 0;
  }
  return 1;
}

/* Releases the file lock and the mutex in the middle of a call (a blocking wait). */
void sim_pause(struct sim_ctx *c) {
  sim_release(c);
  pthread_mutex_unlock(&sim_mu);
}

nvmlReturn_t sim_leave(struct sim_ctx *c, nvmlReturn_t rc) {
  char err[320];
  if (commit(c, err, sizeof(err)) != 0) {
    fprintf(stderr, "nvml-sim: %s\n", err);
    rc = NVML_ERROR_UNKNOWN;
  }
  sim_release(c);
  finish(c->kill);
  return rc;
}

/* Control commands use this to persist without the init/fault framing. */
int sim_commit(struct sim_ctx *c, char *err, size_t errlen) { return commit(c, err, errlen); }

nvmlReturn_t sim_do_init(unsigned flags, enum sim_fn fn) {
  nvmlReturn_t rc = NVML_SUCCESS;
  pthread_mutex_lock(&sim_mu);
  sim_config_load();
  int kill_after = 0;
  if (sim_fault_check(fn, SIM_INVALID_ID, &rc, &kill_after)) {
    finish(0);
    return rc;
  }
  if (L.refcount > 0) {
    L.refcount++;
    finish(kill_after);
    return NVML_SUCCESS;
  }
  if (sim_models_error() != NULL) {
    fprintf(stderr, "nvml-sim: %s\n", sim_models_error());
    finish(kill_after);
    return NVML_ERROR_UNKNOWN;
  }
  struct sim_ctx c;
  char err[320];
  if (sim_acquire(&c, 1, SIM_ACQ_NOCREATE, err, sizeof(err)) != 0) {
    fprintf(stderr, "nvml-sim: %s\n", err);
    finish(kill_after);
    return NVML_ERROR_UNKNOWN;
  }
  if (c.exists && L.path != NULL && L.env_gpus != NULL) {
    const struct sim_model *m[SIM_MAX_GPUS];
    unsigned n;
    char want[512], have[512];
    if (sim_parse_model_list(L.env_gpus, m, &n, err, sizeof(err)) != 0) {
      fprintf(stderr, "nvml-sim: NVML_SIM_GPUS: %s\n", err);
      rc = NVML_ERROR_UNKNOWN;
    } else {
      sim_models_str(m, n, want, sizeof(want));
      sim_state_models_str(c.st, have, sizeof(have));
      if (strcmp(want, have) != 0) {
        fprintf(stderr,
                "nvml-sim: state file %s holds GPUs %s but NVML_SIM_GPUS=%s; unset NVML_SIM_GPUS "
                "or re-create the state with 'nvml-sim --state %s init --gpus %s'\n",
                L.path, have, want, L.path, want);
        rc = NVML_ERROR_UNKNOWN;
      }
    }
  } else if (!c.exists && L.env_gpus != NULL) {
    if (sim_state_create(c.st, L.env_gpus, sim_env_seed(), c.st, err, sizeof(err)) != 0) {
      fprintf(stderr, "nvml-sim: NVML_SIM_GPUS: %s\n", err);
      rc = NVML_ERROR_UNKNOWN;
    } else {
      c.dirty = 1;
    }
  } else if (!c.exists && !(flags & NVML_INIT_FLAG_NO_GPUS)) {
    if (L.path != NULL)
      fprintf(stderr,
              "nvml-sim: no simulated GPUs: state file %s does not exist; set NVML_SIM_GPUS=MODEL[,MODEL...] "
              "or run 'nvml-sim --state %s init --gpus MODELS'\n",
              L.path, L.path);
    else
      fprintf(stderr,
              "nvml-sim: no simulated GPUs: set NVML_SIM_GPUS=MODEL[,MODEL...] (and NVML_SIM_STATE=FILE "
              "to share them between processes), or call nvmlsim_control(\"init\", \"--gpus\", MODELS)\n");
    rc = NVML_ERROR_DRIVER_NOT_LOADED;
  }
  if (rc == NVML_SUCCESS && commit(&c, err, sizeof(err)) != 0) {
    fprintf(stderr, "nvml-sim: %s\n", err);
    rc = NVML_ERROR_UNKNOWN;
  }
  sim_release(&c);
  if (rc == NVML_SUCCESS) {
    L.refcount = 1;
    L.session++;
  }
  finish(kill_after);
  return rc;
}

nvmlReturn_t sim_do_shutdown(void) {
  nvmlReturn_t rc = NVML_SUCCESS;
  pthread_mutex_lock(&sim_mu);
  sim_config_load();
  int kill_after = 0;
  if (sim_fault_check(FN_nvmlShutdown, SIM_INVALID_ID, &rc, &kill_after)) {
    finish(0);
    return rc;
  }
  if (L.refcount == 0) {
    rc = NVML_ERROR_UNINITIALIZED;
  } else if (--L.refcount == 0) {
    sim_events_clear();
    sim_gpm_clear();
  }
  finish(kill_after);
  return rc;
}

/* Frees what this copy allocated when it is unloaded (dlclose) or the process exits. */
__attribute__((destructor)) static void sim_store_cleanup(void) {
  pthread_mutex_lock(&sim_mu);
  free(L.path);
  free(L.env_gpus);
  L.path = L.env_gpus = NULL;
  sim_gpm_clear();
  pthread_mutex_unlock(&sim_mu);
}
