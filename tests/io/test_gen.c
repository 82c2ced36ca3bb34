// test_gen.c: the generators (R-MAT, grid, uniform, web-like): shapes, counts, determinism
// across thread counts, and the structure each model promises.
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "k2_test.h"

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static void assert_same_edges(const K2_Edges *A, const K2_Edges *B) {
  assert_int_equal(A->nrows, B->nrows);
  assert_int_equal(A->ncols, B->ncols);
  assert_int_equal(A->nvals, B->nvals);
  assert_memory_equal(A->I, B->I, A->nvals * sizeof *A->I);
  assert_memory_equal(A->J, B->J, A->nvals * sizeof *A->J);
}

static bool same_edges(const K2_Edges *A, const K2_Edges *B) {
  return A->nvals == B->nvals && memcmp(A->I, B->I, A->nvals * sizeof *A->I) == 0 &&
         memcmp(A->J, B->J, A->nvals * sizeof *A->J) == 0;
}

static void assert_edges_in_range(const K2_Edges *E) {
  for (GrB_Index k = 0; k < E->nvals; k++) {
    assert_true(E->I[k] < E->nrows);
    assert_true(E->J[k] < E->ncols);
  }
}

// Distinct non-zeros divided by the distinct non-empty (side x side) blocks.
static double per_block(const K2_Edges *E, unsigned log_side) {
  uint64_t *k = malloc((E->nvals + 1) * sizeof *k);
  uint64_t *b = malloc((E->nvals + 1) * sizeof *b);
  assert_true(k != NULL && b != NULL);
  for (GrB_Index p = 0; p < E->nvals; p++) {
    k[p] = (uint64_t)E->I[p] << 32 | E->J[p];
    b[p] = (uint64_t)(E->I[p] >> log_side) << 32 | (E->J[p] >> log_side);
  }
  qsort(k, E->nvals, sizeof *k, cmp_u64);
  qsort(b, E->nvals, sizeof *b, cmp_u64);
  uint64_t nk = 0, nb = 0;
  for (GrB_Index p = 0; p < E->nvals; p++) {
    nk += p == 0 || k[p] != k[p - 1];
    nb += p == 0 || b[p] != b[p - 1];
  }
  free(k);
  free(b);
  return nb ? (double)nk / (double)nb : 0;
}

//==============================================================================================
// R-MAT
//==============================================================================================

static void test_rmat_basic(void **state) {
  K2_RmatParams p;
  K2_RmatParams_default(&p, 12);
  assert_int_equal(p.edge_factor, 16);
  K2_Edges A, B, C;
  omp_set_num_threads(1);
  K2_ASSERT_OK(K2_Gen_rmat(&A, &p));
  omp_set_num_threads(2);
  K2_ASSERT_OK(K2_Gen_rmat(&B, &p));
  assert_int_equal(A.nrows, 4096);
  assert_int_equal(A.nvals, 16 * 4096);
  assert_edges_in_range(&A);
  assert_same_edges(&A, &B);  // independent of the thread count
  p.seed = 2;
  K2_ASSERT_OK(K2_Gen_rmat(&C, &p));
  assert_false(same_edges(&A, &C));
  K2_Edges_free(&A);
  K2_Edges_free(&B);
  K2_Edges_free(&C);
}

// Without permutation the top-level quadrants get a, b, c, d of the edges (binomial, 5 sigma).
static void test_rmat_quadrants(void **state) {
  K2_RmatParams p;
  K2_RmatParams_default(&p, 14);
  p.permute = false;
  K2_Edges E;
  K2_ASSERT_OK(K2_Gen_rmat(&E, &p));
  double q[4] = {0}, expect[4] = {0.57, 0.19, 0.19, 0.05};
  uint32_t half = 1u << 13;
  for (GrB_Index k = 0; k < E.nvals; k++) q[2 * (E.I[k] >= half) + (E.J[k] >= half)] += 1;
  for (int t = 0; t < 4; t++) {
    double sigma = sqrt(expect[t] * (1 - expect[t]) / (double)E.nvals);
    assert_true(fabs(q[t] / (double)E.nvals - expect[t]) < 5 * sigma);
  }
  // the skew that makes R-MAT a power law: vertex 0 gets far more than the mean degree
  GrB_Index deg0 = 0;
  for (GrB_Index k = 0; k < E.nvals; k++) deg0 += E.I[k] == 0;
  assert_true(deg0 > 20 * 16);
  K2_Edges_free(&E);
}

