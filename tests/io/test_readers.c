// test_readers.c: every text graph of the shared data folder loads with the counts that
// ../shared/data/SOURCES.md states (nodes, edges, self-loops where it gives them), and the
// options (symmetrize, transpose, drop self-loops, remap, one-based) do what they say.
// SPDX-License-Identifier: Apache-2.0
#include "io_test_util.h"
#include "k2_real_graphs.h"

#define UNKNOWN UINT64_MAX

typedef struct {
  const char *path;      // relative to the data folder
  K2_FileFormat format;
  bool remap, one_based;
  uint64_t n;            // nodes (square)
  uint64_t nvals;        // pairs as stored in the file
  uint64_t loops;        // self-loops, UNKNOWN where SOURCES.md does not say
} data_case;

// Counts from SOURCES.md. Undirected files stored once give nvals = edges; METIS files list
// each edge in both lists (nvals = 2m); ids of non-contiguous SNAP files are remapped to reach
// the stated node count (without remap, n = max id + 1, checked separately below).
static const data_case cases[] = {
    {"snap-wiki-Vote/wiki-Vote.txt", K2_FORMAT_AUTO, true, false, 7115, 103689, UNKNOWN},
    {"snap-p2p-Gnutella/p2p-Gnutella05.txt", K2_FORMAT_AUTO, false, false, 8846, 31839, UNKNOWN},
    {"snap-p2p-Gnutella/p2p-Gnutella06.txt", K2_FORMAT_AUTO, false, false, 8717, 31525, UNKNOWN},
    {"snap-ca-CondMat/CA-CondMat.txt", K2_FORMAT_AUTO, true, false, 23133, 186936, 58},
    {"snap-email-Enron/email-Enron.txt.gz", K2_FORMAT_AUTO, false, false, 36692, 367662, UNKNOWN},
    {"snap-email-Eu-core/email-Eu-core.txt", K2_FORMAT_AUTO, false, false, 1005, 25571, 642},
    {"snap-ca-GrQc-lcc/ca-GrQc-lcc.txt", K2_FORMAT_AUTO, false, false, 4158, 13428, 6},
    {"snap-ca-HepTh-lcc/ca-HepTh-lcc.txt", K2_FORMAT_AUTO, false, false, 8638, 24827, 21},
    {"snap-ca-HepPh-lcc/ca-HepPh-lcc.txt", K2_FORMAT_AUTO, false, false, 11204, 117649, 30},
    {"snap-cit-HepPh/cit-HepPh.jlg.gz", K2_FORMAT_AUTO, false, false, 34546, 421578, 44},
    {"snap-cit-HepTh/cit-HepTh.jlg.gz", K2_FORMAT_AUTO, false, false, 27770, 352807, 39},
    {"snap-soc-Slashdot0902/soc-Slashdot0902-directed.jlg.gz", K2_FORMAT_AUTO, false, false, 82168, 948464, 78303},
    {"snap-ego-Twitter/ego-twitter-undirected.jlg.gz", K2_FORMAT_AUTO, false, false, 81306, 1342310, 14},
    {"snap-ego-Facebook/facebook-combined.jlg.gz", K2_FORMAT_AUTO, false, false, 4039, 88234, UNKNOWN},
    {"snap-as-caida/as-caida20071105.jlg.gz", K2_FORMAT_AUTO, false, false, 26475, 53381, UNKNOWN},
    {"snap-ca-AstroPh-cc1/ca-AstroPh-cc1.jlg.gz", K2_FORMAT_AUTO, false, false, 17903, 197031, 59},
    {"networkit-misc/MIT8.edgelist", K2_FORMAT_AUTO, false, false, 6440, 251252, UNKNOWN},
    {"networkit-misc/power.graph", K2_FORMAT_AUTO, false, false, 4941, 2 * 6594, 0},
    {"networkit-misc/PGPgiantcompo.graph", K2_FORMAT_AUTO, false, false, 10680, 2 * 24316, 0},
    {"networkit-misc/polblogs.graph", K2_FORMAT_AUTO, false, false, 1490, 2 * 16715, 0},
    {"networkit-misc/astro-ph.graph", K2_FORMAT_AUTO, false, false, 16706, 2 * 121251, 0},
    // a Matrix Market body without its header: 1-based, chosen explicitly
    {"luxembourg_osm/luxembourg_osm.edges", K2_FORMAT_EDGE_LIST, false, true, 114599, 119666, 0},
    {"ldbc-graphalytics-examples/example-directed.e", K2_FORMAT_AUTO, true, false, 10, 17, UNKNOWN},
    {"ldbc-graphalytics-examples/example-undirected.e", K2_FORMAT_AUTO, true, false, 9, 12, UNKNOWN},
    // Matrix Market (symmetric pattern: nvals = 2 * entries - diagonal, counted from the file)
    {"lagraph/karate.mtx", K2_FORMAT_AUTO, false, false, 34, 2 * 78, 0},
    {"lagraph/west0067.mtx", K2_FORMAT_AUTO, false, false, 67, 294, 2},
    {"lagraph/bcsstk13.mtx", K2_FORMAT_AUTO, false, false, 2003, 2 * 42943 - 2003, 2003},
    {"lagraph/jagmesh7.mtx", K2_FORMAT_AUTO, false, false, 1138, 2 * 4294 - 1138, 1138},
    {"lagraph/pushpull.mtx", K2_FORMAT_AUTO, false, false, 4000, 2 * 99208 - 2111, 2111},
};

