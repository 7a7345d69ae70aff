/* Small helpers: text buffers, number parsing, clocks, seeds. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

void sb_init(struct sbuf *b) {
  b->p = NULL;
  b->len = b->cap = 0;
  b->oom = 0;
}

void sb_free(struct sbuf *b) {
  free(b->p);
  sb_init(b);
}

static int sb_reserve(struct sbuf *b, size_t extra) {
  if (b->oom) return -1;
  if (b->len + extra + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = realloc(b->p, cap);
  if (p == NULL) {
    b->oom = 1;
    return -1;
  }
  b->p = p;
  b->cap = cap;
  return 0;
}

void sb_printf(struct sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n >= 0 && sb_reserve(b, (size_t)n) == 0) {
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  }
  va_end(ap2);
}

void sb_json_str(struct sbuf *b, const char *s) {
  sb_printf(b, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') sb_printf(b, "\\%c", *p);
    else if (*p < 0x20) sb_printf(b, "\\u%04x", *p);
    else sb_printf(b, "%c", *p);
  }
  sb_printf(b, "\"");
}

/* Decimal or 0x hex, full string, no sign. */
int sim_parse_u64(const char *s, unsigned long long *out) {
  if (s == NULL || *s == '\0' || *s == '-' || *s == '+' || isspace((unsigned char)*s)) return -1;
  char *end = NULL;
  errno = 0;
  unsigned long long v;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    if (s[2] == '\0') return -1;
    v = strtoull(s + 2, &end, 16);
  } else {
    v = strtoull(s, &end, 10);
  }
  if (errno != 0 || end == NULL || *end != '\0') return -1;
  *out = v;
  return 0;
}

int sim_parse_uint(const char *s, unsigned *out) {
  unsigned long long v;
  if (sim_parse_u64(s, &v) != 0 || v > 0xFFFFFFFFull) return -1;
  *out = (unsigned)v;
  return 0;
}

int sim_strcaseeq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

unsigned long long sim_random_seed(void) {
  unsigned long long v = 0;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n = read(fd, &v, sizeof(v));
    close(fd);
    if (n == (ssize_t)sizeof(v)) return v;
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ((unsigned long long)ts.tv_sec * 1000000007ull) ^ (unsigned long long)ts.tv_nsec ^
         ((unsigned long long)getpid() << 32);
}

unsigned long long sim_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000ull;
}

/* Copies a NUL-terminated string into a caller buffer of len bytes (NVML string convention). */
nvmlReturn_t sim_copy_string(char *dst, unsigned len, const char *src) {
  if (dst == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  size_t need = strlen(src) + 1;
  if (need > len) return NVML_ERROR_INSUFFICIENT_SIZE;
  memcpy(dst, src, need);
  return NVML_SUCCESS;
}

/* Busy percentage the simulator reports for a scope with nprocs compute processes. */
unsigned sim_util_percent(unsigned nprocs) {
  unsigned v = nprocs * 30u;
  return v > 100u ? 100u : v;
}
