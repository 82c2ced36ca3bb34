// test_tree.c: the k²-tree format: the paper's Figure 1, round trips, queries, pending edits.
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "k2_image.h"
#include "api/k2_api.h"
#include "k2_oracle.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_query.h"
#include "util/k2_sort.h"

// Figure 1 of the paper (DIGEST.md §1): 8x8, 12 cells.
static const uint32_t fig_I[] = {1, 0, 1, 3, 5, 5, 6, 6, 6, 6, 7, 7};
static const uint32_t fig_J[] = {1, 4, 5, 5, 1, 2, 1, 2, 6, 7, 6, 7};

static void test_figure1_signatures(void **state) {
  (void)state;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  k2_view v;
  k2_tree_view(&v, &A->tree, 1.0);
  assert_int_equal(v.side_log, 3);
  assert_int_equal(v.levels, 2);  // root + level 1; leaves below
  assert_int_equal(v.n_internal, 5);
  assert_int_equal(v.n_leaves, 8);
  // signatures with bit b = quadrant b: "1111" | "1000 1010 1111 0001" (bit 0 written first)
  const unsigned internal[5] = {15, 1, 5, 15, 8};
  for (unsigned p = 0; p < 5; p++) assert_int_equal(k2_view_sig(&v, p), internal[p]);
  // leaves "0001 1001 0001 0001 0010 0100 1000 1111"
  const unsigned leaf[8] = {8, 9, 8, 8, 4, 2, 1, 15};
  for (unsigned q = 0; q < 8; q++) assert_int_equal(k2_view_leaf(&v, q), leaf[q]);
  // first children of level 1: offsets 0, 1, 3, 7 within the leaf level
  const unsigned off[4] = {0, 1, 3, 7};
  for (unsigned t = 0; t < 4; t++) assert_int_equal(k2_view_first_child(&v, 1 + t) - 5, off[t]);
  assert_int_equal(v.level_start[0], 0);
  assert_int_equal(v.level_start[1], 1);
  assert_int_equal(v.level_start[2], 5);
  assert_int_equal(v.level_start[3], 13);
  // 16 bytes of signatures and leaves leave no room for a directory or top codes: the view
  // makes up a directory of one sample (the root's first child) and the root as the top level
  assert_int_equal(A->tree.dir_len, 0);
  assert_null(A->tree.dir);
  assert_int_equal(A->tree.top_count, 0);
  assert_null(A->tree.top_codes);
  assert_int_equal(v.dir_len, 1);
  assert_int_equal(v.dir[0], 1);
  assert_null(v.dir_lo);
  assert_true((UINT64_C(1) << v.dir_log) >= v.n_internal);
  assert_int_equal(v.top_level, 0);
  assert_int_equal(v.top_count, 1);
  assert_int_equal(v.top_codes[0], 0);
  // cell (3,5): path 01 10 11
  bool present = false;
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, A, 3, 5));
  assert_true(present);
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, A, 5, 3));
  assert_false(present);
  K2_Matrix_free(&A);
  assert_null(A);
  // asked for explicitly: the top level with at most 2^2 nodes is level 1, codes 00 01 10 11;
  // a directory of one sample is still implied
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.top_max_log = 2;
  fmt.directory_log = 4;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, 8, 8, &fmt));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  k2_tree_view(&v, &A->tree, 1.0);
  assert_int_equal(v.top_level, 1);
  assert_int_equal(v.top_count, 4);
  for (unsigned t = 0; t < 4; t++) assert_int_equal(v.top_codes[t], t);
  assert_int_equal(A->tree.dir_len, 0);
  for (unsigned t = 0; t < 4; t++) assert_int_equal(k2_view_first_child(&v, 1 + t) - 5, off[t]);
  K2_ASSERT_OK(k2_tree_check(&A->tree));
  K2_Matrix_free(&A);
}