static void read_case(const data_case *c, K2_Edges *E, bool *skipped) {
  const char *path = k2_test_data_path(c->path);
  *skipped = path == NULL;
  if (path == NULL) {
    print_message("skipping %s: data folder absent\n", c->path);
    return;
  }
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = c->format;
  opt.remap_ids = c->remap;
  opt.one_based = c->one_based;
  K2_ASSERT_OK(K2_Edges_read(E, path, &opt));
}

static void test_real_counts(void **state) {
  (void)state;
  int done = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const data_case *c = &cases[k];
    K2_Edges E;
    bool skipped;
    read_case(c, &E, &skipped);
    if (skipped) continue;
    if (E.nrows != c->n || E.ncols != c->n || E.nvals != c->nvals ||
        (c->loops != UNKNOWN && io_self_loops(&E) != c->loops)) {
      print_error("%s: got %llu x %llu, %llu pairs, %llu loops; want %llu nodes, %llu pairs\n",
                  c->path, (unsigned long long)E.nrows, (unsigned long long)E.ncols,
                  (unsigned long long)E.nvals, (unsigned long long)io_self_loops(&E),
                  (unsigned long long)c->n, (unsigned long long)c->nvals);
      fail();
    }
    for (uint64_t e = 0; e < E.nvals; e++) {
      if (E.I[e] >= E.nrows || E.J[e] >= E.ncols) fail_msg("%s: pair %llu out of range", c->path, (unsigned long long)e);
    }
    K2_Edges_free(&E);
    done++;
  }
  if (done == 0) skip();
}

// Without remap, n = largest id + 1 (SOURCES.md: wiki-Vote ids up to 8297, CA-CondMat 108299).
static void test_no_remap_uses_max_id(void **state) {
  (void)state;
  const char *p1 = k2_test_data_path("snap-wiki-Vote/wiki-Vote.txt");
  if (p1 == NULL) {
    skip();
    return;
  }
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_read(&E, p1, NULL));
  assert_int_equal(E.nrows, 8298);
  K2_Edges_free(&E);
  const char *p2 = k2_test_data_path("snap-ca-CondMat/CA-CondMat.txt");
  K2_ASSERT_OK(K2_Edges_read(&E, p2, NULL));
  assert_int_equal(E.nrows, 108300);
  assert_int_equal(E.nvals, 186936);
  K2_Edges_free(&E);
}

// luxembourg_osm.edges holds the lower triangle (i > j) of a symmetric matrix, 1-based.
static void test_luxembourg_lower_and_symmetrize(void **state) {
  (void)state;
  const char *path = k2_test_data_path("luxembourg_osm/luxembourg_osm.edges");
  if (path == NULL) {
    skip();
    return;
  }
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = K2_FORMAT_EDGE_LIST;
  opt.one_based = true;
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  for (uint64_t e = 0; e < E.nvals; e++) assert_true(E.I[e] > E.J[e]);
  K2_Edges_free(&E);
  opt.symmetrize = true;
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  assert_int_equal(E.nvals, 2 * 119666);
  assert_int_equal(E.nrows, 114599);
  K2_Edges_free(&E);
}

