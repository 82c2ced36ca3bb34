// k2_alloc.h: heap allocation with failure injection for tests (internal).
// SPDX-License-Identifier: Apache-2.0
//
// k2_malloc, k2_calloc and k2_realloc are malloc, calloc and realloc (release with free()),
// except that a test can make chosen calls fail, to prove that a failure at that point gives a
// clean error: the Nth call from now, or the next call made by a thread other than the one
// arming the hook (an OpenMP worker). Unarmed, a call costs one relaxed atomic load more than
// the libc function. Used by the OpenMP and reference engines, the tree build and the sort.
#ifndef K2_ALLOC_H
#define K2_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *k2_malloc(size_t size);
void *k2_calloc(size_t count, size_t size);
// As realloc: on failure NULL, and p is left allocated and unchanged.
void *k2_realloc(void *p, size_t size);

// ---- test hooks (never called by the library itself) ----------------------------------------
// Each arming call resets the counters and replaces the previous setting; an armed failure
// happens once.
// Fail the nth call counted from now (1: the next one), whichever thread makes it.
void k2_alloc_fail_nth(uint64_t n);
// Fail the next call made by a thread other than the calling one.
void k2_alloc_fail_other_thread(void);
// Count calls from now, failing none.
void k2_alloc_count_start(void);
// Calls counted since the last arming call (every thread), and failures injected since then.
uint64_t k2_alloc_count(void);
uint64_t k2_alloc_failures(void);
// Back to plain allocation: no failing, no counting (the counters keep their values).
void k2_alloc_disarm(void);

#endif