static void test_figure1_queries(void **state) {
  (void)state;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  GrB_Index out[8], cnt = 8;
  K2_ASSERT_OK(K2_Matrix_rowNeighbors(out, &cnt, A, 6));
  assert_int_equal(cnt, 4);
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 2);
  assert_int_equal(out[2], 6);
  assert_int_equal(out[3], 7);
  cnt = 8;
  K2_ASSERT_OK(K2_Matrix_colNeighbors(out, &cnt, A, 1));
  assert_int_equal(cnt, 3);
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 5);
  assert_int_equal(out[2], 6);
  cnt = 2;
  assert_int_equal(K2_Matrix_rowNeighbors(out, &cnt, A, 6), GrB_INSUFFICIENT_SPACE);
  cnt = 0;
  K2_ASSERT_OK(K2_Matrix_rowNeighbors(NULL, &cnt, A, 2));
  assert_int_equal(cnt, 0);
  assert_int_equal(K2_Matrix_rowNeighbors(out, &cnt, A, 8), GrB_INVALID_INDEX);
  // extractTuples gives row-major order
  GrB_Index I[12], J[12], nv = 12;
  K2_ASSERT_OK(K2_Matrix_extractTuples(I, J, &nv, A));
  assert_int_equal(nv, 12);
  for (int k = 1; k < 12; k++) assert_true(I[k - 1] < I[k] || (I[k - 1] == I[k] && J[k - 1] < J[k]));
  nv = 11;
  assert_int_equal(K2_Matrix_extractTuples(I, J, &nv, A), GrB_INSUFFICIENT_SPACE);
  K2_Matrix_free(&A);
}

// Row-major canonical list from a 4x4 bit pattern.
static void pattern_list(k2_coo_list *L, unsigned pat, uint32_t *I, uint32_t *J) {
  L->nrows = L->ncols = 4;
  L->I = I;
  L->J = J;
  L->nvals = 0;
  for (unsigned cell = 0; cell < 16; cell++)
    if (pat & (1u << cell)) {
      I[L->nvals] = cell / 4;
      J[L->nvals] = cell % 4;
      L->nvals++;
    }
}

// All 65,536 4x4 Boolean matrices: round trip and products against a dense oracle that sees
// only the bit pattern.
static void test_exhaustive_4x4(void **state) {
  (void)state;
  K2_Engine engines[2] = {K2_ENGINE_REFERENCE, K2_ENGINE_OPENMP};
  double x[4] = {1.5, -2.25, 4.0, 0.125};
  uint8_t xb[4] = {1, 0, 1, 1};
  for (unsigned pat = 0; pat < 65536; pat++) {
    uint32_t I[16], J[16];
    k2_coo_list L;
    pattern_list(&L, pat, I, J);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    k2_assert_same_pattern(A, &L);
    for (int e = 0; e < 2; e++) {
      K2_ASSERT_OK(K2_set_engine(engines[e]));
      for (int left = 0; left < 2; left++) {
        double y[4], expect[4];
        for (int i = 0; i < 4; i++) {
          double acc = 0;
          for (int j = 0; j < 4; j++) {
            unsigned cell = left ? (unsigned)(j * 4 + i) : (unsigned)(i * 4 + j);
            if (pat & (1u << cell)) acc += x[j];
          }
          expect[i] = acc;
        }
        if (left) K2_ASSERT_OK(K2_dense_vxm(y, x, A, K2_PLUS_TIMES, GrB_FP64));
        else K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP64));
        for (int i = 0; i < 4; i++) assert_true(y[i] == expect[i]);  // exact: few, exact sums
        // min-plus and lor-land
        double ym[4];
        uint8_t yb[4];
        if (left) {
          K2_ASSERT_OK(K2_dense_vxm(ym, x, A, K2_MIN_PLUS, GrB_FP64));
          K2_ASSERT_OK(K2_dense_vxm(yb, xb, A, K2_LOR_LAND, GrB_BOOL));
        } else {
          K2_ASSERT_OK(K2_dense_mxv(ym, A, x, K2_MIN_PLUS, GrB_FP64));
          K2_ASSERT_OK(K2_dense_mxv(yb, A, xb, K2_LOR_LAND, GrB_BOOL));
        }
        for (int i = 0; i < 4; i++) {
          double mn = INFINITY;
          uint8_t any = 0;
          for (int j = 0; j < 4; j++) {
            unsigned cell = left ? (unsigned)(j * 4 + i) : (unsigned)(i * 4 + j);
            if (pat & (1u << cell)) {
              if (x[j] + 1 < mn) mn = x[j] + 1;
              any |= xb[j];
            }
          }
          assert_true(ym[i] == mn);
          assert_int_equal(yb[i], any);
        }
      }
    }
    K2_Matrix_free(&A);
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
}

