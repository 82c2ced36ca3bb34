// k2_sort.h: parallel radix sort (internal).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_SORT_H
#define K2_SORT_H

#include <stdbool.h>
#include <stdint.h>

// Stable sort of keys[0..n) by their low `bits` bits (higher bits ride along: a key can carry a
// payload), using tmp[0..n) as buffer. Returns the array holding the result (keys or tmp), or
// NULL if out of memory.
uint64_t *k2_sort_u64(uint64_t *keys, uint64_t *tmp, uint64_t n, uint32_t bits);

#endif
