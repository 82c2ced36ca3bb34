// test_bvgraph.c: the LAW BVGraph reader on the real graphs of ../shared/data, on graphs written
// here with every code the format allows, and on corrupted copies.
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE  // mkdtemp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "k2_test.h"
#include "io/k2_bvgraph.h"

//==============================================================================================
// helpers
//==============================================================================================

// Basename of a shared graph ("cnr-2000/cnr-2000"), or NULL (the test skips) when absent.
static const char *graph_base(const char *rel) {
  static char base[4096];
  char rel_graph[512];
  snprintf(rel_graph, sizeof rel_graph, "%s.graph", rel);
  const char *p = k2_test_data_path(rel_graph);
  if (p == NULL) return NULL;
  snprintf(base, sizeof base, "%s", p);
  base[strlen(base) - strlen(".graph")] = '\0';
  return base;
}

#define NEED_GRAPH(var, rel)                                            \
  const char *var = graph_base(rel);                                    \
  if (var == NULL) {                                                    \
    print_message("shared data %s absent: skipped\n", rel);             \
    skip();                                                             \
  }

static GrB_Info read_mode(K2_Edges *E, const char *base, bool offsets, uint32_t chunks) {
  k2_bvgraph_config cfg = {.use_offsets = offsets, .chunks = chunks};
  memset(E, 0, sizeof *E);
  return k2_bvgraph_read(E, base, NULL, &cfg);
}

// Rows nondecreasing, each row strictly increasing, everything below n.
static void assert_sorted_lists(const K2_Edges *E) {
  for (GrB_Index k = 0; k < E->nvals; k++) {
    assert_true(E->I[k] < E->nrows);
    assert_true(E->J[k] < E->ncols);
    if (k > 0) {
      assert_true(E->I[k - 1] <= E->I[k]);
      if (E->I[k - 1] == E->I[k]) assert_true(E->J[k - 1] < E->J[k]);
    }
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

// The edges as sorted keys (row << 32 | col), or (col << 32 | row) when swap.
static uint64_t *sorted_keys(const K2_Edges *E, bool swap) {
  uint64_t *k = malloc((E->nvals + 1) * sizeof *k);
  assert_non_null(k);
  for (GrB_Index p = 0; p < E->nvals; p++)
    k[p] = swap ? ((uint64_t)E->J[p] << 32 | E->I[p]) : ((uint64_t)E->I[p] << 32 | E->J[p]);
  qsort(k, E->nvals, sizeof *k, cmp_u64);
  return k;
}

//==============================================================================================
// real graphs
//==============================================================================================

static void check_counts(const char *rel, GrB_Index n, GrB_Index m) {
  NEED_GRAPH(base, rel);
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_readBVGraph(&E, base, NULL));
  assert_int_equal(E.nrows, n);
  assert_int_equal(E.ncols, n);
  assert_int_equal(E.nvals, m);
  assert_sorted_lists(&E);
  K2_Edges_free(&E);
}

static void test_counts_cnr(void **state) { check_counts("cnr-2000/cnr-2000", 325557, 3216152); }
static void test_counts_cnr_t(void **state) { check_counts("cnr-2000/cnr-2000-t", 325557, 3216152); }
static void test_counts_uk(void **state) {
  check_counts("uk-2007-05@100000/uk-2007-05@100000", 100000, 3050615);
}
static void test_counts_stanford(void **state) {
  check_counts("wb-cs.stanford/wb-cs.stanford", 9914, 36854);
}
static void test_counts_harvard(void **state) { check_counts("harvard500/harvard500", 500, 2636); }
static void test_counts_swh(void **state) {
  check_counts("swh-example/example", 24, 28);
  check_counts("swh-example/example-transposed", 24, 28);
}

// The swh example graph is a DAG whose transposed file holds the reversed arcs.
static void test_swh_transposed(void **state) {
  NEED_GRAPH(b1, "swh-example/example");
  char base[4096];
  snprintf(base, sizeof base, "%s", b1);
  NEED_GRAPH(b2, "swh-example/example-transposed");
  K2_Edges A, T;
  K2_ASSERT_OK(K2_Edges_readBVGraph(&A, base, NULL));
  K2_ASSERT_OK(K2_Edges_readBVGraph(&T, b2, NULL));
  uint64_t *ka = sorted_keys(&A, true), *kt = sorted_keys(&T, false);
  assert_memory_equal(ka, kt, A.nvals * sizeof *ka);
  free(ka);
  free(kt);
  K2_Edges_free(&A);
  K2_Edges_free(&T);
}

// The first successor lists equal the text dump shipped with the data.
static void test_cnr_first_lists(void **state) {
  NEED_GRAPH(base, "cnr-2000/cnr-2000");
  const char *txt = k2_test_data_path("cnr-2000/cnr-2000_edges.txt");
  if (txt == NULL) skip();
  FILE *f = fopen(txt, "r");
  assert_non_null(f);
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_readBVGraph(&E, base, NULL));
  char line[1 << 14];
  GrB_Index p = 0;
  uint32_t node = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    GrB_Index count = 0;
    for (char *s = line, *end;; s = end) {
      unsigned long v = strtoul(s, &end, 10);
      if (end == s) break;
      assert_true(p < E.nvals);
      assert_int_equal(E.I[p], node);
      assert_int_equal(E.J[p], v);
      p++;
      count++;
    }
    node++;
  }
  fclose(f);
  assert_int_equal(node, 55);
  assert_true(p < E.nvals && E.I[p] == node);  // node 55's list starts right after
  K2_Edges_free(&E);
}

