// test_wcc.c: weakly connected components on both storages: LDBC's WCC outputs (label = the
// smallest vertex id of the component), a union-find oracle on LAGraph and SNAP files; errors.
// SPDX-License-Identifier: Apache-2.0
#include "alg_ldbc.h"

static void check_wcc(const alg_graph *g) {
  int64_t *oracle = malloc((g->n + 1) * sizeof(int64_t)), *got = malloc((g->n + 1) * sizeof(int64_t));
  alg_oracle_wcc(oracle, g);
  char msg[K2_MSG_LEN];
  for (int st = 0; st < 2; st++) {
    GrB_Vector c = NULL;
    int rounds = 0;
    if (st == 0) K2_ASSERT_OK(K2_wcc(&c, &rounds, g->G, msg));
    else K2_ASSERT_OK(K2_wcc(&c, &rounds, g->K, msg));
    assert_true(rounds >= 1);
    alg_dense_int64(got, c, g->n, -1);
    assert_memory_equal(got, oracle, g->n * sizeof(int64_t));
    GrB_free(&c);
  }
  free(oracle);
  free(got);
}

static void test_ldbc(void **state) {
  (void)state;
  static const char *names[] = {"example-directed", "example-undirected", "test-wcc-directed", "test-wcc-undirected"};
  int done = 0;
  for (int t = 0; t < 4; t++) {
    alg_ldbc L;
    if (!alg_ldbc_load(&L, names[t])) continue;
    double *want = malloc(L.g.n * sizeof(double));
    int64_t *got = malloc(L.g.n * sizeof(int64_t));
    alg_ldbc_expected(&L, "WCC", want);
    for (int st = 0; st < 2; st++) {
      GrB_Vector c = NULL;
      char msg[K2_MSG_LEN];
      if (st == 0) K2_ASSERT_OK(K2_wcc(&c, NULL, L.g.G, msg));
      else K2_ASSERT_OK(K2_wcc(&c, NULL, L.g.K, msg));
      alg_dense_int64(got, c, L.g.n, -1);
      for (GrB_Index i = 0; i < L.g.n; i++) assert_int_equal(L.ids[got[i]], (uint64_t)want[i]);
      GrB_free(&c);
    }
    check_wcc(&L.g);
    free(want);
    free(got);
    alg_ldbc_free(&L);
    done++;
  }
  if (done == 0) skip();
}

static void test_files(void **state) {
  (void)state;
  static const char *files[] = {"lagraph/ldbc-wcc-example.mtx", "lagraph/msf1.mtx", "lagraph/west0067.mtx",
                                "lagraph/cryg2500.mtx", "lagraph/LFAT5.mtx", "snap-email-Eu-core/email-Eu-core.txt",
                                "snap-p2p-Gnutella/p2p-Gnutella05.txt", "networkit-misc/power.graph"};
  int done = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    alg_graph g;
    if (!alg_graph_load(&g, files[f], false)) continue;
    check_wcc(&g);
    alg_graph_free(&g);
    done++;
  }
  if (done == 0) skip();
}

// Many components: isolated vertices, a path written backwards, a star, pairs.
static void test_shapes(void **state) {
  (void)state;
  const GrB_Index n = 1000;
  uint32_t I[1000], J[1000];
  GrB_Index ne = 0;
  for (uint32_t i = 200; i > 100; i--) I[ne] = i, J[ne++] = i - 1;   // path 100..200, edges pointing down
  for (uint32_t i = 301; i < 400; i++) I[ne] = i, J[ne++] = 300;      // star into 300
  for (uint32_t i = 500; i < 600; i += 2) I[ne] = i + 1, J[ne++] = i; // pairs
  alg_graph g;
  alg_graph_from_pairs(&g, n, I, J, ne);
  check_wcc(&g);
  alg_graph_free(&g);
}

static void test_errors(void **state) {
  (void)state;
  char msg[K2_MSG_LEN];
  GrB_Vector c = NULL;
  K2_Matrix R = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&R, 3, 4));
  assert_int_equal(K2_wcc(NULL, NULL, R, msg), GrB_NULL_POINTER);
  assert_int_equal(K2_wcc(&c, NULL, R, msg), GrB_DIMENSION_MISMATCH);
  assert_null(c);
  assert_int_equal(K2_wcc(&c, NULL, (K2_Matrix)NULL, msg), GrB_NULL_POINTER);
  K2_Matrix_free(&R);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_ldbc), cmocka_unit_test(test_files),
                                     cmocka_unit_test(test_shapes), cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
