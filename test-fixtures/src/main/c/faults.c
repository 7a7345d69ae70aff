/*
 * Fault injection: "function[@I][#N]=NVML_ERROR_NAME" or "...=KILL", separated by ';'.
 * With @I an entry matches only calls aimed at GPU index I (its MIG devices, GPU and compute
 * instances included) and N counts that function's calls on that GPU; without @I, N counts that
 * function's calls in this library copy. From 1; without #N every matching call fails.
 * Counters and table are guarded by sim_mu (callers hold it).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim.h"

#define SIM_MAX_FAULTS 64

struct fault {
  enum sim_fn fn;
  unsigned gpu;         /* SIM_INVALID_ID = any GPU, N counted over the process */
  unsigned long long n; /* 0 = every call */
  int kill;
  nvmlReturn_t code;
};

static struct fault table[SIM_MAX_FAULTS];
static unsigned nfaults;
static unsigned long long counts[FN_COUNT];
static unsigned long long gpu_counts[FN_COUNT][SIM_MAX_GPUS];
static int env_loaded;
static unsigned latency;

static const char *const fn_names[FN_COUNT] = {
#define SIM_FN_NAME(n) #n,
    SIM_FUNCTIONS(SIM_FN_NAME)
#undef SIM_FN_NAME
};

/* Unversioned names (as the header's macros map them) are accepted too. */
static const char *const aliases[][2] = {
    {"nvmlInit", "nvmlInit_v2"},
    {"nvmlDeviceGetPciInfo", "nvmlDeviceGetPciInfo_v3"},
    {"nvmlDeviceGetCount", "nvmlDeviceGetCount_v2"},
    {"nvmlDeviceGetHandleByIndex", "nvmlDeviceGetHandleByIndex_v2"},
    {"nvmlDeviceGetHandleByPciBusId", "nvmlDeviceGetHandleByPciBusId_v2"},
    {"nvmlEventSetWait", "nvmlEventSetWait_v2"},
    {"nvmlDeviceGetAttributes", "nvmlDeviceGetAttributes_v2"},
    {"nvmlComputeInstanceGetInfo", "nvmlComputeInstanceGetInfo_v2"},
    {"nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetComputeRunningProcesses_v3"},
    {"nvmlDeviceGetMPSComputeRunningProcesses", "nvmlDeviceGetMPSComputeRunningProcesses_v3"},
    {"nvmlDeviceGetGpuInstancePossiblePlacements", "nvmlDeviceGetGpuInstancePossiblePlacements_v2"},
};

static const struct {
  const char *name;
  nvmlReturn_t code;
} codes[] = {
    {"SUCCESS", NVML_SUCCESS},
    {"UNINITIALIZED", NVML_ERROR_UNINITIALIZED},
    {"INVALID_ARGUMENT", NVML_ERROR_INVALID_ARGUMENT},
    {"NOT_SUPPORTED", NVML_ERROR_NOT_SUPPORTED},
    {"NO_PERMISSION", NVML_ERROR_NO_PERMISSION},
    {"ALREADY_INITIALIZED", NVML_ERROR_ALREADY_INITIALIZED},
    {"NOT_FOUND", NVML_ERROR_NOT_FOUND},
    {"INSUFFICIENT_SIZE", NVML_ERROR_INSUFFICIENT_SIZE},
    {"INSUFFICIENT_POWER", NVML_ERROR_INSUFFICIENT_POWER},
    {"DRIVER_NOT_LOADED", NVML_ERROR_DRIVER_NOT_LOADED},
    {"TIMEOUT", NVML_ERROR_TIMEOUT},
    {"IRQ_ISSUE", NVML_ERROR_IRQ_ISSUE},
    {"LIBRARY_NOT_FOUND", NVML_ERROR_LIBRARY_NOT_FOUND},
    {"FUNCTION_NOT_FOUND", NVML_ERROR_FUNCTION_NOT_FOUND},
    {"CORRUPTED_INFOROM", NVML_ERROR_CORRUPTED_INFOROM},
    {"GPU_IS_LOST", NVML_ERROR_GPU_IS_LOST},
    {"RESET_REQUIRED", NVML_ERROR_RESET_REQUIRED},
    {"OPERATING_SYSTEM", NVML_ERROR_OPERATING_SYSTEM},
    {"LIB_RM_VERSION_MISMATCH", NVML_ERROR_LIB_RM_VERSION_MISMATCH},
    {"IN_USE", NVML_ERROR_IN_USE},
    {"MEMORY", NVML_ERROR_MEMORY},
    {"NO_DATA", NVML_ERROR_NO_DATA},
    {"VGPU_ECC_NOT_SUPPORTED", NVML_ERROR_VGPU_ECC_NOT_SUPPORTED},
    {"INSUFFICIENT_RESOURCES", NVML_ERROR_INSUFFICIENT_RESOURCES},
    {"FREQ_NOT_SUPPORTED", NVML_ERROR_FREQ_NOT_SUPPORTED},
    {"ARGUMENT_VERSION_MISMATCH", NVML_ERROR_ARGUMENT_VERSION_MISMATCH},
    {"DEPRECATED", NVML_ERROR_DEPRECATED},
    {"NOT_READY", NVML_ERROR_NOT_READY},
    {"GPU_NOT_FOUND", NVML_ERROR_GPU_NOT_FOUND},
    {"INVALID_STATE", NVML_ERROR_INVALID_STATE},
    {"RESET_TYPE_NOT_SUPPORTED", NVML_ERROR_RESET_TYPE_NOT_SUPPORTED},
    {"UNKNOWN", NVML_ERROR_UNKNOWN},
};