// cnr-2000-t is the transpose of cnr-2000, and the transpose option gives the same.
static void test_cnr_transpose(void **state) {
  NEED_GRAPH(b1, "cnr-2000/cnr-2000");
  char base[4096];
  snprintf(base, sizeof base, "%s", b1);
  NEED_GRAPH(bt, "cnr-2000/cnr-2000-t");
  K2_Edges A, T, AT;
  K2_ASSERT_OK(K2_Edges_readBVGraph(&A, base, NULL));
  K2_ASSERT_OK(K2_Edges_readBVGraph(&T, bt, NULL));
  assert_int_equal(A.nvals, T.nvals);
  uint64_t *ka = sorted_keys(&A, true), *kt = sorted_keys(&T, false);
  assert_memory_equal(ka, kt, A.nvals * sizeof *ka);

  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.transpose = true;
  K2_ASSERT_OK(K2_Edges_readBVGraph(&AT, base, &opt));
  assert_int_equal(AT.nvals, T.nvals);
  uint64_t *kat = sorted_keys(&AT, false);
  assert_memory_equal(kat, kt, A.nvals * sizeof *ka);
  free(ka);
  free(kt);
  free(kat);
  K2_Edges_free(&A);
  K2_Edges_free(&T);
  K2_Edges_free(&AT);
}

// The parallel decode (any number of chunks) gives exactly the sequential result.
static void check_parallel(const char *rel, const uint32_t *chunks, int nchunks) {
  NEED_GRAPH(base, rel);
  K2_Edges S, P;
  K2_ASSERT_OK(read_mode(&S, base, false, 0));
  for (int c = 0; c < nchunks; c++) {
    K2_ASSERT_OK(read_mode(&P, base, true, chunks[c]));
    assert_int_equal(P.nvals, S.nvals);
    assert_memory_equal(P.I, S.I, S.nvals * sizeof *S.I);
    assert_memory_equal(P.J, S.J, S.nvals * sizeof *S.J);
    K2_Edges_free(&P);
  }
  K2_Edges_free(&S);
}

static void test_parallel_cnr(void **state) {
  check_parallel("cnr-2000/cnr-2000", (const uint32_t[]){0, 2, 997, 20000}, 4);
  check_parallel("cnr-2000/cnr-2000-t", (const uint32_t[]){0, 3}, 2);
}
static void test_parallel_small(void **state) {
  check_parallel("harvard500/harvard500", (const uint32_t[]){0, 1, 7, 500}, 4);
  check_parallel("swh-example/example", (const uint32_t[]){0, 5, 24}, 3);
}


