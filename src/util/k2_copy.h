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

// fn(i, ctx) for i < parts, on up to `parts` OpenMP threads (inline when parts < 2 or already in
// a parallel region): the CUDA engine's staged copies, whose parts each copy and issue a DMA.
void k2_copy_parts(size_t parts, void (*fn)(size_t part, void *ctx), void *ctx);

// The number of parts worth splitting `bytes` into (at least K2_COPY_PART bytes each, at most the
// threads OpenMP would use); 1 for small copies.
#define K2_COPY_PART ((size_t)128 << 10)
size_t k2_copy_part_count(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
