// k2_copy.c: copies of large host arrays on several threads.
// SPDX-License-Identifier: Apache-2.0
#include "util/k2_copy.h"

#include <omp.h>
#include <stdint.h>
#include <string.h>

// Each thread copies at least this much: below it a parallel region costs more than it saves.
#define K2_COPY_PART ((size_t)128 << 10)

static size_t k2_copy_part_count(size_t bytes) {
  size_t parts = bytes / K2_COPY_PART;
  const size_t threads = omp_in_parallel() ? 1 : (size_t)omp_get_max_threads();
  if (parts > threads) parts = threads;
  return parts < 1 ? 1 : parts;
}

static void k2_copy_parts(size_t parts, void (*fn)(size_t part, void *ctx), void *ctx) {
  if (parts < 2 || omp_in_parallel()) {
    for (size_t i = 0; i < parts; i++) fn(i, ctx);
    return;
  }
#pragma omp parallel for num_threads((int)parts) schedule(static, 1)
  for (size_t i = 0; i < parts; i++) fn(i, ctx);
}

typedef struct {
  char *dst;
  const char *src;
  size_t bytes, step;
} k2_copy_job;

static void k2_copy_one(size_t i, void *ctx) {
  const k2_copy_job *j = ctx;
  const size_t lo = i * j->step;
  if (lo >= j->bytes) return;
  const size_t len = lo + j->step > j->bytes ? j->bytes - lo : j->step;
  memcpy(j->dst + lo, j->src + lo, len);
}

void k2_copy_parallel(void *dst, const void *src, size_t bytes) {
  const size_t parts = k2_copy_part_count(bytes);
  if (parts < 2) {
    if (bytes != 0) memcpy(dst, src, bytes);
    return;
  }
  // parts of whole cache lines, the last one takes the rest
  k2_copy_job j = {dst, src, bytes, (bytes / parts + 63) & ~(size_t)63};
  k2_copy_parts(parts, k2_copy_one, &j);
}

void k2_copy_warm(void) {
  if (omp_in_parallel()) return;
#pragma omp parallel
  (void)omp_get_thread_num();
}
