// k2_occupancy.c: which rows (columns) of a K2_Matrix hold an entry, and how many, cached on the
// matrix.
// SPDX-License-Identifier: Apache-2.0
//
// When every u(j) is present, w = A*u has an entry exactly where row i of A is non-empty, for
// any semiring: the structure is the matrix's, not the product's. Knowing it up front lets the
// engines skip presence tracking (the cost the bridge would add to a product) and lets a result
// with every row occupied go to GraphBLAS as a full vector.
#include <stdlib.h>

#include "api/k2_api.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

// The occupancy of one direction, in A's slot for it.
typedef struct {
  uint8_t *bytes;
  uint64_t count, n;
} k2_occupancy;

static void k2_occupancy_free(void *state) {
  k2_occupancy *o = state;
  free(o->bytes);
  free(o);
}
static uint64_t k2_occupancy_bytes(const void *state) {
  const k2_occupancy *o = state;
  return sizeof *o + o->n;
}
static const k2_slot_ops k2_occupancy_ops = {k2_occupancy_free, k2_occupancy_bytes, false};

GrB_Info k2_api_occupancy(const uint8_t **occ, uint64_t *count, K2_Matrix A, bool left) {
  // pending edits first: assembling them drops the cache, which must not happen under a reader
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  const k2_slot_id id = left ? K2_SLOT_OCCUPIED_COLS : K2_SLOT_OCCUPIED_ROWS;
  const k2_occupancy *o = k2_slot_get(A, id);
  if (o == NULL) {
    // one product of the engines over (LOR, constant true): y(i) = 1 iff row i meets an entry;
    // it runs outside the matrix's lock (the engines take it), so a racing thread may compute
    // the same: the first to offer it wins
    uint64_t n = left ? A->tree.ncols : A->tree.nrows, nx = left ? A->tree.nrows : A->tree.ncols;
    k2_occupancy *mine = calloc(1, sizeof *mine);
    uint8_t *y = malloc(n > 0 ? n : 1), *x = calloc(nx > 0 ? nx : 1, 1);
    if (mine == NULL || y == NULL || x == NULL) {
      free(mine);
      free(y);
      free(x);
      K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the occupancy of %llu %s", (unsigned long long)n, left ? "columns" : "rows");
    }
    k2_product P = {.type = K2_T_BOOL, .monoid = K2_MON_LOR, .mult = K2_MUL_CONST, .w = 1,
                    .left = left, .batch = 1, .x = x, .y = y};
    info = k2_dispatch_product(A, &P, NULL);
    free(x);
    if (info != GrB_SUCCESS) {
      free(y);
      free(mine);
      return info;
    }
    mine->bytes = y;
    mine->n = n;
    for (uint64_t i = 0; i < n; i++) mine->count += y[i];
    o = k2_slot_offer(A, id, &k2_occupancy_ops, mine);
  }
  *occ = o->bytes;
  *count = o->count;
  return GrB_SUCCESS;
}

// The degrees of one direction, in A's slot for it.
typedef struct {
  int64_t *deg;
  uint64_t n;
} k2_degrees;

static void k2_degrees_free(void *state) {
  k2_degrees *d = state;
  free(d->deg);
  free(d);
}
static uint64_t k2_degrees_bytes(const void *state) {
  const k2_degrees *d = state;
  return sizeof *d + d->n * sizeof(int64_t);
}
static const k2_slot_ops k2_degrees_ops = {k2_degrees_free, k2_degrees_bytes, false};

GrB_Info k2_api_degrees(const int64_t **deg, K2_Matrix A, bool left) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  const k2_slot_id id = left ? K2_SLOT_DEGREE_COLS : K2_SLOT_DEGREE_ROWS;
  const k2_degrees *d = k2_slot_get(A, id);
  if (d == NULL) {
    // one product of the engines over (PLUS, constant 1) in INT64; outside the matrix's lock,
    // so a racing thread may compute the same: the first to offer it wins
    uint64_t n = left ? A->tree.ncols : A->tree.nrows, nx = left ? A->tree.nrows : A->tree.ncols;
    k2_degrees *mine = calloc(1, sizeof *mine);
    int64_t *y = malloc((n > 0 ? n : 1) * sizeof(int64_t));
    uint8_t *x = calloc(nx > 0 ? nx : 1, sizeof(int64_t));
    if (mine == NULL || y == NULL || x == NULL) {
      free(mine);
      free(y);
      free(x);
      K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the degrees of %llu %s", (unsigned long long)n,
              left ? "columns" : "rows");
    }
    k2_product P = {.type = K2_T_INT64, .monoid = K2_MON_PLUS, .mult = K2_MUL_CONST, .w = 1,
                    .left = left, .batch = 1, .x = x, .y = y};
    info = k2_dispatch_product(A, &P, NULL);
    free(x);
    if (info != GrB_SUCCESS) {
      free(y);
      free(mine);
      return info;
    }
    mine->deg = y;
    mine->n = n;
    d = k2_slot_offer(A, id, &k2_degrees_ops, mine);
  }
  *deg = d->deg;
  return GrB_SUCCESS;
}
