// test_roundtrip.c: writers and readers agree (edge lists and Matrix Market, plain and gzip),
// and every text graph of the data folder goes file -> tree -> extractTuples -> the same edge
// set, and tree -> file -> tree gives an equal tree.
// SPDX-License-Identifier: Apache-2.0
#include "io_test_util.h"

static void assert_same_set(const uint32_t *I1, const uint32_t *J1, uint64_t n1,
                            const uint32_t *I2, const uint32_t *J2, uint64_t n2, const char *what) {
  uint64_t na, nb;
  uint64_t *a = io_sorted_keys(I1, J1, n1, true, &na);
  uint64_t *b = io_sorted_keys(I2, J2, n2, true, &nb);
  if (na != nb || memcmp(a, b, na * sizeof(uint64_t)) != 0) {
    fail_msg("%s: edge sets differ (%llu vs %llu distinct pairs)", what, (unsigned long long)na,
             (unsigned long long)nb);
  }
  free(a);
  free(b);
}

// Random K2_Edges -> file -> K2_Edges, for both writers, plain and gzip.
static void test_edges_roundtrip(void **state) {
  (void)state;
  k2_rng rng = {2024};
  for (int round = 0; round < 6; round++) {
    K2_Edges E;
    memset(&E, 0, sizeof E);
    E.nrows = 1 + k2_rng_below(&rng, 5000);
    E.ncols = round % 3 == 0 ? E.nrows : 1 + k2_rng_below(&rng, 5000);
    E.nvals = E.capacity = k2_rng_below(&rng, 20000);
    E.I = malloc((E.nvals + 1) * sizeof(uint32_t));
    E.J = malloc((E.nvals + 1) * sizeof(uint32_t));
    for (uint64_t e = 0; e < E.nvals; e++) {
      E.I[e] = (uint32_t)k2_rng_below(&rng, E.nrows);
      E.J[e] = (uint32_t)k2_rng_below(&rng, E.ncols);
    }
    if (E.nvals > 0) E.I[0] = (uint32_t)(E.nrows - 1), E.J[0] = (uint32_t)(E.ncols - 1);
    for (int gz = 0; gz < 2; gz++) {
      K2_Edges R;
      char path[600];
      snprintf(path, sizeof path, "%s", io_tmp_path(gz ? "rt.mtx.gz" : "rt.mtx"));
      K2_ASSERT_OK(K2_Edges_writeMatrixMarket(&E, path));
      K2_ASSERT_OK(K2_Edges_read(&R, path, NULL));
      assert_int_equal(R.nrows, E.nrows);  // the size line keeps the shape
      assert_int_equal(R.ncols, E.ncols);
      assert_int_equal(R.nvals, E.nvals);
      assert_memory_equal(R.I, E.I, E.nvals * sizeof(uint32_t));  // same order, duplicates kept
      assert_memory_equal(R.J, E.J, E.nvals * sizeof(uint32_t));
      K2_Edges_free(&R);

      snprintf(path, sizeof path, "%s", io_tmp_path(gz ? "rt.el.gz" : "rt.el"));
      K2_ASSERT_OK(K2_Edges_writeEdgeList(&E, path));
      K2_ASSERT_OK(K2_Edges_read(&R, path, NULL));
      assert_int_equal(R.nvals, E.nvals);
      uint64_t side = E.nrows > E.ncols ? E.nrows : E.ncols;
      if (E.nvals > 0) assert_int_equal(R.nrows, side);  // n = max id + 1, (nrows-1, ncols-1) present
      assert_memory_equal(R.I, E.I, E.nvals * sizeof(uint32_t));
      assert_memory_equal(R.J, E.J, E.nvals * sizeof(uint32_t));
      K2_Edges_free(&R);
    }
    K2_Edges_free(&E);
  }
  io_tmp_cleanup();
}

static void test_writer_errors(void **state) {
  (void)state;
  uint32_t I[1] = {5}, J[1] = {0};
  K2_Edges E = {.nrows = 3, .ncols = 3, .nvals = 1, .capacity = 1, .I = I, .J = J};
  assert_int_equal(K2_Edges_writeMatrixMarket(&E, io_tmp_path("bad.mtx")), GrB_INVALID_INDEX);
  E.I[0] = 1;
  assert_int_equal(K2_Edges_writeEdgeList(&E, "/nonexistent/dir/x.el"), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "/nonexistent/dir/x.el"));
  assert_int_equal(K2_Edges_writeEdgeList(NULL, "x"), GrB_NULL_POINTER);
  io_tmp_cleanup();
}

