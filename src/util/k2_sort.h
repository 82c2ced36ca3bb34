// k2_sort.h: parallel radix sort (internal).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_SORT_H
#define K2_SORT_H

#include <stdbool.h>
#include <stdint.h>

// Sort keys[0..n) ascending, using tmp[0..n) as buffer; only the low `bits` bits of a key may be
// set. Returns the array holding the result (keys or tmp), or NULL if out of memory.
uint64_t *k2_sort_u64(uint64_t *keys, uint64_t *tmp, uint64_t n, uint32_t bits);

#endif