// Round trips and products on awkward shapes, for every leaf size.
static void check_shape(uint64_t nrows, uint64_t ncols, uint64_t nvals, uint64_t seed, uint32_t leaf_log) {
  k2_rng rng = {seed};
  k2_coo_list L;
  k2_coo_random(&L, nrows, ncols, nvals, &rng);
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.leaf_log = leaf_log;
  fmt.cache_bottom_codes = seed & 1;
  K2_Matrix A = k2_test_matrix(&L, &fmt);
  k2_coo_canonical(&L);
  k2_assert_same_pattern(A, &L);
  // queries on a few random cells and lines
  for (int t = 0; t < 20 && nrows && ncols; t++) {
    uint64_t i = k2_rng_below(&rng, nrows), j = k2_rng_below(&rng, ncols);
    if (t % 2 == 0 && L.nvals) {
      uint64_t k = k2_rng_below(&rng, L.nvals);
      i = L.I[k];
      j = L.J[k];
    }
    bool expect = false;
    for (uint64_t k = 0; k < L.nvals; k++) expect |= L.I[k] == i && L.J[k] == j;
    bool present;
    K2_ASSERT_OK(K2_Matrix_isEntry(&present, A, i, j));
    assert_int_equal(present, expect);
    GrB_Index cnt = 0, expect_cnt = 0;
    K2_ASSERT_OK(K2_Matrix_colNeighbors(NULL, &cnt, A, j));
    for (uint64_t k = 0; k < L.nvals; k++) expect_cnt += L.J[k] == j;
    assert_int_equal(cnt, expect_cnt);
  }
  // products: both engines against the oracle
  uint64_t nx = ncols > nrows ? ncols : nrows;
  double *x = malloc((nx + 1) * sizeof(double)), *y = malloc((nx + 1) * sizeof(double));
  double *e = malloc((nx + 1) * sizeof(double));
  for (uint64_t i = 0; i < nx; i++) x[i] = (double)(k2_rng_below(&rng, 2000)) / 8 - 100;
  K2_Engine engines[2] = {K2_ENGINE_REFERENCE, K2_ENGINE_OPENMP};
  for (int en = 0; en < 2; en++) {
    K2_ASSERT_OK(K2_set_engine(engines[en]));
    for (int left = 0; left < 2; left++) {
      uint64_t ny = left ? ncols : nrows;
      if (left) K2_ASSERT_OK(K2_dense_vxm(y, x, A, K2_PLUS_TIMES, GrB_FP64));
      else K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP64));
      k2_oracle_plus_times_f64(e, &L, x, 1.0, left);
      // x holds multiples of 1/8 below 2^8: every partial sum is exact in double
      for (uint64_t i = 0; i < ny; i++) assert_true(y[i] == e[i]);
      if (left) K2_ASSERT_OK(K2_dense_vxm(y, x, A, K2_MIN_PLUS, GrB_FP64));
      else K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_MIN_PLUS, GrB_FP64));
      k2_oracle_min_plus_f64(e, &L, x, 1.0, left);
      for (uint64_t i = 0; i < ny; i++) assert_true(y[i] == e[i]);
    }
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  free(x);
  free(y);
  free(e);
  K2_Matrix_free(&A);
  k2_coo_free(&L);
}

static void test_shapes(void **state) {
  (void)state;
  for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++) {
    check_shape(0, 0, 0, 1, leaf_log);
    check_shape(1, 1, 1, 2, leaf_log);
    check_shape(1, 1, 0, 3, leaf_log);
    check_shape(1, 1000, 300, 4, leaf_log);
    check_shape(1000, 1, 300, 5, leaf_log);
    check_shape(37, 59, 400, 6, leaf_log);
    check_shape(1000, 1000, 20000, 7, leaf_log);
    check_shape(1000000, 1700, 50000, 8, leaf_log);
    check_shape(1700, 1000000, 50000, 9, leaf_log);
    check_shape(4097, 4095, 100000, 10, leaf_log);
    check_shape(70000, 70000, 300000, 11, leaf_log);  // bottom codes cached (odd seed)
    check_shape(70001, 69999, 300000, 12, leaf_log);  // tree only: codes expanded per call
  }
}

// Structured patterns: full dense, diagonal, one dense row, one dense column.
static void check_list(k2_coo_list *L) {
  for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++) {
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.leaf_log = leaf_log;
    K2_Matrix A = k2_test_matrix(L, &fmt);
    k2_assert_same_pattern(A, L);
    uint64_t nx = L->nrows > L->ncols ? L->nrows : L->ncols;
    uint8_t *x = malloc(nx + 1), *y = malloc(nx + 1), *e = malloc(nx + 1);
    for (uint64_t i = 0; i < nx; i++) x[i] = (uint8_t)(i % 3 == 0);
    for (int left = 0; left < 2; left++) {
      K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
      if (left) K2_ASSERT_OK(K2_dense_vxm(y, x, A, K2_LOR_LAND, GrB_BOOL));
      else K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_LOR_LAND, GrB_BOOL));
      k2_oracle_lor_land(e, L, x, left);
      assert_memory_equal(y, e, left ? L->ncols : L->nrows);
    }
    K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
    free(x);
    free(y);
    free(e);
    K2_Matrix_free(&A);
  }
}