const char *sim_return_name(nvmlReturn_t r) {
  static const char *const full[] = {
      "NVML_SUCCESS", "NVML_ERROR_UNINITIALIZED", "NVML_ERROR_INVALID_ARGUMENT",
      "NVML_ERROR_NOT_SUPPORTED", "NVML_ERROR_NO_PERMISSION", "NVML_ERROR_ALREADY_INITIALIZED",
      "NVML_ERROR_NOT_FOUND", "NVML_ERROR_INSUFFICIENT_SIZE", "NVML_ERROR_INSUFFICIENT_POWER",
      "NVML_ERROR_DRIVER_NOT_LOADED", "NVML_ERROR_TIMEOUT", "NVML_ERROR_IRQ_ISSUE",
      "NVML_ERROR_LIBRARY_NOT_FOUND", "NVML_ERROR_FUNCTION_NOT_FOUND", "NVML_ERROR_CORRUPTED_INFOROM",
      "NVML_ERROR_GPU_IS_LOST", "NVML_ERROR_RESET_REQUIRED", "NVML_ERROR_OPERATING_SYSTEM",
      "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "NVML_ERROR_IN_USE", "NVML_ERROR_MEMORY",
      "NVML_ERROR_NO_DATA", "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", "NVML_ERROR_INSUFFICIENT_RESOURCES",
      "NVML_ERROR_FREQ_NOT_SUPPORTED", "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "NVML_ERROR_DEPRECATED",
      "NVML_ERROR_NOT_READY", "NVML_ERROR_GPU_NOT_FOUND", "NVML_ERROR_INVALID_STATE",
      "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED"};
  if ((unsigned)r < sizeof(full) / sizeof(full[0])) return full[r];
  if (r == NVML_ERROR_UNKNOWN) return "NVML_ERROR_UNKNOWN";
  return "NVML_ERROR_UNKNOWN";
}