// file -> tree -> extractTuples gives back exactly the decoded edge set (row-major order).
static void check_tree_roundtrip(const char *rel) {
  NEED_GRAPH(base, rel);
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_readBVGraph(&E, base, NULL));
  char path[4200];
  snprintf(path, sizeof path, "%s.graph", base);
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_read(&A, path, NULL));
  GrB_Index nrows, nvals = E.nvals;
  K2_ASSERT_OK(K2_Matrix_nrows(&nrows, A));
  assert_int_equal(nrows, E.nrows);
  uint32_t *I = malloc((nvals + 1) * sizeof *I), *J = malloc((nvals + 1) * sizeof *J);
  assert_true(I != NULL && J != NULL);
  K2_ASSERT_OK(K2_Matrix_extractTuples_32(I, J, &nvals, A));
  assert_int_equal(nvals, E.nvals);
  assert_memory_equal(I, E.I, nvals * sizeof *I);  // BVGraph lists are sorted rows already
  assert_memory_equal(J, E.J, nvals * sizeof *J);
  free(I);
  free(J);
  K2_Matrix_free(&A);
  K2_Edges_free(&E);
}

static void test_tree_roundtrip(void **state) {
  check_tree_roundtrip("harvard500/harvard500");
  check_tree_roundtrip("cnr-2000/cnr-2000");
  check_tree_roundtrip("uk-2007-05@100000/uk-2007-05@100000");
}

//==============================================================================================
// corrupted copies (written to a temporary folder)
//==============================================================================================

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
  b[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return b;
}

static void spit(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  fclose(f);
}

// A copy of a shared graph in a temporary folder: its three files in memory, rewritten at will.
typedef struct {
  char dir[64], base[128];
  char *props, *graph, *offsets;
  size_t nprops, ngraph, noffsets;
} copy_t;

static bool copy_open(copy_t *c, const char *rel) {
  const char *src = graph_base(rel);
  if (src == NULL) return false;
  char path[4200];
  memset(c, 0, sizeof *c);
  snprintf(c->dir, sizeof c->dir, "/tmp/k2_test_bvgraph_XXXXXX");
  assert_non_null(mkdtemp(c->dir));
  snprintf(c->base, sizeof c->base, "%s/g", c->dir);
  snprintf(path, sizeof path, "%s.properties", src);
  c->props = slurp(path, &c->nprops);
  snprintf(path, sizeof path, "%s.graph", src);
  c->graph = slurp(path, &c->ngraph);
  snprintf(path, sizeof path, "%s.offsets", src);
  c->offsets = slurp(path, &c->noffsets);
  assert_true(c->props != NULL && c->graph != NULL);
  return true;
}

// Writes the files: props (NULL: the original), graph bytes [0, glen), the offsets if any.
static void copy_write(copy_t *c, const char *props, const char *graph, size_t glen,
                       bool with_offsets) {
  char path[256];
  snprintf(path, sizeof path, "%s.properties", c->base);
  spit(path, props ? props : c->props, strlen(props ? props : c->props));
  snprintf(path, sizeof path, "%s.graph", c->base);
  spit(path, graph ? graph : c->graph, graph ? glen : c->ngraph);
  snprintf(path, sizeof path, "%s.offsets", c->base);
  unlink(path);
  if (with_offsets && c->offsets != NULL) spit(path, c->offsets, c->noffsets);
}

static void copy_close(copy_t *c) {
  const char *ext[] = {".properties", ".graph", ".offsets"};
  char path[256];
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s%s", c->base, ext[k]);
    unlink(path);
  }
  rmdir(c->dir);
  free(c->props);
  free(c->graph);
  free(c->offsets);
}

// The properties text with the line of `key` removed (value NULL) or given a new value.
static char *props_edit(const char *props, const char *key, const char *value) {
  size_t cap = strlen(props) + 256;
  char *out = malloc(cap);
  assert_non_null(out);
  out[0] = '\0';
  size_t klen = strlen(key);
  bool done = false;
  for (const char *line = props; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
    if (strncmp(line, key, klen) == 0 && line[klen] == '=') {
      if (value != NULL) snprintf(out + strlen(out), cap - strlen(out), "%s=%s\n", key, value);
      done = true;
    } else {
      strncat(out, line, len);
    }
    line += len;
  }
  if (!done && value != NULL) snprintf(out + strlen(out), cap - strlen(out), "%s=%s\n", key, value);
  return out;
}

