// k2_oracle.c: products computed straight from an edge list (test oracle).
// SPDX-License-Identifier: Apache-2.0
#include "k2_oracle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void k2_coo_alloc(k2_coo_list *L, uint64_t nrows, uint64_t ncols, uint64_t nvals) {
  L->nrows = nrows;
  L->ncols = ncols;
  L->nvals = nvals;
  L->I = malloc((nvals + 1) * sizeof(uint32_t));
  L->J = malloc((nvals + 1) * sizeof(uint32_t));
  assert_non_null(L->I);
  assert_non_null(L->J);
}

void k2_coo_random(k2_coo_list *L, uint64_t nrows, uint64_t ncols, uint64_t nvals, k2_rng *rng) {
  k2_coo_alloc(L, nrows, ncols, (nrows == 0 || ncols == 0) ? 0 : nvals);
  for (uint64_t k = 0; k < L->nvals; k++) {
    L->I[k] = (uint32_t)k2_rng_below(rng, nrows);
    L->J[k] = (uint32_t)k2_rng_below(rng, ncols);
  }
}

void k2_coo_free(k2_coo_list *L) {
  free(L->I);
  free(L->J);
  L->I = L->J = NULL;
  L->nvals = 0;
}

static int k2_pair_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void k2_coo_canonical(k2_coo_list *L) {
  uint64_t *k = malloc((L->nvals + 1) * sizeof(uint64_t));
  assert_non_null(k);
  for (uint64_t i = 0; i < L->nvals; i++) k[i] = ((uint64_t)L->I[i] << 32) | L->J[i];
  qsort(k, L->nvals, sizeof(uint64_t), k2_pair_cmp);
  uint64_t n = 0;
  for (uint64_t i = 0; i < L->nvals; i++) {
    if (i > 0 && k[i] == k[i - 1]) continue;
    L->I[n] = (uint32_t)(k[i] >> 32);
    L->J[n] = (uint32_t)k[i];
    n++;
  }
  L->nvals = n;
  free(k);
}

// The oracle products assume a canonical (duplicate-free) list.
void k2_oracle_plus_times_f64(double *y, const k2_coo_list *L, const double *x, double w, bool left) {
  uint64_t ny = left ? L->ncols : L->nrows;
  for (uint64_t i = 0; i < ny; i++) y[i] = 0;
  for (uint64_t k = 0; k < L->nvals; k++) {
    uint64_t s = left ? L->I[k] : L->J[k], o = left ? L->J[k] : L->I[k];
    y[o] += x[s] * w;
  }
}

void k2_oracle_lor_land(uint8_t *y, const k2_coo_list *L, const uint8_t *x, bool left) {
  uint64_t ny = left ? L->ncols : L->nrows;
  memset(y, 0, ny);
  for (uint64_t k = 0; k < L->nvals; k++) {
    uint64_t s = left ? L->I[k] : L->J[k], o = left ? L->J[k] : L->I[k];
    if (x[s]) y[o] = 1;
  }
}

void k2_oracle_min_plus_f64(double *y, const k2_coo_list *L, const double *x, double w, bool left) {
  uint64_t ny = left ? L->ncols : L->nrows;
  for (uint64_t i = 0; i < ny; i++) y[i] = INFINITY;
  for (uint64_t k = 0; k < L->nvals; k++) {
    uint64_t s = left ? L->I[k] : L->J[k], o = left ? L->J[k] : L->I[k];
    double v = x[s] + w;
    if (v < y[o]) y[o] = v;
  }
}

void k2_oracle_min_plus_i64(int64_t *y, const k2_coo_list *L, const int64_t *x, int64_t w, bool left) {
  uint64_t ny = left ? L->ncols : L->nrows;
  for (uint64_t i = 0; i < ny; i++) y[i] = INT64_MAX;
  for (uint64_t k = 0; k < L->nvals; k++) {
    uint64_t s = left ? L->I[k] : L->J[k], o = left ? L->J[k] : L->I[k];
    int64_t v = x[s] + w;
    if (v < y[o]) y[o] = v;
  }
}

K2_Matrix k2_test_matrix(const k2_coo_list *L, const K2_Format *fmt) {
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, L->nrows, L->ncols, fmt));
  K2_ASSERT_OK(K2_Matrix_build_32(A, L->I, L->J, L->nvals));
  return A;
}

void k2_assert_same_pattern(K2_Matrix A, const k2_coo_list *C) {
  GrB_Index nv = 0;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, A));
  assert_int_equal(nv, C->nvals);
  uint32_t *I = malloc((nv + 1) * sizeof(uint32_t)), *J = malloc((nv + 1) * sizeof(uint32_t));
  assert_non_null(I);
  assert_non_null(J);
  GrB_Index cnt = nv;
  K2_ASSERT_OK(K2_Matrix_extractTuples_32(I, J, &cnt, A));
  assert_int_equal(cnt, nv);
  for (uint64_t k = 0; k < nv; k++) {
    if (I[k] != C->I[k] || J[k] != C->J[k]) {
      print_error("entry %llu: got (%u,%u), expected (%u,%u)\n", (unsigned long long)k, I[k], J[k],
                  C->I[k], C->J[k]);
      fail();
    }
  }
  free(I);
  free(J);
}

uint64_t k2_oracle_stripe_blocks(const k2_coo_list *L, uint32_t side_log, uint32_t from, uint32_t to,
                                 uint64_t idx, bool by_row) {
  uint64_t total = 0;
  uint8_t *seen = malloc(to > 0 ? (UINT64_C(1) << (to - 1)) + 1 : 1);
  assert_non_null(seen);
  for (uint32_t t = from; t < to; t++) {
    const uint32_t sh = side_log - t;  // blocks of level t are 2^sh wide
    memset(seen, 0, (UINT64_C(1) << t) + 1);
    for (uint64_t k = 0; k < L->nvals; k++) {
      const uint64_t in = by_row ? L->I[k] : L->J[k], out = by_row ? L->J[k] : L->I[k];
      if ((in >> sh) != (idx >> sh)) continue;
      const uint64_t b = out >> sh;
      if (!seen[b]) {
        seen[b] = 1;
        total++;
      }
    }
  }
  free(seen);
  return total;
}