// Options on ca-GrQc-lcc (13,428 edges stored once, 6 self-loops).
static void test_options(void **state) {
  (void)state;
  const char *path = k2_test_data_path("snap-ca-GrQc-lcc/ca-GrQc-lcc.txt");
  if (path == NULL) {
    skip();
    return;
  }
  K2_Edges plain, E;
  K2_ASSERT_OK(K2_Edges_read(&plain, path, NULL));
  K2_ReadOptions opt;

  K2_ReadOptions_default(&opt);
  opt.symmetrize = true;
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  assert_int_equal(E.nvals, 2 * 13428 - 6);  // the diagonal once
  uint64_t na, nb;
  uint64_t *ka = io_sorted_keys(E.I, E.J, E.nvals, true, &na);
  uint64_t *kb = io_sorted_keys(E.J, E.I, E.nvals, true, &nb);
  assert_int_equal(na, nb);
  assert_memory_equal(ka, kb, na * sizeof(uint64_t));  // the pattern is symmetric
  free(ka);
  free(kb);
  K2_Edges_free(&E);

  K2_ReadOptions_default(&opt);
  opt.drop_self_loops = true;
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  assert_int_equal(E.nvals, 13428 - 6);
  assert_int_equal(io_self_loops(&E), 0);
  K2_Edges_free(&E);

  K2_ReadOptions_default(&opt);
  opt.transpose = true;
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  assert_int_equal(E.nvals, plain.nvals);
  assert_memory_equal(E.I, plain.J, plain.nvals * sizeof(uint32_t));
  assert_memory_equal(E.J, plain.I, plain.nvals * sizeof(uint32_t));
  K2_Edges_free(&E);

  K2_ReadOptions_default(&opt);
  opt.symmetrize = opt.drop_self_loops = opt.transpose = true;
  K2_ASSERT_OK(K2_Edges_read(&E, path, &opt));
  assert_int_equal(E.nvals, 2 * (13428 - 6));
  K2_Edges_free(&E);
  K2_Edges_free(&plain);
}

// METIS files end in .graph like BVGraph files: only a .properties file makes it BVGraph.
// Until the BVGraph reader is merged, the dispatch reaches a placeholder (GrB_NOT_IMPLEMENTED).
static void test_bvgraph_dispatch(void **state) {
  (void)state;
  const char *probe = k2_test_data_path("harvard500/harvard500.graph");
  if (probe == NULL) {
    skip();
    return;
  }
  char names[2][4096];
  snprintf(names[0], sizeof names[0], "%s", probe);                   // .graph, .properties beside
  snprintf(names[1], sizeof names[1], "%.*s", (int)(strlen(probe) - 6), probe);  // the basename
  for (int k = 0; k < 2; k++) {
    K2_Edges E;
    GrB_Info info = K2_Edges_read(&E, names[k], NULL);
    if (info == GrB_NOT_IMPLEMENTED) {
      print_message("BVGraph reader not built in yet: %s\n", K2_error_string());
      continue;
    }
    K2_ASSERT_OK(info);
    assert_int_equal(E.nrows, 500);
    assert_int_equal(E.nvals, 2636);
    K2_Edges_free(&E);
  }
}

// The shared list of real graphs (tests/support/k2_real_graphs.c) that the GPU tests and
// bench_gpu walk: with the data folder present, every entry must exist and read, or a typo
// there would silently shrink "every real graph" on the GPU machine.
static void test_real_graph_list(void **state) {
  (void)state;
  const char *dir = k2_real_graph_dir(K2_DATA_DIR);
  uint64_t edges = 0;
  for (size_t f = 0; f < k2_real_graph_count; f++) {
    const k2_real_graph *g = &k2_real_graph_list[f];
    K2_Edges E;
    memset(&E, 0, sizeof E);
    GrB_Info info = k2_real_graph_read(&E, dir, g);
    if (info != GrB_SUCCESS) {
      print_error("%s (%s): %s\n", g->name, g->path,
                  info == GrB_NO_VALUE ? "missing from the data folder" : K2_error_string());
      fail();
    }
    assert_true(E.nvals > 0);
    assert_true(E.nrows > 0 && E.ncols > 0);
    edges += E.nvals;
    K2_Edges_free(&E);
  }
  print_message("%zu real graphs, %llu edges in all\n", k2_real_graph_count,
                (unsigned long long)edges);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_real_counts),
      cmocka_unit_test(test_no_remap_uses_max_id),
      cmocka_unit_test(test_luxembourg_lower_and_symmetrize),
      cmocka_unit_test(test_options),
      cmocka_unit_test(test_bvgraph_dispatch),
      cmocka_unit_test(test_real_graph_list),
  };
  if (k2_test_data_path("SOURCES.md") == NULL) {
    printf("data folder absent (%s): skipping\n", K2_DATA_DIR);
    return K2_TEST_SKIP;
  }
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
