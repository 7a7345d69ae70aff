/* Internal interfaces of the simulated NVML. Everything here is hidden (-fvisibility=hidden). */
#ifndef SIM_H
#define SIM_H

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>

#include "nvml_types.h"

#define SIM_API __attribute__((visibility("default")))

#define SIM_MAX_MODELS 32
#define SIM_MAX_GI_PROFILES 18
#define SIM_MAX_CI_PROFILES 9
#define SIM_MAX_PLACEMENTS 16
#define SIM_MAX_GPUS 16
#define SIM_MAX_GIS 8
#define SIM_MAX_CIS 8
#define SIM_MAX_PROCS 256
#define SIM_MAX_XIDS 256
#define SIM_NAME_LEN 64
#define SIM_UUID_LEN 48
#define SIM_STATE_FORMAT 1

/* ---- the 75 faultable functions (all exports except nvmlErrorString) ---- */
#define SIM_FUNCTIONS(X)                                                                   \
  X(nvmlInit_v2) X(nvmlInitWithFlags) X(nvmlShutdown) X(nvmlSystemGetDriverVersion)       \
  X(nvmlSystemGetNVMLVersion) X(nvmlSystemGetCudaDriverVersion)                            \
  X(nvmlSystemGetCudaDriverVersion_v2) X(nvmlSystemGetProcessName) X(nvmlDeviceGetCount_v2) \
  X(nvmlDeviceGetHandleByIndex_v2) X(nvmlDeviceGetHandleByUUID)                            \
  X(nvmlDeviceGetHandleByPciBusId_v2) X(nvmlDeviceGetIndex) X(nvmlDeviceGetUUID)           \
  X(nvmlDeviceGetName) X(nvmlDeviceGetPciInfo_v3) X(nvmlDeviceGetMinorNumber)              \
  X(nvmlDeviceGetArchitecture) X(nvmlDeviceGetBrand) X(nvmlDeviceGetCudaComputeCapability)  \
  X(nvmlDeviceGetPersistenceMode) X(nvmlDeviceGetMemoryInfo) X(nvmlDeviceGetMemoryInfo_v2) \
  X(nvmlDeviceGetUtilizationRates) X(nvmlDeviceGetComputeRunningProcesses_v3)              \
  X(nvmlDeviceGetMPSComputeRunningProcesses_v3) X(nvmlDeviceGetProcessUtilization)         \
  X(nvmlDeviceGetProcessesUtilizationInfo) X(nvmlDeviceGetPowerUsage)                      \
  X(nvmlDeviceGetTemperatureV) X(nvmlDeviceGetTemperature) X(nvmlDeviceGetFieldValues)     \
  X(nvmlDeviceGetComputeMode) X(nvmlDeviceSetComputeMode) X(nvmlDeviceGetMigMode)          \
  X(nvmlDeviceSetMigMode) X(nvmlDeviceGetGpuInstanceProfileInfo)                           \
  X(nvmlDeviceGetGpuInstanceProfileInfoV) X(nvmlDeviceGetGpuInstanceProfileInfoByIdV)      \
  X(nvmlDeviceGetGpuInstancePossiblePlacements_v2)                                         \
  X(nvmlDeviceGetGpuInstanceRemainingCapacity) X(nvmlDeviceCreateGpuInstance)              \
  X(nvmlDeviceCreateGpuInstanceWithPlacement) X(nvmlGpuInstanceDestroy)                    \
  X(nvmlDeviceGetGpuInstances) X(nvmlDeviceGetGpuInstanceById) X(nvmlGpuInstanceGetInfo)   \
  X(nvmlGpuInstanceGetComputeInstanceProfileInfo)                                          \
  X(nvmlGpuInstanceGetComputeInstanceProfileInfoV)                                         \
  X(nvmlGpuInstanceGetComputeInstanceRemainingCapacity)                                    \
  X(nvmlGpuInstanceGetComputeInstancePossiblePlacements)                                   \
  X(nvmlGpuInstanceCreateComputeInstance)                                                  \
  X(nvmlGpuInstanceCreateComputeInstanceWithPlacement) X(nvmlComputeInstanceDestroy)      \
  X(nvmlGpuInstanceGetComputeInstances) X(nvmlGpuInstanceGetComputeInstanceById)          \
  X(nvmlComputeInstanceGetInfo_v2) X(nvmlDeviceIsMigDeviceHandle)                          \
  X(nvmlDeviceGetGpuInstanceId) X(nvmlDeviceGetComputeInstanceId)                          \
  X(nvmlDeviceGetMaxMigDeviceCount) X(nvmlDeviceGetMigDeviceHandleByIndex)                 \
  X(nvmlDeviceGetDeviceHandleFromMigDeviceHandle) X(nvmlDeviceGetAttributes_v2)            \
  X(nvmlEventSetCreate) X(nvmlDeviceRegisterEvents) X(nvmlDeviceGetSupportedEventTypes)    \
  X(nvmlEventSetWait_v2) X(nvmlEventSetFree) X(nvmlGpmQueryDeviceSupport)                  \
  X(nvmlGpmSampleAlloc) X(nvmlGpmSampleFree) X(nvmlGpmSampleGet) X(nvmlGpmMigSampleGet)    \
  X(nvmlGpmMetricsGet)