// The permuted graph is the same graph relabelled by one bijection.
static void test_rmat_permutation(void **state) {
  K2_RmatParams p;
  K2_RmatParams_default(&p, 10);
  K2_Edges P, U;
  K2_ASSERT_OK(K2_Gen_rmat(&P, &p));
  p.permute = false;
  K2_ASSERT_OK(K2_Gen_rmat(&U, &p));
  assert_int_equal(P.nvals, U.nvals);
  int64_t map[1024], inv[1024];
  for (int v = 0; v < 1024; v++) map[v] = inv[v] = -1;
  GrB_Index moved = 0;
  for (GrB_Index k = 0; k < U.nvals; k++) {
    uint32_t from[2] = {U.I[k], U.J[k]}, to[2] = {P.I[k], P.J[k]};
    for (int s = 0; s < 2; s++) {
      if (map[from[s]] < 0) map[from[s]] = to[s];
      if (inv[to[s]] < 0) inv[to[s]] = from[s];
      assert_int_equal(map[from[s]], to[s]);
      assert_int_equal(inv[to[s]], from[s]);
      moved += from[s] != to[s];
    }
  }
  assert_true(moved > U.nvals);  // it is not the identity
  K2_Edges_free(&P);
  K2_Edges_free(&U);
}

static void test_rmat_errors(void **state) {
  K2_RmatParams p;
  K2_RmatParams_default(&p, 33);
  K2_Edges E;
  memset(&E, 0, sizeof E);
  assert_int_equal(K2_Gen_rmat(&E, &p), GrB_INVALID_VALUE);
  K2_RmatParams_default(&p, 10);
  p.a = 0.9;
  assert_int_equal(K2_Gen_rmat(&E, &p), GrB_INVALID_VALUE);
  assert_int_equal(K2_Gen_rmat(NULL, &p), GrB_NULL_POINTER);
  assert_null(E.I);
  K2_RmatParams_default(&p, 0);  // one vertex
  K2_ASSERT_OK(K2_Gen_rmat(&E, &p));
  assert_int_equal(E.nvals, 16);
  for (GrB_Index k = 0; k < E.nvals; k++) assert_true(E.I[k] == 0 && E.J[k] == 0);
  K2_Edges_free(&E);
}

//==============================================================================================
// grid and uniform
//==============================================================================================

static void check_grid(uint32_t R, uint32_t C) {
  K2_Edges E;
  K2_ASSERT_OK(K2_Gen_grid2d(&E, R, C));
  uint64_t n = (uint64_t)R * C;
  assert_int_equal(E.nrows, n);
  uint64_t m = n ? 2 * (uint64_t)R * (C - 1) + 2 * (uint64_t)C * (R - 1) : 0;
  assert_int_equal(E.nvals, m);
  uint32_t *deg = calloc(n + 1, sizeof *deg);
  assert_non_null(deg);
  for (GrB_Index k = 0; k < E.nvals; k++) {
    uint32_t u = E.I[k], v = E.J[k];
    bool horizontal = u / C == v / C && (u + 1 == v || v + 1 == u);
    bool vertical = u % C == v % C && (u + C == v || v + C == u);
    assert_true(horizontal || vertical);
    if (k > 0) assert_true(E.I[k - 1] < u || (E.I[k - 1] == u && E.J[k - 1] < v));
    deg[u]++;
  }
  for (uint64_t v = 0; v < n; v++) {
    uint64_t r = v / C, c = v % C;
    uint32_t expect = (r > 0) + (r + 1 < R) + (c > 0) + (c + 1 < C);
    assert_int_equal(deg[v], expect);
  }
  free(deg);
  K2_Edges_free(&E);
}

static void test_grid(void **state) {
  check_grid(1, 1);
  check_grid(1, 5);
  check_grid(7, 1);
  check_grid(13, 17);
  check_grid(100, 3);
  check_grid(0, 5);
}

