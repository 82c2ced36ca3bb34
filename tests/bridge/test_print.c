// test_print.c: K2_Matrix_print / K2_Matrix_fprint (the header parsed, the entry lines exact, the
// levels, the errors), GxB_print and GxB_fprint of the overlay on a K2_Matrix (and still on a
// GrB_Matrix), and GxB_set (GxB_BURBLE) turning on k2grb's burble line of a product.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "k2_message_rules.h"
#include "k2_test.h"

#include <k2grb/overlay.h>

typedef unsigned long long ull;

// What was written to file descriptor fd (1 or 2) between begin and end, as a malloc'd string.
typedef struct {
  int fd, saved;
  FILE *tmp;
} capture;
static void capture_begin(capture *c, int fd) {
  fflush(stdout);
  fflush(stderr);
  c->fd = fd;
  c->tmp = tmpfile();
  assert_non_null(c->tmp);
  c->saved = dup(fd);
  assert_true(c->saved >= 0);
  assert_true(dup2(fileno(c->tmp), fd) >= 0);
}
static char *capture_end(capture *c) {
  fflush(stdout);
  fflush(stderr);
  assert_true(dup2(c->saved, c->fd) >= 0);
  close(c->saved);
  fseek(c->tmp, 0, SEEK_END);
  long len = ftell(c->tmp);
  rewind(c->tmp);
  char *s = malloc((size_t)len + 1);
  size_t got = fread(s, 1, (size_t)len, c->tmp);
  s[got] = '\0';
  fclose(c->tmp);
  return s;
}

// What K2_Matrix_fprint wrote to a file.
static char *print_to_string(GrB_Info *info, K2_Matrix A, const char *name, int level) {
  FILE *f = tmpfile();
  assert_non_null(f);
  *info = K2_Matrix_fprint(A, name, (GxB_Print_Level)level, f);
  long len = ftell(f);
  rewind(f);
  char *s = malloc((size_t)len + 1);
  size_t got = fread(s, 1, (size_t)len, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

// The two header lines, parsed, against the matrix's own numbers.
static const char *check_header(const char *out, K2_Matrix A, const char *name) {
  ull nr, nc, nv, inodes, leaves, bytes;
  double w;
  unsigned levels, l1, l2;
  int used = 0;
  char fmt[160];
  if (name != NULL)
    snprintf(fmt, sizeof fmt, "\n  K2_Matrix %s: %%llu x %%llu, %%llu entries, edge weight %%lf%%n", name);
  else
    snprintf(fmt, sizeof fmt, "\n  K2_Matrix: %%llu x %%llu, %%llu entries, edge weight %%lf%%n");
  // %n before each newline: a newline in the format would also eat the next line's indent
  if (sscanf(out, fmt, &nr, &nc, &nv, &w, &used) != 4 || used == 0 || out[used] != '\n')
    fail_msg("header 1: '%s'", out);
  const char *p = out + used + 1;
  int used2 = 0;
  if (sscanf(p, "  k2-tree: %u levels, %ux%u leaves, %llu internal nodes, %llu leaves, %llu bytes%n",
             &levels, &l1, &l2, &inodes, &leaves, &bytes, &used2) != 6 || used2 == 0 ||
      p[used2] != '\n')
    fail_msg("header 2: '%s'", p);
  used2++;
  K2_MemoryUsage mu;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&mu, A));
  if (mu.leaf_patterns != 0) {  // compressed leaves: one more line, the vocabulary and the codes
    ull patterns, vocab, lbytes;
    int used3 = 0;
    if (sscanf(p + used2, "  leaves compressed: %llu distinct patterns (%llu bytes), %llu bytes with the codes%n",
               &patterns, &vocab, &lbytes, &used3) != 3 || used3 == 0 || p[used2 + used3] != '\n')
      fail_msg("header 3: '%s'", p + used2);
    assert_int_equal(patterns, mu.leaf_patterns);
    assert_int_equal(vocab, mu.leaf_vocabulary);
    assert_int_equal(lbytes, mu.leaf_bytes);
    used2 += used3 + 1;
  }
  GrB_Index x;
  K2_ASSERT_OK(K2_Matrix_nrows(&x, A));
  assert_int_equal(nr, x);
  K2_ASSERT_OK(K2_Matrix_ncols(&x, A));
  assert_int_equal(nc, x);
  K2_ASSERT_OK(K2_Matrix_nvals(&x, A));
  assert_int_equal(nv, x);
  double weight;
  K2_ASSERT_OK(K2_Matrix_getEdgeWeight(&weight, A));
  assert_true(w == weight);
  K2_MemoryUsage mem;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&mem, A));
  assert_int_equal(levels, mem.levels);
  assert_int_equal(l1, 1u << mem.leaf_log);
  assert_int_equal(l2, 1u << mem.leaf_log);
  assert_int_equal(inodes, mem.internal_nodes);
  assert_int_equal(leaves, mem.leaves);
  assert_int_equal(bytes, mem.total);
  return p + used2;
}

