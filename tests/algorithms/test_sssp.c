// test_sssp.c: hop-count SSSP (Bellman-Ford by min-plus products) on both storages: equal to
// a serial BFS on LAGraph files, equal to LDBC's BFS outputs, and reaching exactly the vertices
// that LDBC's (weighted) SSSP outputs reach; errors.
// SPDX-License-Identifier: Apache-2.0
#include "alg_ldbc.h"

static void check_hops(const alg_graph *g, GrB_Index src) {
  int64_t *oracle = malloc((g->n + 1) * sizeof(int64_t)), *got = malloc((g->n + 1) * sizeof(int64_t));
  alg_oracle_bfs(oracle, g->n, g->rowptr, g->col, src);
  char msg[K2_MSG_LEN];
  for (int st = 0; st < 2; st++) {
    GrB_Vector d = NULL;
    if (st == 0) K2_ASSERT_OK(K2_sssp_hops(&d, g->G, src, msg));
    else K2_ASSERT_OK(K2_sssp_hops(&d, g->K, src, msg));
    alg_dense_int64(got, d, g->n, -1);
    assert_memory_equal(got, oracle, g->n * sizeof(int64_t));
    GrB_free(&d);
  }
  free(oracle);
  free(got);
}

static void test_lagraph_files(void **state) {
  (void)state;
  static const char *files[] = {"A", "cover", "jagmesh7", "ldbc-directed-example", "ldbc-undirected-example",
                                "LFAT5", "msf1", "sample", "sample2", "bcsstk13", "cryg2500",
                                "tree-example", "west0067", "karate", "matrix_bool", "skew_fp32"};
  int done = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char rel[128];
    snprintf(rel, sizeof rel, "lagraph/%s.mtx", files[f]);
    alg_graph g;
    if (!alg_graph_load(&g, rel, false)) continue;
    check_hops(&g, 0);
    check_hops(&g, g.n - 1);
    alg_graph_free(&g);
    done++;
  }
  if (done == 0) skip();
}

static void test_ldbc(void **state) {
  (void)state;
  // hop counts = LDBC's BFS output
  static const char *bfs[] = {"example-directed", "example-undirected", "test-bfs-directed", "test-bfs-undirected"};
  // reachability = LDBC's SSSP output (weights aside)
  static const char *sssp[] = {"example-directed", "example-undirected", "test-sssp-directed",
                               "test-sssp-undirected"};
  int done = 0;
  for (int kind = 0; kind < 2; kind++) {
    for (int t = 0; t < 4; t++) {
      alg_ldbc L;
      if (!alg_ldbc_load(&L, kind == 0 ? bfs[t] : sssp[t])) continue;
      const char *s = alg_ldbc_property(&L, kind == 0 ? "bfs.source-vertex" : "sssp.source-vertex");
      assert_non_null(s);
      GrB_Index src = alg_ldbc_index(&L, strtoull(s, NULL, 10));
      double *want = malloc(L.g.n * sizeof(double));
      int64_t *got = malloc(L.g.n * sizeof(int64_t));
      alg_ldbc_expected(&L, kind == 0 ? "BFS" : "SSSP", want);
      for (int st = 0; st < 2; st++) {
        GrB_Vector d = NULL;
        char msg[K2_MSG_LEN];
        if (st == 0) K2_ASSERT_OK(K2_sssp_hops(&d, L.g.G, src, msg));
        else K2_ASSERT_OK(K2_sssp_hops(&d, L.g.K, src, msg));
        alg_dense_int64(got, d, L.g.n, -1);
        for (GrB_Index i = 0; i < L.g.n; i++) {
          if (isinf(want[i])) assert_int_equal(got[i], -1);
          else if (kind == 0) assert_int_equal(got[i], (int64_t)want[i]);
          else assert_true(got[i] >= 0 && (got[i] == 0) == (want[i] == 0));
        }
        GrB_free(&d);
      }
      free(want);
      free(got);
      alg_ldbc_free(&L);
      done++;
    }
  }
  if (done == 0) skip();
}

// A random clump with a 20-vertex tail, edge weights 0, 1 and 3 on the tree: the rounds of small
// frontiers run by row queries, the clump's by products, and back along the tail (the frontier
// handed over both ways); every distance is the hop count times the weight, on both storages
// for weight 1. A weight of 2.5 (not a whole number) keeps every round a product: the distances
// are the same as the weight's INT64 cast, 2, times the hops.
static void test_weights_and_switch(void **state) {
  (void)state;
  const GrB_Index n = 8192;
  alg_graph g;
  alg_graph_clump_with_tail(&g, n, 20, 11);
  check_hops(&g, 0);
  check_hops(&g, 77);
  int64_t *oracle = malloc(n * sizeof(int64_t)), *got = malloc(n * sizeof(int64_t));
  alg_oracle_bfs(oracle, n, g.rowptr, g.col, 77);
  const double weights[] = {0, 3, 2.5};
  const int64_t as_int[] = {0, 3, 2};
  char msg[K2_MSG_LEN];
  for (int w = 0; w < 3; w++) {
    K2_ASSERT_OK(K2_Matrix_setEdgeWeight(g.K, weights[w]));
    GrB_Vector d = NULL;
    K2_ASSERT_OK(K2_sssp_hops(&d, g.K, 77, msg));
    alg_dense_int64(got, d, n, -1);
    for (GrB_Index i = 0; i < n; i++) assert_int_equal(got[i], oracle[i] < 0 ? -1 : oracle[i] * as_int[w]);
    GrB_free(&d);
  }
  K2_ASSERT_OK(K2_Matrix_setEdgeWeight(g.K, 1));
  free(oracle);
  free(got);
  alg_graph_free(&g);
}

