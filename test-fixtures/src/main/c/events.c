/*
 * Event sets (per process, per library copy). XID events live in the state's log, so an XID
 * injected by another process through the state file reaches this process's sets.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "sim.h"

#define SIM_MAX_EVSETS 64
#define SIM_EVENT_POLL_MS 10u
#define SIM_SUPPORTED_EVENTS \
  (SIM_EVENT_SINGLE_BIT_ECC | SIM_EVENT_DOUBLE_BIT_ECC | SIM_EVENT_PSTATE | SIM_EVENT_XID_CRITICAL | SIM_EVENT_CLOCK)

struct evset {
  int used;
  unsigned long long serial;
  unsigned long long cursor;               /* last XID sequence number delivered or passed */
  unsigned long long mask[SIM_MAX_GPUS];   /* registered event types per GPU */
  unsigned long long from[SIM_MAX_GPUS];   /* first XID sequence number a GPU's registration sees */
};

static struct evset sets[SIM_MAX_EVSETS];
static unsigned long long evset_serial;

void sim_events_clear(void) { memset(sets, 0, sizeof(sets)); }

static struct evset *evset_of(nvmlEventSet_t s) {
  uint64_t h = (uint64_t)(uintptr_t)s;
  unsigned slot = (unsigned)(h >> 40) & 0xFFu;
  if ((h >> 61) != HK_EVSET || ((h >> 48) & 0xFFu) != (sim_session() & 0xFFu) || slot >= SIM_MAX_EVSETS)
    return NULL;
  struct evset *e = &sets[slot];
  if (!e->used || (e->serial & 0xFFFFFFFFull) != (h & 0xFFFFFFFFull)) return NULL;
  return e;
}

static nvmlReturn_t evset_create(struct sim_ctx *c, nvmlEventSet_t *out) {
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  for (unsigned i = 0; i < SIM_MAX_EVSETS; i++) {
    if (sets[i].used) continue;
    memset(&sets[i], 0, sizeof(sets[i]));
    sets[i].used = 1;
    sets[i].serial = ++evset_serial;
    sets[i].cursor = c->st->xid_seq;
    *out = (nvmlEventSet_t)(uintptr_t)sim_handle_make(HK_EVSET, 0, i, 0, sets[i].serial);
    return NVML_SUCCESS;
  }
  return NVML_ERROR_MEMORY;
}

SIM_API nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set) {
  API_CALL(nvmlEventSetCreate, SIM_READ, evset_create(&ctx_, set));
}

static nvmlReturn_t evset_free(nvmlEventSet_t s) {
  struct evset *e = evset_of(s);
  if (e == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  memset(e, 0, sizeof(*e));
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) { API_CALL(nvmlEventSetFree, SIM_READ, evset_free(set)); }

static nvmlReturn_t supported_types(struct sim_ctx *c, nvmlDevice_t d, unsigned long long *out) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *out = SIM_SUPPORTED_EVENTS;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device, unsigned long long *eventTypes) {
  API_CALL_ON(nvmlDeviceGetSupportedEventTypes, SIM_READ, device, supported_types(&ctx_, device, eventTypes));
}

static nvmlReturn_t register_events(struct sim_ctx *c, nvmlDevice_t d, unsigned long long types, nvmlEventSet_t s) {
  struct sim_ref r;
  nvmlReturn_t rc = sim_resolve_device(c->st, d, &r);
  if (rc != NVML_SUCCESS) return rc;
  struct evset *e = evset_of(s);
  if (e == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (r.kind == HK_MIG || (types & ~SIM_SUPPORTED_EVENTS) != 0) return NVML_ERROR_NOT_SUPPORTED;
  if (types == 0) return NVML_SUCCESS;
  if (e->mask[r.idx] == 0) e->from[r.idx] = c->st->xid_seq + 1;
  e->mask[r.idx] |= types;
  return NVML_SUCCESS;
}

SIM_API nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes, nvmlEventSet_t set) {
  API_CALL_ON(nvmlDeviceRegisterEvents, SIM_READ, device, register_events(&ctx_, device, eventTypes, set));
}

/* SUCCESS with data filled, TIMEOUT when nothing is queued, INVALID_ARGUMENT for a bad set. */
static nvmlReturn_t try_deliver(struct sim_ctx *c, nvmlEventSet_t s, nvmlEventData_t *data) {
  struct evset *e = evset_of(s);
  if (e == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  const struct sim_state *st = c->st;
  if (st->xid_seq < e->cursor) {
    /* the state was re-created from scratch: its log starts again */
    e->cursor = 0;
    for (unsigned i = 0; i < SIM_MAX_GPUS; i++) e->from[i] = 0;
  }
  for (unsigned i = 0; i < st->nxids; i++) {
    const struct sim_xid *x = &st->xids[i];
    if (x->seq <= e->cursor || x->gpu >= st->ngpus || x->gpu >= SIM_MAX_GPUS) continue;
    if (!(e->mask[x->gpu] & SIM_EVENT_XID_CRITICAL) || x->seq < e->from[x->gpu]) continue;
    memset(data, 0, sizeof(*data));
    data->device = sim_gpu_handle(st, x->gpu);
    data->eventType = SIM_EVENT_XID_CRITICAL;
    data->eventData = x->code;
    data->gpuInstanceId = x->gi;
    data->computeInstanceId = SIM_INVALID_ID;
    e->cursor = x->seq;
    return NVML_SUCCESS;
  }
  return NVML_ERROR_TIMEOUT;
}

static unsigned long long mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000ull + (unsigned long long)ts.tv_nsec / 1000000ull;
}

SIM_API nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms) {
  struct sim_ctx c;
  nvmlReturn_t rc;
  if (!sim_enter(&c, FN_nvmlEventSetWait_v2, SIM_READ, &rc)) return rc;
  if (data == NULL) return sim_leave(&c, NVML_ERROR_INVALID_ARGUMENT);
  unsigned long long deadline = mono_ms() + timeoutms;
  for (;;) {
    rc = try_deliver(&c, set, data);
    unsigned long long now = mono_ms();
    if (rc != NVML_ERROR_TIMEOUT || now >= deadline) return sim_leave(&c, rc);
    unsigned long long left = deadline - now;
    unsigned ms = left < SIM_EVENT_POLL_MS ? (unsigned)left : SIM_EVENT_POLL_MS;
    sim_pause(&c); /* never sleep holding the mutex or the file lock */
    struct timespec ts = {0, (long)ms * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    if (!sim_reenter(&c, SIM_READ, &rc)) return rc;
  }
}