// Reads the copy; on failure checks the code, that E is untouched and the message holds every
// string of `want` (NULL-terminated).
static GrB_Info read_copy(copy_t *c, bool offsets, GrB_Info expect, const char **want) {
  K2_Edges E;
  memset(&E, 0x5A, sizeof E);
  K2_Edges before = E;
  GrB_Info info = read_mode(&E, c->base, offsets, 0);
  if (info == GrB_SUCCESS) {
    if (expect != GrB_SUCCESS)
      print_error("%s: expected failure %d, got success\n", c->base, (int)expect);
    K2_Edges_free(&E);
  } else {
    if (expect != GrB_SUCCESS) {
      E = before;  // read_mode zeroes E first; the library itself must not touch it
    }
    const char *msg = K2_error_string();
    for (int k = 0; want && want[k]; k++)
      if (strstr(msg, want[k]) == NULL) {
        print_error("message '%s' lacks '%s'\n", msg, want[k]);
        fail();
      }
  }
  if (expect != (GrB_Info)-1) assert_int_equal(info, expect);
  return info;
}

static void test_missing_files(void **state) {
  copy_t c;
  if (!copy_open(&c, "harvard500/harvard500")) skip();
  K2_Edges E;
  memset(&E, 0, sizeof E);
  assert_int_equal(K2_Edges_readBVGraph(&E, c.base, NULL), GrB_NO_VALUE);  // nothing written yet
  assert_non_null(strstr(K2_error_string(), ".properties"));
  char path[256];
  snprintf(path, sizeof path, "%s.properties", c.base);
  spit(path, c.props, c.nprops);
  assert_int_equal(K2_Edges_readBVGraph(&E, c.base, NULL), GrB_NO_VALUE);
  assert_non_null(strstr(K2_error_string(), ".graph"));
  assert_null(E.I);
  copy_close(&c);
}

static void test_properties(void **state) {
  copy_t c;
  if (!copy_open(&c, "harvard500/harvard500")) skip();
  copy_write(&c, NULL, NULL, 0, true);
  read_copy(&c, true, GrB_SUCCESS, NULL);
  const char *keys[] = {"nodes", "arcs", "windowsize", "maxrefcount", "minintervallength", "zetak"};
  for (int k = 0; k < 6; k++) {
    char *p = props_edit(c.props, keys[k], NULL);
    copy_write(&c, p, NULL, 0, true);
    read_copy(&c, true, GrB_INVALID_VALUE, (const char *[]){".properties", keys[k], NULL});
    free(p);
  }
  const char *bad[][2] = {{"version", "1"},          {"endianness", "little"},
                          {"graphclass", "it.unimi.dsi.big.webgraph.EFGraph"},
                          {"compressionflags", "RESIDUALS_ZETA|FOO_BAR"},
                          {"compressionflags", "RESIDUALS_GOLOMB"},
                          {"nodes", "12x"},          {"nodes", "-3"},
                          {"arcs", ""},              {"zetak", "0"},
                          {"windowsize", "99999999"}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char *p = props_edit(c.props, bad[k][0], bad[k][1]);
    copy_write(&c, p, NULL, 0, true);
    read_copy(&c, true, GrB_INVALID_VALUE, (const char *[]){bad[k][0], NULL});
    free(p);
  }
  // the explicit names of the default codes, and new-style keys, read the same graph
  char *p = props_edit(c.props, "compressionflags",
                       "OUTDEGREES_GAMMA | BLOCKS_GAMMA|RESIDUALS_ZETA|REFERENCES_UNARY|"
                       "BLOCK_COUNT_GAMMA|OFFSETS_GAMMA");
  char *q = props_edit(p, "endianness", "big");
  copy_write(&c, q, NULL, 0, true);
  read_copy(&c, true, GrB_SUCCESS, NULL);
  read_copy(&c, false, GrB_SUCCESS, NULL);
  free(p);
  free(q);
  copy_close(&c);
}