static K2_Matrix small_matrix(void) {
  // 4 x 5, given out of order: printed in row-major order
  GrB_Index I[] = {3, 0, 2, 0, 3, 1}, J[] = {4, 3, 2, 1, 0, 4};
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 4, 5));
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, 6));
  return A;
}

// The same entries in a tree with compressed 4x4 leaves.
static K2_Matrix small_matrix_compressed(void) {
  GrB_Index I[] = {3, 0, 2, 0, 3, 1}, J[] = {4, 3, 2, 1, 0, 4};
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.leaf_log = 2;
  fmt.compress_leaves = true;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, 4, 5, &fmt));
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, 6));
  return A;
}

// The identity of side 1024 with compressed 4x4 leaves: 256 leaves of one pattern, whose codes
// take fewer words than the bitmaps (the small matrix's do not: it keeps them plain).
static K2_Matrix identity_compressed(void) {
  enum { N = 1024 };
  GrB_Index *I = malloc(N * sizeof *I);
  assert_non_null(I);
  for (GrB_Index i = 0; i < N; i++) I[i] = i;
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.leaf_log = 2;
  fmt.compress_leaves = true;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, N, N, &fmt));
  K2_ASSERT_OK(K2_Matrix_build(A, I, I, N));
  free(I);
  return A;
}

static const char *small_entries =
    "    (0,1)\n    (0,3)\n    (1,4)\n    (2,2)\n    (3,0)\n    (3,4)\n";

static void test_print_levels(void **state) {
  (void)state;
  K2_Matrix A = small_matrix();
  GrB_Info info;
  char *s = print_to_string(&info, A, "A", GxB_SUMMARY);
  K2_ASSERT_OK(info);
  assert_string_equal(check_header(s, A, "A"), "");
  free(s);
  for (int level = GxB_SHORT; level <= GxB_COMPLETE_VERBOSE; level++) {
    s = print_to_string(&info, A, "A", level);
    K2_ASSERT_OK(info);
    assert_string_equal(check_header(s, A, "A"), small_entries);
    free(s);
  }
  s = print_to_string(&info, A, "A", GxB_SILENT);
  K2_ASSERT_OK(info);
  assert_string_equal(s, "");
  K2_Matrix C = small_matrix_compressed();  // too few leaves for codes: plain, the same entries
  free(s);
  s = print_to_string(&info, C, "C", GxB_SHORT);
  K2_ASSERT_OK(info);
  K2_MemoryUsage cm;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&cm, C));
  assert_int_equal(cm.leaf_patterns, 0);
  assert_string_equal(check_header(s, C, "C"), small_entries);
  K2_ASSERT_OK(K2_Matrix_free(&C));
  free(s);
  C = identity_compressed();  // compressed leaves: a third header line
  s = print_to_string(&info, C, "C", GxB_SUMMARY);
  K2_ASSERT_OK(info);
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&cm, C));
  assert_int_equal(cm.leaf_patterns, 1);
  assert_string_equal(check_header(s, C, "C"), "");
  K2_ASSERT_OK(K2_Matrix_free(&C));
  free(s);
  // no name: K2_Matrix_print
  FILE *f = tmpfile();
  K2_ASSERT_OK(K2_Matrix_print(A, GxB_SHORT, f));
  long len = ftell(f);
  rewind(f);
  s = calloc((size_t)len + 1, 1);
  assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  assert_string_equal(check_header(s, A, NULL), small_entries);
  free(s);
  // the edge weight, and pending edits are printed as every reader sees them
  K2_ASSERT_OK(K2_Matrix_setEdgeWeight(A, 0.123456789012345));
  K2_ASSERT_OK(K2_Matrix_setElement(A, 1, 0));
  K2_ASSERT_OK(K2_Matrix_removeElement(A, 3, 4));
  s = print_to_string(&info, A, "A", GxB_COMPLETE_VERBOSE);
  K2_ASSERT_OK(info);
  assert_non_null(strstr(s, "edge weight 0.123456789012345\n"));
  assert_string_equal(check_header(s, A, "A"),
                      "    (0,1)\n    (0,3)\n    (1,0)\n    (1,4)\n    (2,2)\n    (3,0)\n");
  free(s);
  s = print_to_string(&info, A, "A", GxB_SUMMARY);
  assert_non_null(strstr(s, "edge weight 0.123457\n"));
  free(s);
  K2_Matrix_free(&A);
}