static void test_uniform(void **state) {
  K2_Edges A, B;
  omp_set_num_threads(1);
  K2_ASSERT_OK(K2_Gen_uniform(&A, 1000, 200000, 7));
  omp_set_num_threads(2);
  K2_ASSERT_OK(K2_Gen_uniform(&B, 1000, 200000, 7));
  assert_same_edges(&A, &B);
  assert_edges_in_range(&A);
  // every row and column is hit about m/n = 200 times (Poisson: within 200 +- 100)
  uint32_t rows[1000] = {0}, cols[1000] = {0};
  for (GrB_Index k = 0; k < A.nvals; k++) {
    rows[A.I[k]]++;
    cols[A.J[k]]++;
  }
  for (int v = 0; v < 1000; v++) assert_true(rows[v] > 100 && rows[v] < 300 && cols[v] > 100 && cols[v] < 300);
  K2_Edges_free(&A);
  K2_Edges_free(&B);
  K2_ASSERT_OK(K2_Gen_uniform(&A, 1 << 20, 100000, 7));  // sparse: isolated non-zeros
  assert_true(per_block(&A, 2) < 1.01);
  K2_Edges_free(&A);
  assert_int_equal(K2_Gen_uniform(&A, 0, 5, 1), GrB_INVALID_VALUE);
}

//==============================================================================================
// web-like
//==============================================================================================

static void test_web(void **state) {
  K2_WebParams p;
  K2_WebParams_default(&p);
  const GrB_Index n = 200000;
  K2_Edges A, B, R;
  omp_set_num_threads(1);
  K2_ASSERT_OK(K2_Gen_web(&A, n, &p));
  omp_set_num_threads(2);
  K2_ASSERT_OK(K2_Gen_web(&B, n, &p));
  assert_same_edges(&A, &B);
  assert_int_equal(A.nrows, n);
  // rows in order, each strictly increasing (no duplicates), ids in range
  for (GrB_Index k = 0; k < A.nvals; k++) {
    assert_true(A.I[k] < n && A.J[k] < n);
    if (k > 0) assert_true(A.I[k - 1] < A.I[k] || (A.I[k - 1] == A.I[k] && A.J[k - 1] < A.J[k]));
  }
  double deg = (double)A.nvals / (double)n;
  assert_true(deg > 0.8 * p.avg_degree && deg < 1.2 * p.avg_degree);
  // web structure: several non-zeros per non-empty 4x4 block (cnr-2000: 5.0), unlike R-MAT
  double web4 = per_block(&A, 2);
  K2_RmatParams rp;
  K2_RmatParams_default(&rp, 17);
  rp.edge_factor = (double)A.nvals / (double)(1 << 17);
  K2_ASSERT_OK(K2_Gen_rmat(&R, &rp));
  double rmat4 = per_block(&R, 2);
  print_message("nnz per non-empty 4x4 block: web %.2f, R-MAT %.2f\n", web4, rmat4);
  assert_true(web4 > 3.5);
  assert_true(rmat4 < 1.2);
  // another seed, another graph
  p.seed = 99;
  K2_Edges_free(&B);
  K2_ASSERT_OK(K2_Gen_web(&B, n, &p));
  assert_false(same_edges(&A, &B));
  K2_Edges_free(&A);
  K2_Edges_free(&B);
  K2_Edges_free(&R);

  p.copy_keep = 1.5;
  memset(&A, 0, sizeof A);
  assert_int_equal(K2_Gen_web(&A, n, &p), GrB_INVALID_VALUE);
  assert_null(A.I);
  K2_WebParams_default(&p);
  K2_ASSERT_OK(K2_Gen_web(&A, 0, &p));
  assert_int_equal(A.nvals, 0);
  K2_Edges_free(&A);
  K2_ASSERT_OK(K2_Gen_web(&A, 1, &p));
  assert_true(A.nvals <= 1);
  K2_Edges_free(&A);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rmat_basic),       cmocka_unit_test(test_rmat_quadrants),
      cmocka_unit_test(test_rmat_permutation), cmocka_unit_test(test_rmat_errors),
      cmocka_unit_test(test_grid),             cmocka_unit_test(test_uniform),
      cmocka_unit_test(test_web),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