enum sim_fn {
#define SIM_FN_ENUM(n) FN_##n,
  SIM_FUNCTIONS(SIM_FN_ENUM)
#undef SIM_FN_ENUM
  FN_COUNT
};

/* ---- model data (parsed from the embedded gpu-models.tsv) ---- */
struct sim_ci_profile {
  unsigned index, id, slices, instances, sm;
};

struct sim_placement {
  unsigned start, size;
};

struct sim_gi_profile {
  char name[32];
  unsigned index, id, slices, instances, sm, ce, dec, enc, jpg, ofa;
  unsigned long long mem_mib;
  unsigned nplacements;
  struct sim_placement pl[SIM_MAX_PLACEMENTS];
  unsigned nci;
  struct sim_ci_profile ci[SIM_MAX_CI_PROFILES];
};

/* How GPU-instance ids (the driver's partition numbers) follow from placements: gi_ids= of the
   model line. */
enum sim_gi_ids { SIM_GI_IDS_NONE, SIM_GI_IDS_DIRECT, SIM_GI_IDS_SWAPPED, SIM_GI_IDS_A30 };

struct sim_model {
  char key[32];
  char name[96];
  unsigned pci;
  unsigned arch;
  int cc_major, cc_minor;
  unsigned long long mem_mib;
  unsigned sm;
  int mig;
  unsigned mem_slices;
  enum sim_gi_ids gi_ids;
  unsigned compute_slices; /* largest GI profile's compute slices (7 or 4), 0 without MIG */
  unsigned ngi;
  struct sim_gi_profile gi[SIM_MAX_GI_PROFILES];
};

const char *sim_models_error(void); /* NULL when the embedded data parsed */
unsigned sim_model_count(void);
const struct sim_model *sim_model_at(unsigned i);
const struct sim_model *sim_model_find(const char *key); /* case-insensitive */
const struct sim_gi_profile *sim_gi_profile_by_id(const struct sim_model *m, unsigned id);
const struct sim_gi_profile *sim_gi_profile_by_index(const struct sim_model *m, unsigned index);
const struct sim_ci_profile *sim_ci_profile_by_id(const struct sim_gi_profile *g, unsigned id);
const struct sim_ci_profile *sim_ci_profile_by_index(const struct sim_gi_profile *g, unsigned index);

/* ---- state ---- */
struct sim_ci {
  unsigned id, profile_id, start, size;
  unsigned long long serial;
  unsigned compute_mode;
  char uuid[SIM_UUID_LEN];
};

