// test_storage.c: every real graph of the data folder (web crawls in BVGraph, SNAP and
// networkit files, a road network, the Software Heritage example) gives the same results on
// a GrB_Matrix and on a K2_Matrix: BFS levels identical and equal to a serial BFS, parents
// valid, hop SSSP equal to BFS, components equal to union-find, PageRank within FP32
// rounding (1e-5) with the same iteration count; multi-source BFS on the smaller graphs.
// SPDX-License-Identifier: Apache-2.0
#include <time.h>

#include "alg_test_util.h"

typedef struct {
  const char *path;
  K2_FileFormat format;
  bool one_based, symmetrize;
  bool slow;  // run only with K2GRB_LONG_TESTS=1: a road network (~1000 BFS levels and 113
              // WCC rounds, each a product: 30 s on 2 cores) and cnr-2000's transpose
} storage_case;

static const storage_case cases[] = {
    {"cnr-2000/cnr-2000", K2_FORMAT_AUTO, false, false, false},
    {"cnr-2000/cnr-2000-t", K2_FORMAT_AUTO, false, false, true},
    {"uk-2007-05@100000/uk-2007-05@100000", K2_FORMAT_AUTO, false, false, false},
    {"wb-cs.stanford/wb-cs.stanford", K2_FORMAT_AUTO, false, false, false},
    {"harvard500/harvard500", K2_FORMAT_AUTO, false, false, false},
    {"swh-example/example", K2_FORMAT_AUTO, false, false, false},
    {"snap-wiki-Vote/wiki-Vote.txt", K2_FORMAT_AUTO, false, false, false},
    {"snap-p2p-Gnutella/p2p-Gnutella05.txt", K2_FORMAT_AUTO, false, false, false},
    {"snap-p2p-Gnutella/p2p-Gnutella06.txt", K2_FORMAT_AUTO, false, false, false},
    {"snap-ca-CondMat/CA-CondMat.txt", K2_FORMAT_AUTO, false, false, false},
    {"snap-email-Enron/email-Enron.txt.gz", K2_FORMAT_AUTO, false, false, false},
    {"snap-email-Eu-core/email-Eu-core.txt", K2_FORMAT_AUTO, false, false, false},
    {"snap-ca-GrQc-lcc/ca-GrQc-lcc.txt", K2_FORMAT_AUTO, false, true, false},
    {"snap-ca-HepTh-lcc/ca-HepTh-lcc.txt", K2_FORMAT_AUTO, false, true, false},
    {"snap-ca-HepPh-lcc/ca-HepPh-lcc.txt", K2_FORMAT_AUTO, false, true, false},
    {"snap-cit-HepPh/cit-HepPh.jlg.gz", K2_FORMAT_AUTO, false, false, false},
    {"snap-cit-HepTh/cit-HepTh.jlg.gz", K2_FORMAT_AUTO, false, false, false},
    {"snap-soc-Slashdot0902/soc-Slashdot0902-directed.jlg.gz", K2_FORMAT_AUTO, false, false, false},
    {"snap-ego-Twitter/ego-twitter-undirected.jlg.gz", K2_FORMAT_AUTO, false, true, false},
    {"snap-ego-Facebook/facebook-combined.jlg.gz", K2_FORMAT_AUTO, false, true, false},
    {"snap-as-caida/as-caida20071105.jlg.gz", K2_FORMAT_AUTO, false, true, false},
    {"snap-ca-AstroPh-cc1/ca-AstroPh-cc1.jlg.gz", K2_FORMAT_AUTO, false, true, false},
    {"networkit-misc/MIT8.edgelist", K2_FORMAT_AUTO, false, true, false},
    {"networkit-misc/power.graph", K2_FORMAT_AUTO, false, false, false},
    {"networkit-misc/PGPgiantcompo.graph", K2_FORMAT_AUTO, false, false, false},
    {"networkit-misc/polblogs.graph", K2_FORMAT_AUTO, false, false, false},
    {"networkit-misc/astro-ph.graph", K2_FORMAT_AUTO, false, false, false},
    {"luxembourg_osm/luxembourg_osm.edges", K2_FORMAT_EDGE_LIST, true, true, true},
};