typedef struct {
  const char *path;
  bool one_based;
} rt_file;

static const rt_file files[] = {
    {"snap-wiki-Vote/wiki-Vote.txt", false},
    {"snap-p2p-Gnutella/p2p-Gnutella05.txt", false},
    {"snap-p2p-Gnutella/p2p-Gnutella06.txt", false},
    {"snap-ca-CondMat/CA-CondMat.txt", false},
    {"snap-email-Enron/email-Enron.txt.gz", false},
    {"snap-email-Eu-core/email-Eu-core.txt", false},
    {"snap-ca-GrQc-lcc/ca-GrQc-lcc.txt", false},
    {"snap-ca-HepTh-lcc/ca-HepTh-lcc.txt", false},
    {"snap-ca-HepPh-lcc/ca-HepPh-lcc.txt", false},
    {"snap-cit-HepPh/cit-HepPh.jlg.gz", false},
    {"snap-cit-HepTh/cit-HepTh.jlg.gz", false},
    {"snap-soc-Slashdot0902/soc-Slashdot0902-directed.jlg.gz", false},
    {"snap-ego-Twitter/ego-twitter-undirected.jlg.gz", false},
    {"snap-ego-Facebook/facebook-combined.jlg.gz", false},
    {"snap-as-caida/as-caida20071105.jlg.gz", false},
    {"snap-ca-AstroPh-cc1/ca-AstroPh-cc1.jlg.gz", false},
    {"networkit-misc/MIT8.edgelist", false},
    {"networkit-misc/power.graph", false},
    {"networkit-misc/PGPgiantcompo.graph", false},
    {"networkit-misc/polblogs.graph", false},
    {"networkit-misc/astro-ph.graph", false},
    {"luxembourg_osm/luxembourg_osm.edges", true},
    {"lagraph/karate.mtx", false},
    {"lagraph/west0067.mtx", false},
    {"lagraph/bcsstk13.mtx", false},
    {"lagraph/lp_afiro.mtx", false},
};

// file -> tree -> extractTuples equals the file's edge set; tree -> MM / edge list -> tree equal.
static void test_real_graphs_through_tree(void **state) {
  (void)state;
  if (k2_test_data_path("SOURCES.md") == NULL) {
    skip();
    return;
  }
  for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
    char path[4096];
    const char *p = k2_test_data_path(files[k].path);
    if (p == NULL) fail_msg("missing %s", files[k].path);
    snprintf(path, sizeof path, "%s", p);
    K2_ReadOptions opt;
    K2_ReadOptions_default(&opt);
    opt.one_based = files[k].one_based;
    if (files[k].one_based) opt.format = K2_FORMAT_EDGE_LIST;
    K2_Edges E;
    K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
    K2_Matrix A = NULL;
    K2_ASSERT_OK(K2_Matrix_read(&A, path, &opt));
    GrB_Index nrows, ncols, nvals;
    K2_ASSERT_OK(K2_Matrix_nrows(&nrows, A));
    K2_ASSERT_OK(K2_Matrix_ncols(&ncols, A));
    K2_ASSERT_OK(K2_Matrix_nvals(&nvals, A));
    assert_int_equal(nrows, E.nrows);
    assert_int_equal(ncols, E.ncols);
    uint32_t *I = malloc((nvals + 1) * sizeof(uint32_t)), *J = malloc((nvals + 1) * sizeof(uint32_t));
    GrB_Index got = nvals;
    K2_ASSERT_OK(K2_Matrix_extractTuples_32(I, J, &got, A));
    assert_int_equal(got, nvals);
    assert_same_set(I, J, got, E.I, E.J, E.nvals, files[k].path);
    free(I);
    free(J);
    K2_Edges_free(&E);

    // tree -> Matrix Market -> tree (the size line keeps the shape); the writers are the same
    // code for every size, so the largest graphs skip this part to keep the test short
    if (nvals > 300000) {
      K2_Matrix_free(&A);
      continue;
    }
    char out[600];
    snprintf(out, sizeof out, "%s", io_tmp_path("tree.mtx"));
    K2_ASSERT_OK(K2_Matrix_writeMatrixMarket(A, out));
    K2_Matrix B = NULL;
    K2_ASSERT_OK(K2_Matrix_read(&B, out, NULL));
    bool equal = false;
    K2_ASSERT_OK(K2_Matrix_isEqual(&equal, A, B));
    if (!equal) fail_msg("%s: Matrix Market round trip differs", files[k].path);
    K2_Matrix_free(&B);

    // tree -> edge list -> edges: same set (gzip for the small ones: deflate is slow)
    snprintf(out, sizeof out, "%s", io_tmp_path(nvals < 100000 ? "tree.el.gz" : "tree.el"));
    K2_ASSERT_OK(K2_Matrix_writeEdgeList(A, out));
    K2_Edges R;
    K2_ASSERT_OK(K2_Edges_read(&R, out, NULL));
    assert_int_equal(R.nvals, nvals);
    K2_Edges_free(&R);
    K2_Matrix_free(&A);
  }
  io_tmp_cleanup();
}

