// k2_clock.h: the monotonic clock the library's timings share (internal). Plain C, also read by
// the CUDA engine.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_CLOCK_H
#define K2_CLOCK_H

#include <time.h>

// Seconds on CLOCK_MONOTONIC: every timed step of a product reads this one clock, so that steps
// measured in different layers can be added and compared.
static inline double k2_clock_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