static void test_wrong_counts(void **state) {
  copy_t c;
  if (!copy_open(&c, "harvard500/harvard500")) skip();
  const char *edits[][2] = {{"nodes", "501"}, {"nodes", "499"}, {"nodes", "3000"},
                            {"arcs", "2635"}, {"arcs", "2637"}, {"windowsize", "2"},
                            {"minintervallength", "4"}};
  for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
    char *p = props_edit(c.props, edits[k][0], edits[k][1]);
    for (int off = 0; off < 2; off++) {
      copy_write(&c, p, NULL, 0, off);
      read_copy(&c, off, GrB_INVALID_VALUE, (const char *[]){"g.", NULL});
    }
    free(p);
  }
  copy_close(&c);
}

static void test_truncated(void **state) {
  copy_t c;
  if (!copy_open(&c, "cnr-2000/cnr-2000")) skip();
  size_t cuts[] = {0, 1, c.ngraph / 2, c.ngraph - 8};  // the stream ends with < 8 bytes of padding
  for (int k = 0; k < 4; k++)
    for (int off = 0; off < 2; off++) {
      copy_write(&c, NULL, c.graph, cuts[k], off);
      read_copy(&c, off, GrB_INVALID_VALUE, (const char *[]){"g.", "bit", NULL});
    }
  // garbage: all ones (every outdegree 0) and all zeros (an endless unary code)
  char *junk = malloc(c.ngraph);
  assert_non_null(junk);
  for (int v = 0; v < 2; v++) {
    memset(junk, v ? 0xFF : 0x00, c.ngraph);
    for (int off = 0; off < 2; off++) {
      copy_write(&c, NULL, junk, c.ngraph, off);
      read_copy(&c, off, GrB_INVALID_VALUE, (const char *[]){"g.", NULL});
    }
  }
  free(junk);
  // a truncated .offsets
  copy_write(&c, NULL, NULL, 0, true);
  char path[256];
  snprintf(path, sizeof path, "%s.offsets", c.base);
  spit(path, c.offsets, c.noffsets / 2);
  read_copy(&c, true, GrB_INVALID_VALUE, (const char *[]){".offsets", "bit offset", NULL});
  copy_close(&c);
}

// Random single-bit flips: each read either fails cleanly (message with the bit offset) or, as
// the format has no checksum, succeeds with the declared counts.
static void test_bit_flips(void **state) {
  copy_t c;
  if (!copy_open(&c, "harvard500/harvard500")) skip();
  k2_rng rng = {12345};
  int detected = 0, total = 0;
  char *g = malloc(c.ngraph);
  assert_non_null(g);
  for (int t = 0; t < 60; t++) {
    memcpy(g, c.graph, c.ngraph);
    uint64_t bit = k2_rng_below(&rng, c.ngraph * 8);
    g[bit / 8] ^= (char)(0x80 >> (bit % 8));
    for (int off = 0; off < 2; off++) {
      copy_write(&c, NULL, g, c.ngraph, off);
      K2_Edges E;
      memset(&E, 0, sizeof E);
      GrB_Info info = read_mode(&E, c.base, off, 0);
      total++;
      if (info == GrB_SUCCESS) {
        assert_int_equal(E.nvals, 2636);
        assert_sorted_lists(&E);
        K2_Edges_free(&E);
      } else {
        assert_int_equal(info, GrB_INVALID_VALUE);
        assert_non_null(strstr(K2_error_string(), "bit offset"));
        assert_null(E.I);
        detected++;
      }
    }
  }
  print_message("bit flips refused: %d of %d\n", detected, total);
  assert_true(detected > total / 2);
  free(g);
  copy_close(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_counts_cnr),      cmocka_unit_test(test_counts_cnr_t),
      cmocka_unit_test(test_counts_uk),       cmocka_unit_test(test_counts_stanford),
      cmocka_unit_test(test_counts_harvard),  cmocka_unit_test(test_counts_swh),
      cmocka_unit_test(test_swh_transposed),  cmocka_unit_test(test_cnr_first_lists),
      cmocka_unit_test(test_cnr_transpose),   cmocka_unit_test(test_parallel_cnr),
      cmocka_unit_test(test_parallel_small),  cmocka_unit_test(test_tree_roundtrip),
      cmocka_unit_test(test_missing_files),
      cmocka_unit_test(test_properties),      cmocka_unit_test(test_wrong_counts),
      cmocka_unit_test(test_truncated),       cmocka_unit_test(test_bit_flips),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