// GxB_SHORT: the first 30 entries in row-major order, then "...". GxB_COMPLETE: all of them,
// as extractTuples lists them.
static void test_print_short_complete(void **state) {
  (void)state;
  const GrB_Index n = 1000, ne = 500;
  GrB_Index *I = malloc(ne * sizeof(GrB_Index)), *J = malloc(ne * sizeof(GrB_Index));
  k2_rng r = {99};
  for (GrB_Index k = 0; k < ne; k++) {
    I[k] = 200 + k2_rng_below(&r, 800);  // rows 0..199 empty: the listing skips them
    J[k] = k2_rng_below(&r, n);
  }
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, n, n));
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, ne));
  GrB_Index nv = 0;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, A));
  GrB_Index *TI = malloc(nv * sizeof(GrB_Index)), *TJ = malloc(nv * sizeof(GrB_Index));
  GrB_Index cnt = nv;
  K2_ASSERT_OK(K2_Matrix_extractTuples(TI, TJ, &cnt, A));
  size_t cap = 64 * (nv + 2);
  char *expect = malloc(cap);
  for (int level = GxB_SHORT; level <= GxB_COMPLETE; level++) {
    GrB_Index show = level == GxB_SHORT ? 30 : nv;
    size_t at = 0;
    for (GrB_Index k = 0; k < show; k++)
      at += (size_t)snprintf(expect + at, cap - at, "    (%llu,%llu)\n", (ull)TI[k], (ull)TJ[k]);
    if (show < nv) snprintf(expect + at, cap - at, "    ...\n");
    GrB_Info info;
    char *s = print_to_string(&info, A, "big", level);
    K2_ASSERT_OK(info);
    assert_string_equal(check_header(s, A, "big"), expect);
    free(s);
  }
  free(expect), free(TI), free(TJ), free(I), free(J);
  K2_Matrix_free(&A);
}

static void test_print_errors(void **state) {
  (void)state;
  K2_Matrix A = small_matrix();
  GrB_Info info;
  char why[256];
  const int bad[] = {-1, 6, 100};
  for (int k = 0; k < 3; k++) {
    char *s = print_to_string(&info, A, "A", bad[k]);
    assert_int_equal(info, GrB_INVALID_VALUE);
    assert_string_equal(s, "");
    assert_non_null(strstr(K2_error_string(), "print level"));
    if (!k2_message_ok(K2_error_string(), info, why, sizeof why)) fail_msg("%s", why);
    const char *msg;
    K2_ASSERT_OK(K2_Matrix_error(&msg, A));
    assert_non_null(strstr(msg, "print level"));
    free(s);
  }
  char *s = print_to_string(&info, NULL, "A", GxB_SHORT);
  assert_int_equal(info, GrB_NULL_POINTER);
  assert_string_equal(s, "");
  assert_non_null(strstr(K2_error_string(), "K2_Matrix_fprint"));
  free(s);
  // a handle that is not a live matrix
  uint64_t garbage[64] = {0};
  s = print_to_string(&info, (K2_Matrix)garbage, "A", GxB_SHORT);
  assert_int_equal(info, GrB_UNINITIALIZED_OBJECT);
  assert_string_equal(s, "");
  free(s);
  // a file that cannot be written
  FILE *ro = fopen("/dev/null", "r");
  assert_non_null(ro);
  assert_int_equal(K2_Matrix_print(A, GxB_COMPLETE, ro), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "writing"));
  fclose(ro);
  K2_Matrix_free(&A);
}

