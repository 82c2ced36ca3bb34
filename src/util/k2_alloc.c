// k2_alloc.c: heap allocation with failure injection for tests.
// SPDX-License-Identifier: Apache-2.0
#include "util/k2_alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

enum {
  K2_ALLOC_COUNT = 1,  // count calls
  K2_ALLOC_NTH = 2,    // fail call number k2_alloc_target
  K2_ALLOC_OTHER = 4,  // fail the next call from a thread other than k2_alloc_owner
};

static atomic_uint k2_alloc_mode;  // 0: plain allocation (the only load on the fast path)
static atomic_uint_fast64_t k2_alloc_calls, k2_alloc_failed;
static uint64_t k2_alloc_target;
static pthread_t k2_alloc_owner;

// The target and the owner are written before the mode is published (release); a call that
// sees the mode (acquire) sees them. Tests arm the hooks while no other thread allocates.
static void k2_alloc_arm(unsigned mode, uint64_t target) {
  atomic_store(&k2_alloc_mode, 0);
  k2_alloc_target = target;
  k2_alloc_owner = pthread_self();
  atomic_store(&k2_alloc_calls, 0);
  atomic_store(&k2_alloc_failed, 0);
  atomic_store_explicit(&k2_alloc_mode, mode, memory_order_release);
}

void k2_alloc_fail_nth(uint64_t n) { k2_alloc_arm(K2_ALLOC_COUNT | K2_ALLOC_NTH, n); }

void k2_alloc_fail_other_thread(void) { k2_alloc_arm(K2_ALLOC_COUNT | K2_ALLOC_OTHER, 0); }

void k2_alloc_count_start(void) { k2_alloc_arm(K2_ALLOC_COUNT, 0); }

uint64_t k2_alloc_count(void) { return atomic_load(&k2_alloc_calls); }

uint64_t k2_alloc_failures(void) { return atomic_load(&k2_alloc_failed); }

void k2_alloc_disarm(void) { atomic_store(&k2_alloc_mode, 0); }

// Clear `bit` from the mode; true for the one caller that cleared it (the failure happens once).
static bool k2_alloc_take(unsigned bit) {
  return (atomic_fetch_and(&k2_alloc_mode, ~bit) & bit) != 0;
}

static bool k2_alloc_slow(void) {
  const unsigned mode = atomic_load_explicit(&k2_alloc_mode, memory_order_acquire);
  if (mode == 0) return false;
  const uint64_t call = atomic_fetch_add(&k2_alloc_calls, 1) + 1;
  bool fail = false;
  if ((mode & K2_ALLOC_NTH) && call == k2_alloc_target) fail = k2_alloc_take(K2_ALLOC_NTH);
  if (!fail && (mode & K2_ALLOC_OTHER) && !pthread_equal(pthread_self(), k2_alloc_owner))
    fail = k2_alloc_take(K2_ALLOC_OTHER);
  if (fail) atomic_fetch_add(&k2_alloc_failed, 1);
  return fail;
}

static inline bool k2_alloc_fails(void) {
  if (__builtin_expect(atomic_load_explicit(&k2_alloc_mode, memory_order_relaxed) == 0, 1))
    return false;
  return k2_alloc_slow();
}

void *k2_malloc(size_t size) { return k2_alloc_fails() ? NULL : malloc(size); }

void *k2_calloc(size_t count, size_t size) { return k2_alloc_fails() ? NULL : calloc(count, size); }

void *k2_realloc(void *p, size_t size) { return k2_alloc_fails() ? NULL : realloc(p, size); }