static int find_fn(const char *name, enum sim_fn *out) {
  for (unsigned i = 0; i < FN_COUNT; i++)
    if (strcmp(fn_names[i], name) == 0) {
      *out = (enum sim_fn)i;
      return 0;
    }
  for (unsigned i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
    if (strcmp(aliases[i][0], name) == 0) return find_fn(aliases[i][1], out);
  return -1;
}

static int find_code(const char *s, struct fault *f) {
  if (strcasecmp(s, "KILL") == 0) {
    f->kill = 1;
    return 0;
  }
  const char *n = s;
  if (strncasecmp(n, "NVML_ERROR_", 11) == 0) n += 11;
  else if (strncasecmp(n, "NVML_", 5) == 0) n += 5;
  for (unsigned i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
    if (strcasecmp(codes[i].name, n) == 0) {
      f->code = codes[i].code;
      return 0;
    }
  unsigned v;
  if (sim_parse_uint(s, &v) == 0) {
    f->code = (nvmlReturn_t)v;
    return 0;
  }
  return -1;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

static int parse_entry(char *e, struct fault *f, char *err, size_t errlen) {
  memset(f, 0, sizeof(*f));
  f->gpu = SIM_INVALID_ID;
  char *eq = strchr(e, '=');
  if (eq == NULL) {
    snprintf(err, errlen,
             "fault entry \"%s\" lacks '=' (expected function[@I][#N]=NVML_ERROR_NAME|KILL)", e);
    return -1;
  }
  *eq = '\0';
  char *name = trim(e), *action = trim(eq + 1);
  char *hash = strchr(name, '#');
  if (hash != NULL) *hash = '\0';
  char *at = strchr(name, '@');
  if (at != NULL) *at = '\0';
  if (hash != NULL && (sim_parse_u64(trim(hash + 1), &f->n) != 0 || f->n == 0)) {
    snprintf(err, errlen, "fault entry for %s: call number must be a positive integer", trim(name));
    return -1;
  }
  if (at != NULL && (sim_parse_uint(trim(at + 1), &f->gpu) != 0 || f->gpu >= SIM_MAX_GPUS)) {
    snprintf(err, errlen, "fault entry for %s: GPU index after @ must be 0..%d", trim(name),
             SIM_MAX_GPUS - 1);
    return -1;
  }
  if (hash != NULL && at != NULL && at > hash) {
    snprintf(err, errlen, "fault entry for %s: write @I before #N", trim(name));
    return -1;
  }
  name = trim(name);
  if (strcmp(name, "nvmlErrorString") == 0) {
    snprintf(err, errlen, "nvmlErrorString cannot be faulted");
    return -1;
  }
  if (find_fn(name, &f->fn) != 0) {
    snprintf(err, errlen, "unknown function \"%s\" in fault spec", name);
    return -1;
  }
  if (find_code(action, f) != 0) {
    snprintf(err, errlen, "unknown return code \"%s\" for %s (use NVML_ERROR_NAME, NAME or KILL)",
             action, name);
    return -1;
  }
  return 0;
}

/* strict: any bad entry rejects the whole spec (control); else bad entries are reported and skipped. */
int sim_faults_set(const char *spec, int strict, char *err, size_t errlen) {
  struct fault parsed[SIM_MAX_FAULTS];
  unsigned n = 0;
  char *copy = strdup(spec ? spec : "");
  if (copy == NULL) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  char *save = NULL;
  int rc = 0;
  for (char *e = strtok_r(copy, ";", &save); e != NULL; e = strtok_r(NULL, ";", &save)) {
    e = trim(e);
    if (*e == '\0') continue;
    char msg[200];
    if (n >= SIM_MAX_FAULTS) {
      snprintf(msg, sizeof(msg), "too many fault entries (at most %d)", SIM_MAX_FAULTS);
    } else if (parse_entry(e, &parsed[n], msg, sizeof(msg)) == 0) {
      n++;
      continue;
    }
    if (strict) {
      snprintf(err, errlen, "%s", msg);
      rc = -1;
      break;
    }
    fprintf(stderr, "nvml-sim: NVML_SIM_FAULTS: %s; entry ignored\n", msg);
  }
  free(copy);
  if (rc != 0) return -1;
  memcpy(table, parsed, sizeof(parsed[0]) * n);
  nfaults = n;
  memset(counts, 0, sizeof(counts));
  memset(gpu_counts, 0, sizeof(gpu_counts));
  env_loaded = 1;
  return 0;
}

int sim_fault_check(enum sim_fn fn, unsigned gpu, nvmlReturn_t *rc, int *kill_after) {
  if (!env_loaded) {
    env_loaded = 1;
    const char *spec = getenv("NVML_SIM_FAULTS");
    char err[8];
    if (spec != NULL && *spec != '\0') sim_faults_set(spec, 0, err, sizeof(err));
  }
  unsigned long long n = ++counts[fn];
  unsigned long long on_gpu = gpu < SIM_MAX_GPUS ? ++gpu_counts[fn][gpu] : 0;
  const struct fault *hit = NULL;
  for (unsigned i = 0; i < nfaults; i++) {
    if (table[i].fn != fn) continue;
    if (table[i].gpu != SIM_INVALID_ID && table[i].gpu != gpu) continue;
    unsigned long long count = table[i].gpu == SIM_INVALID_ID ? n : on_gpu;
    if (table[i].n == count) {
      hit = &table[i];
      break;
    }
    if (table[i].n == 0 && hit == NULL) hit = &table[i];
  }
  if (hit == NULL) return 0;
  if (hit->kill) {
    *kill_after = 1;
    return 0;
  }
  *rc = hit->code;
  return 1;
}

unsigned sim_latency_ms(void) { return latency; }
void sim_latency_set(unsigned ms) { latency = ms; }