static void test_structured(void **state) {
  (void)state;
  uint64_t n = 300;
  k2_coo_list L = {n, n, 0, malloc(n * n * sizeof(uint32_t)), malloc(n * n * sizeof(uint32_t))};
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t j = 0; j < n; j++) {
      L.I[L.nvals] = (uint32_t)i;
      L.J[L.nvals++] = (uint32_t)j;
    }
  check_list(&L);  // full dense
  L.nvals = 0;
  for (uint64_t i = 0; i < n; i++) {
    L.I[L.nvals] = (uint32_t)i;
    L.J[L.nvals++] = (uint32_t)i;
  }
  check_list(&L);  // diagonal
  L.nvals = 0;
  for (uint64_t j = 0; j < n; j++) {
    L.I[L.nvals] = 17;
    L.J[L.nvals++] = (uint32_t)j;
  }
  check_list(&L);  // dense row
  L.nvals = 0;
  for (uint64_t i = 0; i < n; i++) {
    L.I[L.nvals] = (uint32_t)i;
    L.J[L.nvals++] = 299;
  }
  check_list(&L);  // dense column
  k2_coo_free(&L);
}

// The radix sort orders by the low `bits` bits only and keeps equal keys in input order, with
// anything above them carried along: row-major tuples sort (column << 32 | row) keys on the row
// bits. 20 key bits end inside a digit, with payload starting right above them.
static void test_sort_payload(void **state) {
  (void)state;
  enum { N = 200000, BITS = 20 };
  uint64_t *a = malloc(N * sizeof(uint64_t)), *tmp = malloc(N * sizeof(uint64_t));
  k2_rng rng = {99};
  for (uint64_t i = 0; i < N; i++) {
    uint64_t key = k2_rng_below(&rng, 1000) * 1009 % (UINT64_C(1) << BITS);
    a[i] = (i << BITS) | key;  // payload: the input position
  }
  uint64_t *s = k2_sort_u64(a, tmp, N, BITS);
  assert_non_null(s);
  const uint64_t kmask = (UINT64_C(1) << BITS) - 1;
  for (uint64_t i = 1; i < N; i++) {
    assert_true((s[i - 1] & kmask) <= (s[i] & kmask));
    if ((s[i - 1] & kmask) == (s[i] & kmask)) assert_true((s[i - 1] >> BITS) < (s[i] >> BITS));
  }
  free(a);
  free(tmp);
}

// Morton codes: encode / split round trips, and the one-pass unshuffle the OpenMP engine's k²+B
// path uses against the two compactions, on random codes and the extremes.
static void test_morton_codes(void **state) {
  (void)state;
  k2_rng rng = {2026};
  for (int k = 0; k < 100000; k++) {
    uint64_t code = k == 0 ? 0 : k == 1 ? UINT64_MAX : (k2_rng_next(&rng) << 32) ^ k2_rng_next(&rng);
    uint64_t r, c;
    k2_morton_split(code, &r, &c);
    assert_true(r <= UINT32_MAX && c <= UINT32_MAX);
    assert_true(k2_morton_encode(r, c) == code);
    assert_true(k2_morton_unshuffle(code) == ((r << 32) | c));
  }
}

static void test_largest_dimensions(void **state) {
  (void)state;
  // 2^32 x 2^32 with entries in the corners: 64-bit Morton codes
  uint32_t I[4] = {0, UINT32_MAX, 0, UINT32_MAX}, J[4] = {0, 0, UINT32_MAX, UINT32_MAX};
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, K2_INDEX_MAX, K2_INDEX_MAX));
  K2_ASSERT_OK(K2_Matrix_build_32(A, I, J, 4));
  GrB_Index nv;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, A));
  assert_int_equal(nv, 4);
  bool present;
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, A, UINT32_MAX, UINT32_MAX));
  assert_true(present);
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, A, UINT32_MAX, 1));
  assert_false(present);
  K2_Matrix_free(&A);
  assert_int_equal(K2_Matrix_new(&A, K2_INDEX_MAX + 1, 1), GrB_INVALID_VALUE);
  assert_null(A);
}

