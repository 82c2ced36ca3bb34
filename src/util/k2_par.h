// k2_par.h: a loop over the OpenMP threads only where it is long enough to share.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_PAR_H
#define K2_PAR_H

#include <stdint.h>

// for (i = 0; i < n; i++) { body }: on the OpenMP threads (static schedule) from `min`
// iterations, below that with no OpenMP construct at all, since libgomp's region of one thread
// still costs a futex call, and its loop's barrier another (three per product on a small tree).
#define K2_PAR_FOR(n, min, i, ...)                                \
  do {                                                            \
    if ((n) >= (min)) {                                           \
      _Pragma("omp parallel for schedule(static)")                \
      for (uint64_t i = 0; i < (n); i++) { __VA_ARGS__; }         \
    } else {                                                      \
      for (uint64_t i = 0; i < (n); i++) { __VA_ARGS__; }         \
    }                                                             \
  } while (0)

#endif