// Options reach the tree: symmetrize gives a symmetric matrix.
static void test_matrix_read_options(void **state) {
  (void)state;
  const char *path = k2_test_data_path("snap-ca-GrQc-lcc/ca-GrQc-lcc.txt");
  if (path == NULL) {
    skip();
    return;
  }
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.symmetrize = true;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_read(&A, path, &opt));
  GrB_Index nvals;
  K2_ASSERT_OK(K2_Matrix_nvals(&nvals, A));
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  uint64_t distinct;
  free(io_sorted_keys(E.I, E.J, E.nvals, true, &distinct));
  assert_int_equal(nvals, distinct);
  K2_Edges_free(&E);
  K2_Matrix_free(&A);
  // errors leave *A alone
  K2_Matrix keep = (K2_Matrix)(uintptr_t)0x1234;
  assert_int_equal(K2_Matrix_read(&keep, "/nonexistent/k2grb.mtx", NULL), GrB_INVALID_VALUE);
  assert_true(keep == (K2_Matrix)(uintptr_t)0x1234);
}

// .k2 files go through the same entry points: K2_Matrix_read loads them (options rebuild),
// K2_Edges_read gives their pattern.
static void test_k2_files(void **state) {
  (void)state;
  const uint32_t I[5] = {0, 1, 2, 3, 3}, J[5] = {1, 2, 0, 3, 0};
  K2_Matrix A = NULL, B = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 4, 6));
  K2_ASSERT_OK(K2_Matrix_build_32(A, I, J, 5));
  char path[600];
  snprintf(path, sizeof path, "%s", io_tmp_path("small.k2"));
  K2_ASSERT_OK(K2_Matrix_save(A, path));
  K2_ASSERT_OK(K2_Matrix_read(&B, path, NULL));
  bool equal = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&equal, A, B));
  assert_true(equal);
  K2_Matrix_free(&B);

  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_read(&E, path, NULL));
  assert_int_equal(E.nrows, 4);
  assert_int_equal(E.ncols, 6);
  assert_same_set(E.I, E.J, E.nvals, I, J, 5, "small.k2");
  K2_Edges_free(&E);

  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.transpose = opt.drop_self_loops = true;
  K2_ASSERT_OK(K2_Matrix_read(&B, path, &opt));
  GrB_Index nrows, nvals;
  K2_ASSERT_OK(K2_Matrix_nrows(&nrows, B));
  K2_ASSERT_OK(K2_Matrix_nvals(&nvals, B));
  assert_int_equal(nrows, 6);
  assert_int_equal(nvals, 4);  // (3,3) dropped
  bool present = false;
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, B, 0, 3));  // from (3,0)
  assert_true(present);
  K2_Matrix_free(&B);
  K2_Matrix_free(&A);
  io_tmp_cleanup();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edges_roundtrip),
      cmocka_unit_test(test_writer_errors),
      cmocka_unit_test(test_real_graphs_through_tree),
      cmocka_unit_test(test_matrix_read_options),
      cmocka_unit_test(test_k2_files),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