static void test_errors_leave_matrix_untouched(void **state) {
  (void)state;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  uint32_t badI[2] = {1, 8}, badJ[2] = {1, 1};
  assert_int_equal(K2_Matrix_build_32(A, badI, badJ, 2), GrB_INVALID_INDEX);
  const char *msg = NULL;
  K2_ASSERT_OK(K2_Matrix_error(&msg, A));
  assert_non_null(strstr(msg, "entry 1 = (8, 1)"));
  GrB_Index nv;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, A));
  assert_int_equal(nv, 12);
  assert_int_equal(K2_Matrix_build_32(A, NULL, badJ, 2), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_nvals(NULL, A), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_nvals(&nv, NULL), GrB_NULL_POINTER);
  uint64_t bad64I[1] = {UINT64_C(1) << 40}, bad64J[1] = {0};
  assert_int_equal(K2_Matrix_build_64(A, bad64I, bad64J, 1), GrB_INVALID_INDEX);
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.leaf_log = 4;
  K2_Matrix B = NULL;
  assert_int_equal(K2_Matrix_new_format(&B, 4, 4, &fmt), GrB_INVALID_VALUE);
  assert_null(B);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  K2_ASSERT_OK(K2_Matrix_free(&A));  // NULL handle: no-op
  K2_ASSERT_OK(K2_Matrix_free(NULL));
}

static void test_pending_edits_dup_equal(void **state) {
  (void)state;
  K2_Matrix A = NULL, B = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  K2_ASSERT_OK(K2_Matrix_dup(&B, A));
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_setElement(B, 0, 0));
  K2_ASSERT_OK(K2_Matrix_removeElement(B, 3, 5));
  K2_ASSERT_OK(K2_Matrix_setElement(B, 2, 2));
  K2_ASSERT_OK(K2_Matrix_removeElement(B, 2, 2));  // the last edit of a cell wins
  K2_ASSERT_OK(K2_Matrix_removeElement(B, 4, 4));  // absent: no effect
  assert_int_equal(K2_Matrix_setElement(B, 8, 0), GrB_INVALID_INDEX);
  GrB_Index nv;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, B));
  assert_int_equal(nv, 12);  // +1 -1
  bool present;
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, B, 0, 0));
  assert_true(present);
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, B, 3, 5));
  assert_false(present);
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, B, 2, 2));
  assert_false(present);
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_false(eq);
  K2_ASSERT_OK(K2_Matrix_setElement(B, 3, 5));
  K2_ASSERT_OK(K2_Matrix_removeElement(B, 0, 0));
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_true(eq);
  // weight is part of equality
  K2_ASSERT_OK(K2_Matrix_setEdgeWeight(B, 2.5));
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_false(eq);
  double w;
  K2_ASSERT_OK(K2_Matrix_getEdgeWeight(&w, B));
  assert_true(w == 2.5);
  K2_Matrix_free(&A);
  K2_Matrix_free(&B);
}

// Every row's and column's neighbours by the four line queries against the dense pattern d.
static void assert_lines(K2_Matrix A, bool d[8][8]) {
  for (GrB_Index x = 0; x < 8; x++) {
    for (int by_col = 0; by_col < 2; by_col++) {
      GrB_Index expect[8], ne = 0, out[8], cnt = 8, first[8], nfirst = 8;
      bool more = true;
      for (GrB_Index y = 0; y < 8; y++)
        if (by_col ? d[y][x] : d[x][y]) expect[ne++] = y;
      if (by_col) {
        K2_ASSERT_OK(K2_Matrix_colNeighbors(out, &cnt, A, x));
        K2_ASSERT_OK(K2_Matrix_colNeighborsFirst(first, &nfirst, &more, A, x));
      } else {
        K2_ASSERT_OK(K2_Matrix_rowNeighbors(out, &cnt, A, x));
        K2_ASSERT_OK(K2_Matrix_rowNeighborsFirst(first, &nfirst, &more, A, x));
      }
      assert_int_equal(cnt, ne);
      assert_int_equal(nfirst, ne);
      assert_false(more);
      if (ne > 0) {
        assert_memory_equal(out, expect, ne * sizeof *out);
        assert_memory_equal(first, expect, ne * sizeof *first);
      }
    }
  }
}

