// test_bfs.c: single-source BFS (levels, parents; push, pull, direction-optimizing) on both
// storages: karate from 30 against LAGraph's expected levels and parent sets, LAGraph's BFS
// file list and every source of karate against a serial BFS, the LDBC BFS outputs, searches
// around the size answered by row queries, errors.
// SPDX-License-Identifier: Apache-2.0
#include "alg_ldbc.h"

static const K2_BfsMode modes[] = {K2_BFS_AUTO, K2_BFS_PUSH, K2_BFS_PULL};

// Run every mode on both storages (light: only the direction-optimizing one) and check levels
// and parents against the oracle.
static void check_modes(const alg_graph *g, GrB_Index src, bool light) {
  int64_t *oracle = malloc((g->n + 1) * sizeof(int64_t));
  alg_oracle_bfs(oracle, g->n, g->rowptr, g->col, src);
  char msg[K2_MSG_LEN];
  for (int m = 0; m < (light ? 1 : 3); m++) {
    GrB_Vector l1 = NULL, p1 = NULL, l2 = NULL, p2 = NULL, l3 = NULL;
    K2_ASSERT_OK(K2_bfs_mode(&l1, &p1, g->G, src, modes[m], msg));
    K2_ASSERT_OK(K2_bfs_mode(&l2, &p2, g->K, src, modes[m], msg));
    alg_check_bfs(g, src, l1, p1, oracle);
    alg_check_bfs(g, src, l2, p2, oracle);
    if (light) {
      GrB_free(&l1); GrB_free(&p1); GrB_free(&l2); GrB_free(&p2);
      continue;
    }
    // levels alone (the ANY_PAIR path) and parents alone
    K2_ASSERT_OK(K2_bfs_mode(&l3, NULL, g->K, src, modes[m], msg));
    alg_check_bfs(g, src, l3, NULL, oracle);
    GrB_free(&l3);
    K2_ASSERT_OK(K2_bfs_mode(NULL, &l3, g->K, src, modes[m], msg));
    alg_check_bfs(g, src, NULL, l3, oracle);
    GrB_free(&l1); GrB_free(&p1); GrB_free(&l2); GrB_free(&p2); GrB_free(&l3);
  }
  free(oracle);
}

static void check_all(const alg_graph *g, GrB_Index src) { check_modes(g, src, false); }

static void test_karate_expected(void **state) {
  (void)state;
  alg_graph g;
  // k2_test_data_path returns a static buffer: keep a copy
  const char *e = k2_test_data_path("lagraph/expected/karate_bfs_src30.txt");
  char exp[4096];
  snprintf(exp, sizeof exp, "%s", e ? e : "");
  if (e == NULL || !alg_graph_load(&g, "lagraph/karate.mtx", false)) {
    skip();
    return;
  }
  assert_int_equal(g.n, 34);
  assert_int_equal(g.m, 156);
  GrB_Vector level = NULL, parent = NULL;
  char msg[K2_MSG_LEN];
  for (int s = 0; s < 2; s++) {
    if (s == 0) K2_ASSERT_OK(K2_bfs(&level, &parent, g.G, 30, msg));
    else K2_ASSERT_OK(K2_bfs(&level, &parent, g.K, 30, msg));
    int64_t lv[34], pa[34];
    alg_dense_int64(lv, level, 34, -1);
    alg_dense_int64(pa, parent, 34, -1);
    FILE *f = fopen(exp, "r");
    char line[4096];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
      if (line[0] == '#') continue;
      int node, lev;
      char parents[128];
      assert_int_equal(sscanf(line, "%d %d %127s", &node, &lev, parents), 3);
      assert_int_equal(lv[node], lev);
      bool ok = false;
      for (char *tok = strtok(parents, ","); tok; tok = strtok(NULL, ",")) ok |= (atoi(tok) == pa[node]);
      assert_true(ok);
      rows++;
    }
    fclose(f);
    assert_int_equal(rows, 34);
    GrB_free(&level);
    GrB_free(&parent);
  }
  for (GrB_Index src = 0; src < g.n; src++) check_all(&g, src);
  alg_graph_free(&g);
}

static void test_lagraph_files(void **state) {
  (void)state;
  static const char *files[] = {"A", "cover", "jagmesh7", "ldbc-cdlp-directed-example",
                                "ldbc-cdlp-undirected-example", "ldbc-directed-example",
                                "ldbc-undirected-example", "ldbc-wcc-example", "LFAT5", "msf1", "msf2",
                                "msf3", "sample", "sample2", "olm1000", "bcsstk13", "cryg2500",
                                "tree-example", "west0067", "karate", "matrix_bool", "skew_fp32",
                                "pushpull"};
  int done = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char rel[128];
    snprintf(rel, sizeof rel, "lagraph/%s.mtx", files[f]);
    alg_graph g;
    if (!alg_graph_load(&g, rel, false)) continue;
    // every mode from three sources on the small graphs; the large ones have long paths (pushpull:
    // 2005 levels, olm1000: 500), one level is one product: one source, direction-optimizing
    // (so all of them in quick mode, pushpull left out)
    if (k2_test_quick()) {
      if (strcmp(files[f], "pushpull") != 0) check_modes(&g, g.n / 2, true);
    } else if (g.n <= 1000) {
      GrB_Index srcs[3] = {0, g.n / 2, g.n - 1};
      for (int s = 0; s < 3; s++) check_all(&g, srcs[s]);
    } else {
      check_modes(&g, g.n / 2, true);
    }
    alg_graph_free(&g);
    done++;
  }
  if (done == 0) skip();
}