static bool load_case(alg_graph *g, const storage_case *c) {
  const char *probe = k2_test_data_path(c->path);
  char base[1024];
  if (probe == NULL) {
    // a BVGraph basename: the folder holds <base>.graph
    char rel[512];
    snprintf(rel, sizeof rel, "%s.graph", c->path);
    probe = k2_test_data_path(rel);
    if (probe == NULL) {
      print_message("%s absent: skipped\n", c->path);
      return false;
    }
    snprintf(base, sizeof base, "%s", probe);
    base[strlen(base) - strlen(".graph")] = '\0';
  } else {
    snprintf(base, sizeof base, "%s", probe);
  }
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = c->format;
  opt.one_based = c->one_based;
  opt.symmetrize = c->symmetrize;
  K2_Edges E;
  GrB_Info info = K2_Edges_read(&E, base, &opt);
  if (info != GrB_SUCCESS) print_error("%s: %s\n", base, K2_error_string());
  assert_int_equal(info, GrB_SUCCESS);
  alg_graph_from_pairs(g, E.nrows > E.ncols ? E.nrows : E.ncols, E.I, E.J, E.nvals);
  K2_Edges_free(&E);
  return true;
}

static void check_graph(const storage_case *c) {
  alg_graph g;
  if (!load_case(&g, c)) return;
  char msg[K2_MSG_LEN];
  GrB_Index n = g.n;
  int64_t *oracle = malloc((n + 1) * sizeof(int64_t)), *x = malloc((n + 1) * sizeof(int64_t)),
          *y = malloc((n + 1) * sizeof(int64_t));
  // BFS from two sources: the first vertex with an out-edge and one a third in
  GrB_Index first = 0;
  while (first + 1 < n && g.rowptr[first + 1] == g.rowptr[first]) first++;
  GrB_Index srcs[2] = {first, n / 3};
  GrB_Index reached = 0;
  for (int s = 0; s < (c->slow ? 1 : 2); s++) {
    alg_oracle_bfs(oracle, n, g.rowptr, g.col, srcs[s]);
    GrB_Vector l1 = NULL, p1 = NULL, l2 = NULL, p2 = NULL, d = NULL;
    K2_ASSERT_OK(K2_bfs(&l1, &p1, g.G, srcs[s], msg));
    K2_ASSERT_OK(K2_bfs(&l2, &p2, g.K, srcs[s], msg));
    alg_check_bfs(&g, srcs[s], l1, p1, oracle);
    alg_check_bfs(&g, srcs[s], l2, p2, oracle);
    GrB_Index nv;
    K2_ASSERT_OK(GrB_Vector_nvals(&nv, l2));
    reached += nv;
    // hop SSSP = BFS levels (one source: Bellman-Ford rounds = depth)
    if (s == 0 && !c->slow) {
      K2_ASSERT_OK(K2_sssp_hops(&d, g.K, srcs[s], msg));
      alg_dense_int64(x, d, n, -1);
      assert_memory_equal(x, oracle, n * sizeof(int64_t));
      GrB_free(&d);
      K2_ASSERT_OK(K2_sssp_hops(&d, g.G, srcs[s], msg));
      alg_dense_int64(x, d, n, -1);
      assert_memory_equal(x, oracle, n * sizeof(int64_t));
      GrB_free(&d);
    }
    GrB_free(&l1); GrB_free(&p1); GrB_free(&l2); GrB_free(&p2);
  }
  // components
  GrB_Vector c1 = NULL, c2 = NULL;
  int rounds = 0;
  alg_oracle_wcc(oracle, &g);
  K2_ASSERT_OK(K2_wcc(&c1, NULL, g.G, msg));
  K2_ASSERT_OK(K2_wcc(&c2, &rounds, g.K, msg));
  alg_dense_int64(x, c1, n, -1);
  alg_dense_int64(y, c2, n, -1);
  assert_memory_equal(x, oracle, n * sizeof(int64_t));
  assert_memory_equal(y, oracle, n * sizeof(int64_t));
  GrB_Index ncomp = 0;
  for (GrB_Index i = 0; i < n; i++) ncomp += oracle[i] == (int64_t)i;
  GrB_free(&c1);
  GrB_free(&c2);
  // PageRank: the same iterations, the same ranks to FP32 rounding
  GrB_Vector r1 = NULL, r2 = NULL;
  int it1 = -1, it2 = -2;
  GrB_Info i1 = K2_pagerank(&r1, &it1, g.G, 0.85f, 1e-4f, 100, msg);
  GrB_Info i2 = K2_pagerank(&r2, &it2, g.K, 0.85f, 1e-4f, 100, msg);
  assert_int_equal(i1, i2);
  double diff = 0;
  if (i1 == GrB_SUCCESS) {
    assert_int_equal(it1, it2);
    double *a = malloc((n + 1) * sizeof(double)), *b = malloc((n + 1) * sizeof(double));
    alg_dense_fp64(a, r1, n);
    alg_dense_fp64(b, r2, n);
    for (GrB_Index i = 0; i < n; i++) diff = fmax(diff, fabs(a[i] - b[i]));
    assert_true(diff < 1e-5);  // FP32 sums in another order (LAGraph accepts 1e-4)
    free(a);
    free(b);
  }
  GrB_free(&r1);
  GrB_free(&r2);
  // multi-source BFS (8 sources, both directions) where n * 8 stays small
  bool ms = n <= 120000 && !c->slow;
  if (ms) {
    GrB_Index src[8];
    for (int b = 0; b < 8; b++) src[b] = (first + (GrB_Index)b * 7919) % n;
    for (int rev = 0; rev < 2; rev++) {
      GrB_Matrix D1 = NULL, D2 = NULL;
      K2_ASSERT_OK(K2_msbfs(&D1, g.G, src, 8, rev, msg));
      K2_ASSERT_OK(K2_msbfs(&D2, g.K, src, 8, rev, msg));
      GrB_Index n1, n2;
      K2_ASSERT_OK(GrB_Matrix_nvals(&n1, D1));
      K2_ASSERT_OK(GrB_Matrix_nvals(&n2, D2));
      assert_int_equal(n1, n2);
      GrB_Matrix E = NULL;
      K2_ASSERT_OK(GrB_Matrix_new(&E, GrB_BOOL, n, 8));
      K2_ASSERT_OK(GrB_eWiseMult(E, NULL, NULL, GrB_EQ_INT32, D1, D2, NULL));
      K2_ASSERT_OK(GrB_Matrix_select_BOOL(E, NULL, NULL, GrB_VALUEEQ_BOOL, E, true, NULL));
      K2_ASSERT_OK(GrB_Matrix_nvals(&n2, E));
      assert_int_equal(n1, n2);
      // column 0 along the edges is a BFS from src[0]
      if (rev == 0) {
        alg_oracle_bfs(oracle, n, g.rowptr, g.col, src[0]);
        GrB_Index reached0 = 0;
        for (GrB_Index i = 0; i < n; i++) reached0 += oracle[i] >= 0;
        GrB_Vector col = NULL;
        K2_ASSERT_OK(GrB_Vector_new(&col, GrB_INT32, n));
        K2_ASSERT_OK(GrB_Col_extract(col, NULL, NULL, D2, GrB_ALL, n, 0, NULL));
        alg_dense_int64(x, col, n, -1);
        assert_memory_equal(x, oracle, n * sizeof(int64_t));
        GrB_free(&col);
      }
      GrB_free(&E);
      GrB_free(&D1);
      GrB_free(&D2);
    }
  }
  print_message("%-55s n %8llu m %9llu | BFS identical, %llu reached | WCC %llu comps (%d rounds) | "
                "PR %s %d it, max|diff| %.1e%s\n",
                c->path, (unsigned long long)n, (unsigned long long)g.m, (unsigned long long)reached,
                (unsigned long long)ncomp, rounds, i1 == GrB_SUCCESS ? "ok" : "no-conv", it2, diff,
                ms ? " | msBFS x16 identical" : "");
  free(oracle);
  free(x);
  free(y);
  alg_graph_free(&g);
}

static void test_all_graphs(void **state) {
  (void)state;
  if (k2_test_data_path("SOURCES.md") == NULL) {
    skip();
    return;
  }
  const char *lt = getenv("K2GRB_LONG_TESTS");
  bool long_tests = lt != NULL && strcmp(lt, "1") == 0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    if (cases[c].slow && !long_tests) {
      print_message("%s: only with K2GRB_LONG_TESTS=1\n", cases[c].path);
      continue;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    check_graph(&cases[c]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    print_message("    %.2f s\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  }
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_all_graphs)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
