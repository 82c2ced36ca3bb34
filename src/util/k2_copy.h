// k2_copy.h: copies of large host arrays on several threads (internal). Plain C, also called by
// the CUDA engine, whose staging through pinned memory is otherwise bound by one core's copy rate.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_COPY_H
#define K2_COPY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// memcpy(dst, src, bytes) for arrays that do not overlap; above a few hundred KB the copy is
// split over the OpenMP threads (one core copies far slower than the host's memory bandwidth).
void k2_copy_parallel(void *dst, const void *src, size_t bytes);

// Starts the OpenMP threads the copies run on, so that the first copy does not pay for their
// creation (the CUDA engine calls it with the context, whose start is timed apart).
void k2_copy_warm(void);

#ifdef __cplusplus
}
#endif

#endif