struct sim_gi {
  unsigned id, profile_id, start, size;
  unsigned long long serial;
  unsigned nci;
  struct sim_ci ci[SIM_MAX_CIS]; /* sorted by placement start */
};

struct sim_gpu {
  const struct sim_model *model;
  unsigned minor; /* nvmlDeviceGetMinorNumber: the index unless `minor` set it */
  unsigned long long serial; /* changes on state creation and on reset: GPU handles go stale */
  unsigned mig_current, mig_pending;
  int passthrough;
  unsigned compute_mode;
  unsigned ngi;
  struct sim_gi gi[SIM_MAX_GIS]; /* sorted by placement start */
};

struct sim_proc {
  unsigned pid;
  unsigned gpu;
  unsigned gi, ci; /* SIM_INVALID_ID when MIG is off or for holders */
  unsigned long long mem_mib;
  int holder;
  char name[SIM_NAME_LEN];
};

struct sim_xid {
  unsigned long long seq;
  unsigned gpu;
  unsigned gi;
  unsigned code;
};

struct sim_state {
  unsigned long long seed;
  unsigned long long serial; /* last serial handed out; monotonic across re-creation */
  unsigned long long xid_seq;
  unsigned ngpus;
  struct sim_gpu gpu[SIM_MAX_GPUS];
  unsigned nprocs;
  struct sim_proc procs[SIM_MAX_PROCS];
  unsigned nxids;
  struct sim_xid xids[SIM_MAX_XIDS];
};

/* ---- growable text buffer ---- */
struct sbuf {
  char *p;
  size_t len, cap;
  int oom;
};
void sb_init(struct sbuf *b);
void sb_free(struct sbuf *b);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_json_str(struct sbuf *b, const char *s);

/* state.c */
void sim_state_reset(struct sim_state *st);
int sim_state_create(struct sim_state *st, const char *models_csv, unsigned long long seed,
                     const struct sim_state *previous, char *err, size_t errlen);
int sim_parse_model_list(const char *csv, const struct sim_model **out, unsigned *n, char *err,
                         size_t errlen);
void sim_state_models_str(const struct sim_state *st, char *buf, size_t len);
void sim_models_str(const struct sim_model *const *m, unsigned n, char *buf, size_t len);
int sim_state_format(const struct sim_state *st, struct sbuf *b);
int sim_state_parse(struct sim_state *st, const char *text, char *err, size_t errlen);
void sim_gpu_uuid(const struct sim_state *st, unsigned idx, char out[SIM_UUID_LEN]);
void sim_mig_uuid(const struct sim_state *st, unsigned idx, unsigned gi, unsigned ci,
                  char out[SIM_UUID_LEN]);
/* sha1.c */
void sim_sha1(const void *data, size_t len, unsigned char out[20]);
unsigned sim_pci_bus(unsigned idx);
unsigned long long sim_next_serial(struct sim_state *st);
int sim_parse_u64(const char *s, unsigned long long *out);
int sim_parse_uint(const char *s, unsigned *out);
unsigned long long sim_random_seed(void);
int sim_strcaseeq(const char *a, const char *b);

/* ---- library-wide (per loaded copy) runtime ---- */
extern pthread_mutex_t sim_mu;

struct sim_ctx {
  struct sim_state *st;
  int write;
  int dirty;
  int kill;
  int lock_fd;
  int exists; /* the state was configured (file present, or memory state created) */
};

enum { SIM_READ = 0, SIM_WRITE = 1, SIM_NOINIT = 2, SIM_CHANGES = 4 };
/* sim_acquire: whether a missing state is created from NVML_SIM_GPUS, or a bad file ignored */
enum { SIM_ACQ_NOCREATE = 0, SIM_ACQ_CREATE = 1, SIM_ACQ_OVERWRITE = 2 };