// Sources that reach 1, 7, 8 (all searched by row queries) and 9 vertices (past that search's
// limit: the rounds) along a chain, under the edge weights 1, 0, 3 and 2.5 (cast to 2, as the
// products do; not a whole weight: the rounds): distances = hops times the weight.
static void test_small_reach(void **state) {
  (void)state;
  enum { N = 16, CHAIN = 12 };
  uint32_t I[CHAIN - 1], J[CHAIN - 1];
  for (uint32_t i = 0; i + 1 < CHAIN; i++) I[i] = i, J[i] = i + 1;
  alg_graph g;
  alg_graph_from_pairs(&g, N, I, J, CHAIN - 1);
  const GrB_Index sources[] = {CHAIN - 1, CHAIN - 7, CHAIN - 8, CHAIN - 9, 14};
  const double weights[] = {1, 0, 3, 2.5};
  const int64_t as_int[] = {1, 0, 3, 2};
  int64_t oracle[N], got[N];
  char msg[K2_MSG_LEN];
  // the same chain as a graph with its out-degrees cached: the search queries no row of a vertex
  // without out-edges (the chain's end, the isolated sources) and must find the same
  K2_Matrix K = NULL;
  K2_Graph G = NULL;
  K2_ASSERT_OK(K2_Matrix_dup(&K, g.K));
  K2_ASSERT_OK(K2_Graph_new(&G, &K, K2_ADJACENCY_DIRECTED, msg));
  K2_ASSERT_OK(K2_Graph_cachedOutDegree(G, msg));
  for (size_t s = 0; s < sizeof sources / sizeof *sources; s++) {
    check_hops(&g, sources[s]);
    alg_oracle_bfs(oracle, N, g.rowptr, g.col, sources[s]);
    GrB_Vector gdist = NULL, glevel = NULL;
    K2_ASSERT_OK(K2_sssp_hops_graph(&gdist, G, sources[s], msg));
    K2_ASSERT_OK(K2_bfs_graph(&glevel, NULL, G, sources[s], msg));
    alg_dense_int64(got, gdist, N, -1);
    for (GrB_Index i = 0; i < N; i++) assert_int_equal(got[i], oracle[i]);
    alg_dense_int64(got, glevel, N, -1);
    for (GrB_Index i = 0; i < N; i++) assert_int_equal(got[i], oracle[i]);
    GrB_free(&gdist);
    GrB_free(&glevel);
    for (int w = 0; w < 4; w++) {
      K2_ASSERT_OK(K2_Matrix_setEdgeWeight(g.K, weights[w]));
      GrB_Vector d = NULL;
      K2_ASSERT_OK(K2_sssp_hops(&d, g.K, sources[s], msg));
      GrB_Type type = NULL;
      K2_ASSERT_OK(GxB_Vector_type(&type, d));
      assert_ptr_equal(type, GrB_INT64);
      alg_dense_int64(got, d, N, -1);
      for (GrB_Index i = 0; i < N; i++) assert_int_equal(got[i], oracle[i] < 0 ? -1 : oracle[i] * as_int[w]);
      GrB_free(&d);
    }
    K2_ASSERT_OK(K2_Matrix_setEdgeWeight(g.K, 1));
  }
  K2_ASSERT_OK(K2_Graph_free(&G, msg));
  alg_graph_free(&g);
}

static void test_errors(void **state) {
  (void)state;
  alg_graph g;
  uint32_t I[] = {0, 1}, J[] = {1, 2};
  alg_graph_from_pairs(&g, 3, I, J, 2);
  char msg[K2_MSG_LEN];
  GrB_Vector d = NULL;
  assert_int_equal(K2_sssp_hops(NULL, g.K, 0, msg), GrB_NULL_POINTER);
  assert_int_equal(K2_sssp_hops(&d, g.K, 3, msg), GrB_INVALID_INDEX);
  assert_int_equal(K2_sssp_hops(&d, (GrB_Matrix)NULL, 0, msg), GrB_NULL_POINTER);
  assert_null(d);
  alg_graph_free(&g);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_lagraph_files), cmocka_unit_test(test_ldbc),
                                     cmocka_unit_test(test_weights_and_switch), cmocka_unit_test(test_small_reach),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