// Line queries with the line counts cached on the matrix (row degrees, column occupancy, then
// column degrees): the same neighbours as the walks without them, a count alone and a list too
// long for out answered from the count, and edits that fill an empty line drop the caches.
static void test_cached_line_counts(void **state) {
  (void)state;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  bool d[8][8] = {{false}};
  for (int e = 0; e < 12; e++) d[fig_I[e]][fig_J[e]] = true;
  assert_lines(A, d);  // rows 2 and 4, columns 0 and 3 empty; nothing cached yet
  assert_int_equal(k2_api_line_count(A, false, 1), K2_LINE_UNKNOWN);
  const int64_t *deg = NULL;
  const uint8_t *occ = NULL;
  uint64_t count = 0;
  K2_ASSERT_OK(k2_api_degrees(&deg, &count, A, false));  // the rows' degrees
  assert_int_equal(count, 6);
  K2_ASSERT_OK(k2_api_occupancy(&occ, &count, A, true));  // which columns hold an entry
  assert_int_equal(count, 6);
  assert_int_equal(k2_api_line_count(A, false, 2), 0);
  assert_int_equal(k2_api_line_count(A, false, 6), 4);
  assert_int_equal(k2_api_line_count(A, true, 0), 0);
  assert_int_equal(k2_api_line_count(A, true, 1), K2_LINE_UNKNOWN);  // occupied, count not kept
  assert_lines(A, d);
  K2_ASSERT_OK(k2_api_degrees(&deg, &count, A, true));  // the columns' degrees
  assert_int_equal(k2_api_line_count(A, true, 1), 3);
  assert_lines(A, d);
  GrB_Index out[8], cnt = 2;
  assert_int_equal(K2_Matrix_rowNeighbors(out, &cnt, A, 6), GrB_INSUFFICIENT_SPACE);
  assert_int_equal(cnt, 4);
  cnt = 0;
  K2_ASSERT_OK(K2_Matrix_colNeighbors(NULL, &cnt, A, 6));
  assert_int_equal(cnt, 2);
  bool more = false;
  cnt = 2;
  K2_ASSERT_OK(K2_Matrix_rowNeighborsFirst(out, &cnt, &more, A, 6));  // the walk ends at the 2nd
  assert_int_equal(cnt, 2);
  assert_true(more);
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 2);
  // an edit in row 2 and column 3, both cached as empty: pending, then assembled by the query
  K2_ASSERT_OK(K2_Matrix_setElement(A, 2, 3));
  d[2][3] = true;
  assert_lines(A, d);
  assert_int_equal(k2_api_line_count(A, false, 2), K2_LINE_UNKNOWN);
  assert_int_equal(k2_api_line_count(A, true, 3), K2_LINE_UNKNOWN);
  K2_Matrix_free(&A);
}

// K2_Matrix_dup carries the cached degrees and occupancy over (the copy's line queries and
// products then take no traversal for them); an edit of the copy drops its caches, not A's; the
// occupancy of a direction whose degrees are cached comes from them.
static void test_dup_line_caches(void **state) {
  (void)state;
  K2_Matrix A = NULL, C = NULL, D = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  bool d[8][8] = {{false}};
  for (int e = 0; e < 12; e++) d[fig_I[e]][fig_J[e]] = true;
  K2_ASSERT_OK(K2_Matrix_dup(&D, A));  // nothing cached: nothing carried
  assert_int_equal(k2_api_line_count(D, false, 2), K2_LINE_UNKNOWN);
  K2_Matrix_free(&D);
  const int64_t *deg = NULL;
  const uint8_t *occ = NULL;
  uint64_t count = 0;
  K2_ASSERT_OK(k2_api_degrees(&deg, &count, A, false));  // the rows' degrees
  K2_ASSERT_OK(k2_api_occupancy(&occ, &count, A, true));  // which columns hold an entry
  K2_ASSERT_OK(K2_Matrix_dup(&C, A));
  assert_int_equal(k2_api_line_count(C, false, 2), 0);
  assert_int_equal(k2_api_line_count(C, false, 6), 4);
  assert_int_equal(k2_api_line_count(C, true, 0), 0);
  assert_int_equal(k2_api_line_count(C, true, 1), K2_LINE_UNKNOWN);
  const int64_t *cdeg = NULL;
  K2_ASSERT_OK(k2_api_degrees(&cdeg, &count, C, false));
  assert_ptr_not_equal(cdeg, deg);  // a copy, not A's array
  assert_int_equal(count, 6);
  for (int i = 0; i < 8; i++) {
    int64_t row = 0;
    for (int j = 0; j < 8; j++) row += d[i][j];
    assert_int_equal(cdeg[i], row);
  }
  // the rows' occupancy of the copy from its degrees: the same bytes as A's from a product
  const uint8_t *cocc = NULL, *aocc = NULL;
  uint64_t ccount = 0, acount = 0;
  K2_ASSERT_OK(k2_api_occupancy(&cocc, &ccount, C, false));
  K2_ASSERT_OK(K2_Matrix_new(&D, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(D, fig_I, fig_J, 12));
  K2_ASSERT_OK(k2_api_occupancy(&aocc, &acount, D, false));  // by a product (no degrees)
  assert_int_equal(ccount, acount);
  assert_memory_equal(cocc, aocc, 8);
  assert_lines(C, d);
  // an edit of the copy: its caches go, A's stay
  K2_ASSERT_OK(K2_Matrix_setElement(C, 2, 3));
  d[2][3] = true;
  assert_lines(C, d);
  assert_int_equal(k2_api_line_count(C, false, 2), K2_LINE_UNKNOWN);
  assert_int_equal(k2_api_line_count(A, false, 2), 0);
  assert_int_equal(k2_api_line_count(A, true, 3), 0);
  K2_Matrix_free(&D);
  K2_Matrix_free(&C);
  K2_Matrix_free(&A);
}

// Assert A serializes to the same bytes as a fresh build of L in format fmt.
static void assert_same_as_built(K2_Matrix A, const k2_coo_list *L, const K2_Format *fmt) {
  K2_Matrix B = k2_test_matrix(L, fmt);
  GrB_Index na = 0, nb = 0;
  uint8_t *a = k2_img_of(A, &na), *b = k2_img_of(B, &nb);
  assert_int_equal(na, nb);
  assert_memory_equal(a, b, na);
  free(a), free(b);
  K2_Matrix_free(&B);
}

// Plus-times (FP64 on small integers: exact whatever the order) on the OpenMP engine, right
// and left, equal to the oracle.
static void assert_products(K2_Matrix A, const k2_coo_list *L) {
  const uint64_t nr = L->nrows, nc = L->ncols, m = nr > nc ? nr : nc;
  double *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y), *e = malloc(m * sizeof *e);
  assert_true(x && y && e);
  for (uint64_t i = 0; i < m; i++) x[i] = (double)((i * 7) % 13);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  for (int left = 0; left < 2; left++) {
    if (left) K2_ASSERT_OK(K2_dense_vxm(y, x, A, K2_PLUS_TIMES, GrB_FP64));
    else K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP64));
    k2_oracle_plus_times_f64(e, L, x, 1.0, left);
    assert_memory_equal(y, e, (left ? nc : nr) * sizeof *y);
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  free(x), free(y), free(e);
}

