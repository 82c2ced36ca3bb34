// k2_occupancy.c: which rows (columns) of a K2_Matrix hold an entry, cached on the matrix.
// SPDX-License-Identifier: Apache-2.0
//
// When every u(j) is present, w = A*u has an entry exactly where row i of A is non-empty, for
// any semiring: the structure is the matrix's, not the product's. Knowing it up front lets the
// engines skip presence tracking (the cost the bridge would add to a product) and lets a result
// with every row occupied go to GraphBLAS as a full vector.
#include <stdlib.h>

#include "bridge/k2_bridge.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

GrB_Info k2_bridge_occupancy(const uint8_t **occ, uint64_t *count, K2_Matrix A, bool left) {
  // pending edits first: assembling them drops the cache, which must not happen under a reader
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  int d = left ? 1 : 0;
  uint8_t *bytes = __atomic_load_n(&A->occupied[d], __ATOMIC_ACQUIRE);
  if (bytes == NULL) {
    // one product of the engines over (LOR, constant true): y(i) = 1 iff row i meets an entry
    uint64_t n = left ? A->tree.ncols : A->tree.nrows, nx = left ? A->tree.nrows : A->tree.ncols;
    uint8_t *y = malloc(n > 0 ? n : 1), *x = calloc(nx > 0 ? nx : 1, 1);
    if (y == NULL || x == NULL) {
      free(y);
      free(x);
      K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the occupancy of %llu %s", (unsigned long long)n, left ? "columns" : "rows");
    }
    k2_product P = {.type = K2_T_BOOL, .monoid = K2_MON_LOR, .mult = K2_MUL_CONST, .w = 1,
                    .left = left, .batch = 1, .x = x, .y = y};
    info = k2_dispatch_product(A, &P);
    free(x);
    if (info != GrB_SUCCESS) {
      free(y);
      return info;
    }
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++) c += y[i];
    // another thread may have filled the cache meanwhile: keep the first, drop ours
    pthread_mutex_lock(&A->lock);
    if (A->occupied[d] == NULL) {
      A->occupied_count[d] = c;
      __atomic_store_n(&A->occupied[d], y, __ATOMIC_RELEASE);
      y = NULL;
    }
    pthread_mutex_unlock(&A->lock);
    free(y);
    bytes = A->occupied[d];
  }
  *occ = bytes;
  *count = A->occupied_count[d];
  return GrB_SUCCESS;
}
