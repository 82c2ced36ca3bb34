// k2_test.h: shared helpers of the test programs (cmocka).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_TEST_H
#define K2_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <cmocka.h>

#include <k2grb.h>

// Exit code CTest reads as "skipped".
#define K2_TEST_SKIP 77

// Assert a GrB_Info is GrB_SUCCESS, printing the library's last message otherwise.
#define K2_ASSERT_OK(call)                                                             \
  do {                                                                                 \
    GrB_Info k2_info_ = (call);                                                        \
    if (k2_info_ != GrB_SUCCESS) {                                                     \
      print_error("%s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #call,            \
                  (int)k2_info_, K2_error_string());                                   \
      fail();                                                                          \
    }                                                                                  \
  } while (0)

// Deterministic random numbers (splitmix64): tests print their seed on failure.
typedef struct { uint64_t s; } k2_rng;
static inline uint64_t k2_rng_next(k2_rng *r) {
  uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static inline uint64_t k2_rng_below(k2_rng *r, uint64_t n) { return n ? k2_rng_next(r) % n : 0; }
static inline double k2_rng_unit(k2_rng *r) { return (double)(k2_rng_next(r) >> 11) * 0x1.0p-53; }

// Path of a file of the shared data folder (../shared/data from the source tree), or NULL if
// the folder is absent (the caller skips with a message). Returns a static buffer.
const char *k2_test_data_path(const char *relative);

// cmocka group setup/teardown that initialise and finalise k2grb (and GraphBLAS).
int k2_test_setup(void **state);
int k2_test_teardown(void **state);

// Run only the tests whose name matches $K2GRB_TEST_FILTER (cmocka wildcards); call first in main.
static inline void k2_test_filter_from_env(void) {
  const char *f = getenv("K2GRB_TEST_FILTER");
  if (f != NULL) cmocka_set_test_filter(f);
}

// K2GRB_TEST_QUICK=1: the tests that search from every source or along thousands of levels do a
// few of them (one process under compute-sanitizer, whose launches cost milliseconds each, then
// ends within minutes); every code path they reach stays reached.
static inline bool k2_test_quick(void) {
  const char *q = getenv("K2GRB_TEST_QUICK");
  return q != NULL && q[0] == '1';
}

#endif
