// k2_settings.c: the API's global settings, the burble and the last path per thread.
// SPDX-License-Identifier: Apache-2.0
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/k2_api.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

// -1 = not yet read from the environment
static atomic_int k2_burble_flag = -1;
static atomic_bool k2_cache_flag = true;
static atomic_bool k2_fallback_flag = false;
static _Thread_local K2_Path k2_last = K2_PATH_NONE;

bool k2_api_burble(void) {
  int b = atomic_load(&k2_burble_flag);
  if (b < 0) {
    const char *e = getenv("K2GRB_BURBLE");
    b = (e != NULL && e[0] != '\0' && strcmp(e, "0") != 0) ? 1 : 0;
    int expected = -1;
    atomic_compare_exchange_strong(&k2_burble_flag, &expected, b);
    b = atomic_load(&k2_burble_flag);
    k2_error_set_burble(b == 1);
  }
  // GxB_set (GxB_BURBLE, true) turns ours on too. SuiteSparse's flag is read here, at each
  // product, rather than caught in a wrapper of GxB_set: it then follows whoever sets it (the
  // program with or without the overlay, a library such as LAGraph, a debugger) at the cost of
  // one call that reads a global (about 15 ns). Before GrB_init the call fails: off.
  return b == 1 || k2_error_grb_burble();
}

GrB_Info K2_set_burble(bool enable) {
  atomic_store(&k2_burble_flag, enable ? 1 : 0);
  k2_error_set_burble(enable);
  return GrB_SUCCESS;
}

GrB_Info K2_get_burble(bool *enable) {
  if (enable == NULL) return GrB_NULL_POINTER;
  *enable = k2_api_burble();
  return GrB_SUCCESS;
}

bool k2_api_cache_enabled(void) { return atomic_load(&k2_cache_flag); }

GrB_Info K2_set_grb_cache(bool enable) {
  atomic_store(&k2_cache_flag, enable);
  return GrB_SUCCESS;
}

GrB_Info K2_get_grb_cache(bool *enable) {
  if (enable == NULL) return GrB_NULL_POINTER;
  *enable = atomic_load(&k2_cache_flag);
  return GrB_SUCCESS;
}

bool k2_api_force_fallback(void) { return atomic_load(&k2_fallback_flag); }

GrB_Info K2_set_force_fallback(bool enable) {
  atomic_store(&k2_fallback_flag, enable);
  return GrB_SUCCESS;
}

void k2_api_set_path(K2_Path path) { k2_last = path; }
K2_Path K2_last_path(void) { return k2_last; }

const char *K2_path_name(K2_Path path) {
  switch (path) {
    case K2_PATH_NATIVE_CPU: return "native CPU";
    case K2_PATH_NATIVE_GPU: return "native GPU";
    case K2_PATH_FALLBACK: return "fallback";
    default: return "none";
  }
}

void k2_api_say(const char *fn, K2_Path path, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  // one fprintf per line so lines of concurrent products do not interleave
  fprintf(stderr, "k2grb: %s: %s: %s\n", fn, K2_path_name(path), line);
}

GrB_Info k2_api_check_matrix(K2_Matrix A, const char *fn) {
  GrB_Info info = k2_matrix_check(A, fn);
  if (info != GrB_SUCCESS) return info;
  const k2_tree *t = &A->tree;
  if (t->nrows > K2_INDEX_MAX || t->ncols > K2_INDEX_MAX || t->leaf_log < 1 || t->leaf_log > 3 ||
      t->levels + t->leaf_log != t->side_log || t->level_start == NULL) {
    K2_MATRIX_FAIL(A, GrB_INVALID_OBJECT, "%s: the K2_Matrix is in an invalid state (shape "
                   "%llu x %llu, %u levels of side 2^%u, leaves 2^%u)", fn,
                   (unsigned long long)t->nrows, (unsigned long long)t->ncols, t->levels,
                   t->side_log, t->leaf_log);
  }
  return GrB_SUCCESS;
}
