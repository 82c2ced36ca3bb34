// k2_copy.c: copies of large host arrays on several threads.
// SPDX-License-Identifier: Apache-2.0
#include "util/k2_copy.h"

#include <omp.h>
#include <stdint.h>
#include <string.h>

// Below this a parallel region costs more than it saves; each thread gets at least this much.
#define K2_COPY_CHUNK ((size_t)128 << 10)

void k2_copy_parallel(void *dst, const void *src, size_t bytes) {
  size_t parts = bytes / K2_COPY_CHUNK;
  const size_t threads = (size_t)omp_get_max_threads();
  if (parts > threads) parts = threads;
  if (parts < 2 || omp_in_parallel()) {
    if (bytes != 0) memcpy(dst, src, bytes);
    return;
  }
  // parts of whole cache lines, the last one takes the rest
  const size_t step = (bytes / parts + 63) & ~(size_t)63;
#pragma omp parallel for num_threads((int)parts) schedule(static, 1)
  for (size_t i = 0; i < parts; i++) {
    const size_t lo = i * step;
    if (lo >= bytes) continue;
    const size_t len = i + 1 == parts || lo + step > bytes ? bytes - lo : step;
    memcpy((char *)dst + lo, (const char *)src + lo, len);
  }
}
