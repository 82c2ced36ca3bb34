// test_msbfs.c: multi-source BFS on both storages: hop distances from 1, 34 and 256 sources
// along and against the edges equal a serial BFS per source (on A or on A'); errors.
// SPDX-License-Identifier: Apache-2.0
#include "alg_test_util.h"

static void check_msbfs(const alg_graph *g, const GrB_Index *src, GrB_Index ns) {
  GrB_Index *tp;
  uint32_t *tc;
  alg_csr_transpose(g, &tp, &tc);
  int64_t *oracle = malloc((g->n + 1) * sizeof(int64_t));
  GrB_Index cap = g->n * ns + 1;
  GrB_Index *I = malloc(cap * sizeof(GrB_Index)), *J = malloc(cap * sizeof(GrB_Index));
  int32_t *X = malloc(cap * sizeof(int32_t));
  int32_t *dense = malloc(cap * sizeof(int32_t));
  char msg[K2_MSG_LEN];
  for (int reverse = 0; reverse < 2; reverse++) {
    for (int st = 0; st < 2; st++) {
      GrB_Matrix D = NULL;
      if (st == 0) K2_ASSERT_OK(K2_msbfs(&D, g->G, src, ns, reverse, msg));
      else K2_ASSERT_OK(K2_msbfs(&D, g->K, src, ns, reverse, msg));
      GrB_Index nv = cap, nr, nc;
      K2_ASSERT_OK(GrB_Matrix_nrows(&nr, D));
      K2_ASSERT_OK(GrB_Matrix_ncols(&nc, D));
      assert_int_equal(nr, g->n);
      assert_int_equal(nc, ns);
      K2_ASSERT_OK(GrB_Matrix_extractTuples_INT32(I, J, X, &nv, D));
      for (GrB_Index k = 0; k < g->n * ns; k++) dense[k] = -1;
      for (GrB_Index k = 0; k < nv; k++) dense[I[k] * ns + J[k]] = X[k];
      for (GrB_Index b = 0; b < ns; b++) {
        if (reverse) alg_oracle_bfs(oracle, g->n, tp, tc, src[b]);
        else alg_oracle_bfs(oracle, g->n, g->rowptr, g->col, src[b]);
        for (GrB_Index i = 0; i < g->n; i++) {
          if (dense[i * ns + b] != oracle[i]) {
            print_error("source %llu vertex %llu reverse %d storage %d: %d, oracle %lld\n",
                        (unsigned long long)src[b], (unsigned long long)i, reverse, st, dense[i * ns + b],
                        (long long)oracle[i]);
            fail();
          }
        }
      }
      GrB_free(&D);
    }
  }
  free(tp); free(tc); free(oracle); free(I); free(J); free(X); free(dense);
}

static void test_karate_all_sources(void **state) {
  (void)state;
  alg_graph g;
  if (!alg_graph_load(&g, "lagraph/karate.mtx", false)) {
    skip();
    return;
  }
  GrB_Index src[34];
  for (GrB_Index i = 0; i < 34; i++) src[i] = i;
  check_msbfs(&g, src, 34);
  check_msbfs(&g, src + 30, 1);
  alg_graph_free(&g);
}

// Directed graphs: along and against the edges differ.
static void test_directed(void **state) {
  (void)state;
  static const char *files[] = {"lagraph/west0067.mtx", "lagraph/ldbc-directed-example.mtx",
                                "snap-email-Eu-core/email-Eu-core.txt"};
  int done = 0;
  for (int f = 0; f < 3; f++) {
    alg_graph g;
    if (!alg_graph_load(&g, files[f], false)) continue;
    GrB_Index src[256], ns = g.n < 256 ? g.n : 256;
    for (GrB_Index b = 0; b < ns; b++) src[b] = (b * 7919) % g.n;  // repeats allowed
    check_msbfs(&g, src, ns);
    alg_graph_free(&g);
    done++;
  }
  if (done == 0) skip();
}

static void test_errors(void **state) {
  (void)state;
  alg_graph g;
  uint32_t I[] = {0, 1}, J[] = {1, 2};
  alg_graph_from_pairs(&g, 3, I, J, 2);
  char msg[K2_MSG_LEN];
  GrB_Matrix D = NULL;
  GrB_Index src[257] = {0};
  assert_int_equal(K2_msbfs(NULL, g.K, src, 1, false, msg), GrB_NULL_POINTER);
  assert_int_equal(K2_msbfs(&D, g.K, NULL, 1, false, msg), GrB_NULL_POINTER);
  assert_int_equal(K2_msbfs(&D, g.K, src, 0, false, msg), GrB_INVALID_VALUE);
  assert_int_equal(K2_msbfs(&D, g.G, src, 257, false, msg), GrB_INVALID_VALUE);
  src[1] = 3;
  assert_int_equal(K2_msbfs(&D, g.K, src, 2, true, msg), GrB_INVALID_INDEX);
  assert_null(D);
  alg_graph_free(&g);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_karate_all_sources), cmocka_unit_test(test_directed),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
