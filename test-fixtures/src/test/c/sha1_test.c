/* Known-answer test of sim_sha1 (FIPS 180-4 / RFC 3174 vectors); run by build-sim.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static int check(const char *what, const void *data, size_t len, const char *want) {
  unsigned char h[20];
  char hex[41];
  sim_sha1(data, len, h);
  for (unsigned i = 0; i < 20; i++) snprintf(hex + 2 * i, 3, "%02x", h[i]);
  if (strcmp(hex, want) == 0) return 0;
  fprintf(stderr, "sha1(%s) = %s, expected %s\n", what, hex, want);
  return 1;
}

int main(void) {
  int bad = 0;
  bad += check("\"\"", "", 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  bad += check("abc", "abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes: two blocks */
  bad += check("448-bit message", two, strlen(two), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  const char *four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  bad += check("896-bit message", four, strlen(four), "a49b2446a02c645bf419f995b67091253a04a259");
  size_t n = 1000000;
  char *a = malloc(n);
  if (a == NULL) return 2;
  memset(a, 'a', n);
  bad += check("one million 'a'", a, n, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  free(a);
  /* 55, 56 and 64 bytes: the padding edges */
  bad += check("55 x 'a'", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 55, "c1c8bbdc22796e28c0e15163d20899b65621d65a");
  bad += check("64 x 'a'", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 64, "0098ba824b5c16427bd7a1122a5a442a25ec644d");
  return bad == 0 ? 0 : 1;
}