// The overlay: GxB_fprint and GxB_print take a K2_Matrix (the variable's name is printed) and
// still a GrB_Matrix.
static void test_overlay_print(void **state) {
  (void)state;
  K2_Matrix Adj = small_matrix();
  FILE *f = tmpfile();
  K2_ASSERT_OK(GxB_fprint(Adj, GxB_SHORT, f));
  long len = ftell(f);
  rewind(f);
  char *s = calloc((size_t)len + 1, 1);
  assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  assert_string_equal(check_header(s, Adj, "Adj"), small_entries);
  free(s);

  capture c;
  capture_begin(&c, 1);
  GrB_Info info = GxB_print(Adj, GxB_COMPLETE);
  s = capture_end(&c);
  K2_ASSERT_OK(info);
  assert_string_equal(check_header(s, Adj, "Adj"), small_entries);
  free(s);
  assert_int_equal(GxB_print(Adj, 9), GrB_INVALID_VALUE);

  GrB_Matrix G = NULL;
  K2_ASSERT_OK(K2_Matrix_toGrB(&G, Adj, NULL));
  capture_begin(&c, 1);
  info = GxB_print(G, GxB_SHORT);
  s = capture_end(&c);
  K2_ASSERT_OK(info);
  assert_non_null(strstr(s, "GraphBLAS"));
  assert_non_null(strstr(s, "G, 6 entries"));
  free(s);
  GrB_free(&G);
  GrB_free(&Adj);
}

// GxB_set (GxB_BURBLE, true) makes a product print k2grb's line on stderr; off again after
// GxB_set (GxB_BURBLE, false).
static void test_burble_through_gxb(void **state) {
  (void)state;
  K2_Matrix A = small_matrix();
  GrB_Vector u = NULL, w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, 5));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, 4));
  K2_ASSERT_OK(GrB_Vector_assign_FP32(u, NULL, NULL, 1.0f, GrB_ALL, 5, NULL));
  K2_ASSERT_OK(K2_set_burble(false));
  bool on = true;
  K2_ASSERT_OK(K2_get_burble(&on));
  assert_false(on);

  capture c;
  capture_begin(&c, 2);
  GrB_Info info = K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL);
  char *s = capture_end(&c);
  K2_ASSERT_OK(info);
  assert_null(strstr(s, "k2grb:"));
  free(s);

  K2_ASSERT_OK(GxB_set(GxB_BURBLE, true));
  K2_ASSERT_OK(K2_get_burble(&on));
  assert_true(on);
  capture_begin(&c, 2);
  info = K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL);
  s = capture_end(&c);
  K2_ASSERT_OK(GxB_set(GxB_BURBLE, false));
  K2_ASSERT_OK(info);
  // the engine that served it (CPU, or GPU under K2GRB_ENGINE=cuda) is named on the line
  if (strstr(s, "k2grb: K2_mxv: native ") == NULL || strstr(s, ": PLUS_TIMES_FP32, right product") == NULL)
    fail_msg("no burble line in '%s'", s);
  free(s);

  K2_ASSERT_OK(K2_get_burble(&on));
  assert_false(on);
  capture_begin(&c, 2);
  info = K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL);
  s = capture_end(&c);
  K2_ASSERT_OK(info);
  assert_null(strstr(s, "k2grb:"));
  free(s);
  GrB_free(&u);
  GrB_free(&w);
  K2_Matrix_free(&A);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_print_levels),  cmocka_unit_test(test_print_short_complete),
      cmocka_unit_test(test_print_errors),  cmocka_unit_test(test_overlay_print),
      cmocka_unit_test(test_burble_through_gxb),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
