// k2_sort.c: parallel LSD radix sort of 64-bit keys (OpenMP).
// SPDX-License-Identifier: Apache-2.0
#include "util/k2_sort.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "util/k2_alloc.h"

#define K2_MAX_THREADS 256

// Stable sort of keys[0..n) by their low `bits` bits (<= 64; higher bits ride along: a key can
// carry a payload) using tmp[0..n); returns the array that holds the result (keys or tmp).
uint64_t *k2_sort_u64(uint64_t *keys, uint64_t *tmp, uint64_t n, uint32_t bits) {
  enum { DIGIT = 8, BUCKETS = 1 << DIGIT };
  int nthreads = omp_get_max_threads();
  if (nthreads > K2_MAX_THREADS) nthreads = K2_MAX_THREADS;
  if (n < 100000) nthreads = 1;
  uint64_t (*h)[BUCKETS] = k2_malloc(sizeof(uint64_t[BUCKETS]) * (size_t)nthreads);
  if (h == NULL) return NULL;
  uint64_t *src = keys, *dst = tmp;
  for (uint32_t shift = 0; shift < bits; shift += DIGIT) {
    bool trivial = false;
    // the last digit may be narrower: bits above `bits` are payload, not key
    const uint64_t mask = bits - shift < DIGIT ? (UINT64_C(1) << (bits - shift)) - 1 : BUCKETS - 1;
#pragma omp parallel num_threads(nthreads)
    {
      int t = omp_get_thread_num(), nt = omp_get_num_threads();
      uint64_t lo = n * (uint64_t)t / (uint64_t)nt, hi = n * (uint64_t)(t + 1) / (uint64_t)nt;
      uint64_t *my = h[t];
      memset(my, 0, sizeof(uint64_t) * BUCKETS);
      for (uint64_t i = lo; i < hi; i++) my[(src[i] >> shift) & mask]++;
#pragma omp barrier
#pragma omp single
      {
        // exclusive offsets: bucket-major, thread-minor
        uint64_t sum = 0;
        uint32_t nonempty = 0;
        for (int b = 0; b < BUCKETS; b++) {
          uint64_t bucket_total = 0;
          for (int u = 0; u < nt; u++) {
            uint64_t c = h[u][b];
            h[u][b] = sum;
            sum += c;
            bucket_total += c;
          }
          nonempty += bucket_total != 0;
        }
        trivial = nonempty <= 1;
      }
      if (!trivial) {
        uint64_t *off = h[t];
        for (uint64_t i = lo; i < hi; i++) {
          uint64_t k = src[i];
          dst[off[(k >> shift) & mask]++] = k;
        }
      }
    }
    if (!trivial) {
      uint64_t *s = src;
      src = dst;
      dst = s;
    }
  }
  free(h);
  return src;
}

