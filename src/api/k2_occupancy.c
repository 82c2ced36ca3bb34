// k2_occupancy.c: which rows (columns) of a K2_Matrix hold an entry, and how many, cached on the
// matrix.
// SPDX-License-Identifier: Apache-2.0
//
// When every u(j) is present, w = A*u has an entry exactly where row i of A is non-empty, for
// any semiring: the structure is the matrix's, not the product's. Knowing it up front lets the
// engines skip presence tracking (the cost the bridge would add to a product) and lets a result
// with every row occupied go to GraphBLAS as a full vector.
#include <stdlib.h>
#include <string.h>

#include "api/k2_api.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_query.h"
#include "util/k2_error.h"

// The degrees of one direction, in A's slot for it.
typedef struct {
  int64_t *deg;
  uint64_t n, occupied;  // occupied: rows with a nonzero degree
} k2_degrees;

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
// A copy for a matrix with the same tree (K2_Matrix_dup: PageRank's and WCC's copies with bottom
// codes would otherwise compute the occupancy of both directions in every run), or NULL.
static void *k2_occupancy_copy(const void *state) {
  const k2_occupancy *o = state;
  k2_occupancy *c = malloc(sizeof *c);
  uint8_t *bytes = malloc(o->n > 0 ? o->n : 1);
  if (c == NULL || bytes == NULL) {
    free(c);
    free(bytes);
    return NULL;
  }
  *c = *o;
  c->bytes = memcpy(bytes, o->bytes, o->n);
  return c;
}
static const k2_slot_ops k2_occupancy_ops = {k2_occupancy_free, k2_occupancy_bytes, false, k2_occupancy_copy};

// A per-row summary of A as one product of the engines over a constant multiply with weight 1
// (every x ignored, so x is zeros): *y gets n values of type t (malloc'd). It runs outside the
// matrix's lock (the engines take it), so racing threads may compute the same summary: the
// first to offer it to the slot wins.
static GrB_Info k2_summary_product(void **y, uint64_t *n, K2_Matrix A, bool left, k2_type t,
                                   k2_monoid m, const char *what) {
  *n = left ? A->tree.ncols : A->tree.nrows;
  const uint64_t nx = left ? A->tree.nrows : A->tree.ncols;
  const size_t ts = k2_type_size(t);
  void *out = malloc((*n > 0 ? *n : 1) * ts), *x = calloc(nx > 0 ? nx : 1, ts);
  if (out == NULL || x == NULL) {
    free(out);
    free(x);
    K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the %s of %llu %s", what,
            (unsigned long long)*n, left ? "columns" : "rows");
  }
  k2_product P = {.type = t, .monoid = m, .mult = K2_MUL_CONST, .w = 1, .left = left,
                  .batch = 1, .x = x, .y = out};
  GrB_Info info = k2_dispatch_product(A, &P, NULL);
  free(x);
  if (info != GrB_SUCCESS) {
    free(out);
    return info;
  }
  *y = out;
  return GrB_SUCCESS;
}

GrB_Info k2_api_occupancy(const uint8_t **occ, uint64_t *count, K2_Matrix A, bool left) {
  // pending edits first: assembling them drops the cache, which must not happen under a reader
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  const k2_slot_id id = left ? K2_SLOT_OCCUPIED_COLS : K2_SLOT_OCCUPIED_ROWS;
  const k2_occupancy *o = k2_slot_get(A, id);
  if (o == NULL) {
    void *y = NULL;
    uint64_t n = 0;
    const k2_degrees *d = k2_slot_get(A, left ? K2_SLOT_DEGREE_COLS : K2_SLOT_DEGREE_ROWS);
    if (d != NULL) {  // from the cached degrees: no traversal
      uint8_t *b = malloc(d->n > 0 ? d->n : 1);
      if (b == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the occupancy of a matrix");
      for (uint64_t i = 0; i < d->n; i++) b[i] = d->deg[i] != 0;
      y = b;
      n = d->n;
    } else {
      // y(i) = LOR over row i of true: 1 iff the row holds an entry
      info = k2_summary_product(&y, &n, A, left, K2_T_BOOL, K2_MON_LOR, "occupancy");
      if (info != GrB_SUCCESS) return info;
    }
    k2_occupancy *mine = calloc(1, sizeof *mine);
    if (mine == NULL) {
      free(y);
      K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the occupancy of a matrix");
    }
    mine->bytes = y;
    mine->n = n;
    for (uint64_t i = 0; i < n; i++) mine->count += mine->bytes[i];
    o = k2_slot_offer(A, id, &k2_occupancy_ops, mine);
  }
  *occ = o->bytes;
  *count = o->count;
  return GrB_SUCCESS;
}

static void k2_degrees_free(void *state) {
  k2_degrees *d = state;
  free(d->deg);
  free(d);
}
static uint64_t k2_degrees_bytes(const void *state) {
  const k2_degrees *d = state;
  return sizeof *d + d->n * sizeof(int64_t);
}
static void *k2_degrees_copy(const void *state) {
  const k2_degrees *d = state;
  k2_degrees *c = malloc(sizeof *c);
  int64_t *deg = malloc((d->n > 0 ? d->n : 1) * sizeof *deg);
  if (c == NULL || deg == NULL) {
    free(c);
    free(deg);
    return NULL;
  }
  *c = *d;
  c->deg = memcpy(deg, d->deg, d->n * sizeof *deg);
  return c;
}
static const k2_slot_ops k2_degrees_ops = {k2_degrees_free, k2_degrees_bytes, false, k2_degrees_copy};

GrB_Info k2_api_degrees(const int64_t **deg, uint64_t *occupied, K2_Matrix A, bool left) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  const k2_slot_id id = left ? K2_SLOT_DEGREE_COLS : K2_SLOT_DEGREE_ROWS;
  const k2_degrees *d = k2_slot_get(A, id);
  if (d == NULL) {
    // y(i) = PLUS over row i of 1 in INT64: the row's entries
    void *y = NULL;
    uint64_t n = 0;
    if ((info = k2_summary_product(&y, &n, A, left, K2_T_INT64, K2_MON_PLUS, "degrees")) != GrB_SUCCESS) return info;
    k2_degrees *mine = calloc(1, sizeof *mine);
    if (mine == NULL) {
      free(y);
      K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the degrees of a matrix");
    }
    mine->deg = y;
    mine->n = n;
    for (uint64_t i = 0; i < n; i++) mine->occupied += mine->deg[i] != 0;
    d = k2_slot_offer(A, id, &k2_degrees_ops, mine);
  }
  *deg = d->deg;
  *occupied = d->occupied;
  return GrB_SUCCESS;
}

uint64_t k2_api_line_count(K2_Matrix A, bool by_col, uint64_t idx) {
  const k2_degrees *d = k2_slot_get(A, by_col ? K2_SLOT_DEGREE_COLS : K2_SLOT_DEGREE_ROWS);
  if (d != NULL && idx < d->n) return (uint64_t)d->deg[idx];
  const k2_occupancy *o = k2_slot_get(A, by_col ? K2_SLOT_OCCUPIED_COLS : K2_SLOT_OCCUPIED_ROWS);
  return o != NULL && idx < o->n && o->bytes[idx] == 0 ? 0 : K2_LINE_UNKNOWN;
}