static void test_ldbc_expected(void **state) {
  (void)state;
  static const char *names[] = {"example-directed", "example-undirected", "test-bfs-directed",
                                "test-bfs-undirected"};
  int done = 0;
  for (size_t t = 0; t < 4; t++) {
    alg_ldbc L;
    if (!alg_ldbc_load(&L, names[t])) continue;
    const char *s = alg_ldbc_property(&L, "bfs.source-vertex");
    assert_non_null(s);
    GrB_Index src = alg_ldbc_index(&L, strtoull(s, NULL, 10));
    double *want = malloc(L.g.n * sizeof(double));
    int64_t *got = malloc(L.g.n * sizeof(int64_t));
    alg_ldbc_expected(&L, "BFS", want);
    for (int st = 0; st < 2; st++) {
      GrB_Vector level = NULL;
      char msg[K2_MSG_LEN];
      if (st == 0) K2_ASSERT_OK(K2_bfs(&level, NULL, L.g.G, src, msg));
      else K2_ASSERT_OK(K2_bfs(&level, NULL, L.g.K, src, msg));
      alg_dense_int64(got, level, L.g.n, -1);
      for (GrB_Index i = 0; i < L.g.n; i++) {
        if (isinf(want[i])) assert_int_equal(got[i], -1);
        else assert_int_equal(got[i], (int64_t)want[i]);
      }
      GrB_free(&level);
    }
    check_all(&L.g, src);
    free(want);
    free(got);
    alg_ldbc_free(&L);
    done++;
  }
  if (done == 0) skip();
}

// A random clump with a 20-vertex tail: the direction-optimizing BFS pushes, switches to pull
// when the frontier's edges outgrow the unexplored ones, and back to push along the tail.
static void test_push_pull_switch(void **state) {
  (void)state;
  alg_graph g;
  alg_graph_clump_with_tail(&g, 8192, 20, 7);
  check_all(&g, 0);
  check_all(&g, 77);
  alg_graph_free(&g);
}

// Components around the size up to which a search runs by row queries (8 vertices): 1, 2, 7, 8,
// 9 and 33 vertices, a hub with 40 out-neighbours (a row wider than the limit), a chain of 40
// (given up at its 9th vertex), a self-loop; every vertex of each a source (K2GRB_TEST_QUICK=1:
// the first two of each), against the serial BFS, with levels and parents together and apart,
// in every mode.
static void test_small_reach(void **state) {
  (void)state;
  const GrB_Index sizes[] = {1, 2, 7, 8, 9, 33};
  uint32_t I[400], J[400];
  GrB_Index ne = 0, n = 0, starts[8];
  size_t ncomp = 0;
  for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {  // rings with one chord
    starts[ncomp++] = n;
    for (GrB_Index i = 0; i < sizes[c]; i++) I[ne] = (uint32_t)(n + i), J[ne++] = (uint32_t)(n + (i + 1) % sizes[c]);
    if (sizes[c] > 3) I[ne] = (uint32_t)n, J[ne++] = (uint32_t)(n + sizes[c] / 2);
    n += sizes[c];
  }
  // a hub and its 40 leaves
  starts[ncomp++] = n;
  for (GrB_Index i = 1; i <= 40; i++) I[ne] = (uint32_t)n, J[ne++] = (uint32_t)(n + i);
  n += 41;
  // a chain of 40 with a self-loop at its head
  starts[ncomp++] = n;
  I[ne] = (uint32_t)n, J[ne++] = (uint32_t)n;
  for (GrB_Index i = 0; i + 1 < 40; i++) I[ne] = (uint32_t)(n + i), J[ne++] = (uint32_t)(n + i + 1);
  n += 40;
  alg_graph g;
  alg_graph_from_pairs(&g, n, I, J, ne);
  // quick mode: the first two vertices of each component (of the hub: the hub and a leaf; of the
  // chain: its self-looped head and the next)
  for (GrB_Index src = 0; src < n; src++) {
    bool near_start = false;
    for (size_t c = 0; c < ncomp; c++) near_start |= src >= starts[c] && src < starts[c] + 2;
    if (!k2_test_quick() || near_start) check_all(&g, src);
  }
  alg_graph_free(&g);
}

static void test_errors(void **state) {
  (void)state;
  alg_graph g;
  uint32_t I[] = {0, 1}, J[] = {1, 2};
  alg_graph_from_pairs(&g, 3, I, J, 2);
  char msg[K2_MSG_LEN];
  GrB_Vector level = (GrB_Vector)&g;  // must be overwritten with NULL on error
  assert_int_equal(K2_bfs(NULL, NULL, g.K, 0, msg), GrB_NULL_POINTER);
  assert_true(strlen(msg) > 0);
  assert_int_equal(K2_bfs(&level, NULL, g.K, 3, msg), GrB_INVALID_INDEX);
  assert_null(level);
  assert_int_equal(K2_bfs(&level, NULL, g.G, 3, msg), GrB_INVALID_INDEX);
  assert_int_equal(K2_bfs(&level, NULL, (K2_Matrix)NULL, 0, msg), GrB_NULL_POINTER);
  assert_int_equal(K2_bfs_mode(&level, NULL, g.K, 0, (K2_BfsMode)9, msg), GrB_INVALID_VALUE);
  assert_int_equal(K2_bfs(&level, NULL, g.K, 0, NULL), GrB_SUCCESS);  // msg may be NULL
  GrB_free(&level);
  K2_Matrix R = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&R, 3, 4));
  assert_int_equal(K2_bfs(&level, NULL, R, 0, msg), GrB_DIMENSION_MISMATCH);
  assert_null(level);
  K2_Matrix_free(&R);
  alg_graph_free(&g);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_karate_expected), cmocka_unit_test(test_lagraph_files),
      cmocka_unit_test(test_ldbc_expected), cmocka_unit_test(test_push_pull_switch),
      cmocka_unit_test(test_small_reach), cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