// K2_Matrix_setBottomCodes: the codes a build with cache_bottom_codes makes (the same bytes),
// products before and after, the codes of pending edits, dropping them again, its errors.
static void test_set_bottom_codes(void **state) {
  (void)state;
  k2_rng rng = {0x5eedULL};
  const uint64_t shapes[][3] = {{1, 1, 1}, {8, 8, 12}, {37, 900, 400}, {1000, 1000, 5000}, {4096, 64, 3000}};
  K2_Format plain, coded;
  K2_Format_default(&plain);
  K2_Format_default(&coded);
  coded.cache_bottom_codes = true;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    k2_coo_list L;
    k2_coo_random(&L, shapes[s][0], shapes[s][1], shapes[s][2], &rng);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, &plain);
    assert_products(A, &L);  // the OpenMP engine's plans made without the codes
    K2_ASSERT_OK(K2_Matrix_setBottomCodes(A, true));
    assert_same_as_built(A, &L, &coded);
    assert_products(A, &L);
    K2_ASSERT_OK(K2_Matrix_setBottomCodes(A, true));  // kept already: nothing changes
    assert_same_as_built(A, &L, &coded);
    K2_ASSERT_OK(K2_Matrix_setBottomCodes(A, false));
    assert_same_as_built(A, &L, &plain);
    assert_products(A, &L);
    K2_Matrix_free(&A);
    k2_coo_free(&L);
  }
  // pending edits are applied first: the codes of the edited tree
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  K2_ASSERT_OK(K2_Matrix_setElement(A, 0, 0));
  K2_ASSERT_OK(K2_Matrix_removeElement(A, 7, 7));
  K2_ASSERT_OK(K2_Matrix_setBottomCodes(A, true));
  k2_coo_list E;
  k2_coo_alloc(&E, 8, 8, 12);
  for (uint64_t k = 0; k < 12; k++) E.I[k] = fig_I[k], E.J[k] = fig_J[k];
  E.I[11] = 0, E.J[11] = 0;  // (7, 7), the last pair, replaced by (0, 0)
  k2_coo_canonical(&E);
  assert_same_as_built(A, &E, &coded);
  k2_coo_free(&E);
  K2_Matrix_free(&A);
  assert_int_equal(K2_Matrix_setBottomCodes(NULL, true), GrB_NULL_POINTER);
}