/* store.c: call framing, persistence */
int sim_enter(struct sim_ctx *c, enum sim_fn fn, int flags, nvmlReturn_t *rc);
/* gpu: the GPU index the call is aimed at (for faults with @I), SIM_INVALID_ID when none */
int sim_enter_on(struct sim_ctx *c, enum sim_fn fn, int flags, unsigned gpu, nvmlReturn_t *rc);
nvmlReturn_t sim_leave(struct sim_ctx *c, nvmlReturn_t rc);
int sim_reenter(struct sim_ctx *c, int flags, nvmlReturn_t *rc);
void sim_pause(struct sim_ctx *c);
int sim_acquire(struct sim_ctx *c, int write, int autocreate, char *err, size_t errlen);
void sim_release(struct sim_ctx *c);
int sim_commit(struct sim_ctx *c, char *err, size_t errlen);
int sim_initialized(void);
unsigned sim_session(void);
nvmlReturn_t sim_do_init(unsigned flags, enum sim_fn fn);
nvmlReturn_t sim_do_shutdown(void);
const char *sim_state_path(void); /* NULL = in memory */
void sim_set_state_path(const char *path);
void sim_config_load(void);
const char *sim_env_gpus(void);
unsigned long long sim_env_seed(void);

#define API_CALL(fn, flags, expr)                                 \
  do {                                                            \
    struct sim_ctx ctx_;                                          \
    nvmlReturn_t rc_;                                             \
    if (!sim_enter(&ctx_, FN_##fn, (flags), &rc_)) return rc_;    \
    rc_ = (expr);                                                 \
    return sim_leave(&ctx_, rc_);                                 \
  } while (0)

/* A call on a handle (device, MIG device, GPU or compute instance) counts for faults on its GPU. */
#define API_CALL_ON(fn, flags, handle, expr)                                          \
  do {                                                                                \
    struct sim_ctx ctx_;                                                              \
    nvmlReturn_t rc_;                                                                 \
    if (!sim_enter_on(&ctx_, FN_##fn, (flags), sim_handle_gpu((uint64_t)(uintptr_t)(handle)), &rc_)) \
      return rc_;                                                                     \
    rc_ = (expr);                                                                     \
    return sim_leave(&ctx_, rc_);                                                     \
  } while (0)

/* A call naming a GPU by its index. */
#define API_CALL_GPU(fn, flags, index, expr)                                          \
  do {                                                                                \
    struct sim_ctx ctx_;                                                              \
    nvmlReturn_t rc_;                                                                 \
    if (!sim_enter_on(&ctx_, FN_##fn, (flags), (index), &rc_)) return rc_;            \
    rc_ = (expr);                                                                     \
    return sim_leave(&ctx_, rc_);                                                     \
  } while (0)

/* faults.c */
int sim_fault_check(enum sim_fn fn, unsigned gpu, nvmlReturn_t *rc, int *kill);
int sim_faults_set(const char *spec, int strict, char *err, size_t errlen);
unsigned sim_latency_ms(void);
void sim_latency_set(unsigned ms);
const char *sim_return_name(nvmlReturn_t r);

/* handles.c */
enum sim_kind { HK_GPU = 1, HK_MIG = 2, HK_GI = 3, HK_CI = 4, HK_EVSET = 5 };
struct sim_ref {
  enum sim_kind kind;
  unsigned idx;
  struct sim_gpu *gpu;
  struct sim_gi *gi;
  struct sim_ci *ci;
};
unsigned sim_handle_gpu(uint64_t h); /* GPU index of a device/GI/CI handle, else SIM_INVALID_ID */
uint64_t sim_handle_make(enum sim_kind kind, unsigned idx, unsigned gi, unsigned ci,
                         unsigned long long serial);
nvmlDevice_t sim_gpu_handle(const struct sim_state *st, unsigned idx);
nvmlDevice_t sim_mig_handle(unsigned idx, const struct sim_gi *gi, const struct sim_ci *ci);
nvmlGpuInstance_t sim_gi_handle(unsigned idx, const struct sim_gi *gi);
nvmlComputeInstance_t sim_ci_handle(unsigned idx, const struct sim_gi *gi, const struct sim_ci *ci);
nvmlReturn_t sim_resolve(struct sim_state *st, uint64_t h, unsigned kinds, struct sim_ref *r);
#define SIM_KIND_BIT(k) (1u << (k))
#define SIM_DEVICE_KINDS (SIM_KIND_BIT(HK_GPU) | SIM_KIND_BIT(HK_MIG))
nvmlReturn_t sim_resolve_device(struct sim_state *st, nvmlDevice_t d, struct sim_ref *r);
nvmlReturn_t sim_resolve_gpu(struct sim_state *st, nvmlDevice_t d, struct sim_ref *r);
nvmlReturn_t sim_copy_string(char *dst, unsigned len, const char *src);

/* mig_rules.c */
unsigned sim_gi_id_for(const struct sim_model *m, struct sim_placement pl); /* SIM_INVALID_ID: none */
const struct sim_gi_profile *sim_gi_profile_of(const struct sim_gpu *g, const struct sim_gi *gi);
const struct sim_ci_profile *sim_ci_profile_of(const struct sim_gpu *g, const struct sim_gi *gi,
                                               const struct sim_ci *ci);
nvmlReturn_t sim_gi_check(const struct sim_gpu *g, const struct sim_gi_profile *p,
                          const struct sim_placement *want, struct sim_placement *chosen);
unsigned sim_gi_capacity(const struct sim_gpu *g, const struct sim_gi_profile *p);
unsigned sim_ci_placements_for(const struct sim_gi_profile *gp, const struct sim_ci_profile *p,
                               struct sim_placement *out);
nvmlReturn_t sim_ci_check_in(const struct sim_gi_profile *gp, const struct sim_gi *gi,
                             const struct sim_ci_profile *p, const struct sim_placement *want,
                             struct sim_placement *chosen);
unsigned sim_ci_capacity_in(const struct sim_gi_profile *gp, const struct sim_gi *gi,
                            const struct sim_ci_profile *p);
struct sim_gi *sim_gi_add(struct sim_state *st, struct sim_gpu *g, unsigned profile_id,
                          struct sim_placement pl);
struct sim_ci *sim_ci_add(struct sim_state *st, unsigned idx, struct sim_gi *gi,
                          unsigned profile_id, struct sim_placement pl);
void sim_gi_remove(struct sim_gpu *g, struct sim_gi *gi);
void sim_ci_remove(struct sim_gi *gi, struct sim_ci *ci);
struct sim_gi *sim_gi_find(struct sim_gpu *g, unsigned id);
struct sim_ci *sim_ci_find(struct sim_gi *gi, unsigned id);
int sim_mig_index(const struct sim_gpu *g, const struct sim_gi *gi, const struct sim_ci *ci);
int sim_mig_at(struct sim_gpu *g, unsigned index, struct sim_gi **gi, struct sim_ci **ci);
void sim_mig_profile_name(const struct sim_gpu *g, const struct sim_gi *gi, const struct sim_ci *ci,
                          char *out, size_t len);
void sim_ci_profile_name(const struct sim_gi_profile *gp, const struct sim_ci_profile *cp,
                         char *out, size_t len);
unsigned sim_count_procs(const struct sim_state *st, unsigned idx, unsigned gi, unsigned ci,
                         int holders);
unsigned long long sim_used_mib(const struct sim_state *st, unsigned idx, unsigned gi);
void sim_gpu_drop_instances(struct sim_gpu *g);

/* events.c / metrics */
void sim_events_clear(void);
void sim_gpm_clear(void);
unsigned long long sim_now_us(void);
unsigned sim_util_percent(unsigned nprocs);

/* control */
int sim_control_status(struct sim_state *st, int exists, int json, struct sbuf *out);

#endif
