/*
 * SHA-1 (FIPS 180-4, section 6.1) for the name-based (version 5) MIG UUIDs. Written from the
 * standard's description; one-shot over a buffer that is never large.
 */
#include <string.h>

#include "sim.h"

static uint32_t rotl(uint32_t x, unsigned n) { return (x << n) | (x >> (32u - n)); }

static void compress(uint32_t h[5], const unsigned char block[64]) {
  uint32_t w[80];
  for (unsigned t = 0; t < 16; t++)
    w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
           (uint32_t)block[4 * t + 2] << 8 | (uint32_t)block[4 * t + 3];
  for (unsigned t = 16; t < 80; t++) w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (unsigned t = 0; t < 80; t++) {
    uint32_t f, k;
    if (t < 20) {
      f = (b & c) ^ (~b & d); /* Ch */
      k = 0x5A827999u;
    } else if (t < 40) {
      f = b ^ c ^ d; /* Parity */
      k = 0x6ED9EBA1u;
    } else if (t < 60) {
      f = (b & c) ^ (b & d) ^ (c & d); /* Maj */
      k = 0x8F1BBCDCu;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6u;
    }
    uint32_t tmp = rotl(a, 5) + f + e + k + w[t];
    e = d;
    d = c;
    c = rotl(b, 30);
    b = a;
    a = tmp;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
}

void sim_sha1(const void *data, size_t len, unsigned char out[20]) {
  uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  const unsigned char *p = data;
  size_t left = len;
  while (left >= 64) {
    compress(h, p);
    p += 64;
    left -= 64;
  }
  /* Padding: 0x80, zeros, then the message length in bits as a 64-bit big-endian number. */
  unsigned char tail[128];
  memset(tail, 0, sizeof(tail));
  memcpy(tail, p, left);
  tail[left] = 0x80;
  size_t tail_len = left + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = (uint64_t)len * 8u;
  for (unsigned i = 0; i < 8; i++) tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
  compress(h, tail);
  if (tail_len == 128) compress(h, tail + 64);
  for (unsigned i = 0; i < 5; i++) {
    out[4 * i] = (unsigned char)(h[i] >> 24);
    out[4 * i + 1] = (unsigned char)(h[i] >> 16);
    out[4 * i + 2] = (unsigned char)(h[i] >> 8);
    out[4 * i + 3] = (unsigned char)h[i];
  }
}