// K2_Matrix_setDecodedLevel: products before, with and after the request equal the oracle; with
// it the first product adds 8 bytes per last-level node to the cache and dropping it takes them
// away; the serialized bytes never change (a request, not a format); K2_Matrix_dup copies it;
// pending edits get the level of the edited tree; a NULL matrix is refused.
static void test_set_decoded_level(void **state) {
  (void)state;
  k2_rng rng = {0xdecULL};
  const uint64_t shapes[][3] = {{1, 1, 1}, {8, 8, 12}, {37, 900, 400}, {1000, 1000, 5000}, {4096, 64, 3000}};
  K2_Format plain;
  K2_Format_default(&plain);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    k2_coo_list L;
    k2_coo_random(&L, shapes[s][0], shapes[s][1], shapes[s][2], &rng);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, &plain);
    assert_products(A, &L);
    K2_MemoryUsage u0, u1, u2;
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&u0, A));
    K2_ASSERT_OK(K2_Matrix_setDecodedLevel(A, true));
    assert_same_as_built(A, &L, &plain);
    assert_products(A, &L);
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&u1, A));
    k2_view v;
    k2_tree_view(&v, &A->tree, A->weight);
    const uint64_t last = v.level_start[v.levels] - v.level_start[v.levels - 1];
    assert_int_equal(u1.cache - u0.cache, 8 * last);
    K2_Matrix C = NULL;
    K2_ASSERT_OK(K2_Matrix_dup(&C, A));
    assert_products(C, &L);
    K2_MemoryUsage uc;
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&uc, C));
    assert_int_equal(uc.cache, u1.cache);  // the same plans and level, made again
    K2_Matrix_free(&C);
    K2_ASSERT_OK(K2_Matrix_setDecodedLevel(A, false));
    assert_products(A, &L);
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&u2, A));
    assert_int_equal(u2.cache, u0.cache);
    K2_Matrix_free(&A);
    k2_coo_free(&L);
  }
  // an edit after the request: the level of the edited tree
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 8, 8));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  K2_ASSERT_OK(K2_Matrix_setDecodedLevel(A, true));
  k2_coo_list E;
  k2_coo_alloc(&E, 8, 8, 12);
  for (uint64_t k = 0; k < 12; k++) E.I[k] = fig_I[k], E.J[k] = fig_J[k];
  k2_coo_canonical(&E);
  assert_products(A, &E);
  K2_ASSERT_OK(K2_Matrix_setElement(A, 0, 0));
  K2_ASSERT_OK(K2_Matrix_removeElement(A, 7, 7));
  for (uint64_t k = 0; k < 12; k++) E.I[k] = fig_I[k], E.J[k] = fig_J[k];
  E.I[11] = 0, E.J[11] = 0;  // (7, 7), the last pair, replaced by (0, 0)
  k2_coo_canonical(&E);
  assert_products(A, &E);
  k2_coo_free(&E);
  K2_Matrix_free(&A);
  assert_int_equal(K2_Matrix_setDecodedLevel(NULL, true), GrB_NULL_POINTER);
}

static void test_memory_usage(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = true;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, 8, 8, &fmt));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  K2_MemoryUsage u;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, A));
  // 5 internal nibbles: 1 word; 8 leaf nibbles: 1 word; 4 level starts; no room for a
  // directory or top codes (5% of 16 bytes), the bottom codes asked for
  assert_int_equal(u.tree, (1 + 1 + 4) * 8);
  assert_int_equal(u.directory, 0);
  assert_int_equal(u.top, 0);
  assert_int_equal(u.bottom_codes, 4 * 8);
  assert_int_equal(u.internal_nodes, 5);
  assert_int_equal(u.leaves, 8);
  assert_true(u.total >= u.tree + u.directory + u.top + u.bottom_codes);
  K2_Matrix_free(&A);
  // the top level of at most 4 nodes asked for: 4 codes
  fmt.top_max_log = 2;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, 8, 8, &fmt));
  K2_ASSERT_OK(K2_Matrix_build_32(A, fig_I, fig_J, 12));
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, A));
  assert_int_equal(u.directory, 0);
  assert_int_equal(u.top, 4 * 8);
  K2_Matrix_free(&A);
  assert_int_equal(K2_csr_bytes(8, 12, true), 9 * 8 + 12 * 4 + 12 * 4);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_figure1_signatures),
      cmocka_unit_test(test_figure1_queries),
      cmocka_unit_test(test_exhaustive_4x4),
      cmocka_unit_test(test_shapes),
      cmocka_unit_test(test_structured),
      cmocka_unit_test(test_morton_codes),
      cmocka_unit_test(test_sort_payload),
      cmocka_unit_test(test_largest_dimensions),
      cmocka_unit_test(test_errors_leave_matrix_untouched),
      cmocka_unit_test(test_pending_edits_dup_equal),
      cmocka_unit_test(test_cached_line_counts),
      cmocka_unit_test(test_dup_line_caches),
      cmocka_unit_test(test_memory_usage),
      cmocka_unit_test(test_set_bottom_codes),
      cmocka_unit_test(test_set_decoded_level),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
