// test_aux_sizes.c: the directory and the top codes are sized from the tree: together at most
// 5% of its signatures and leaves on generated graphs of every kind and size, explicit options
// honoured, products independent of the layout, and k2_tree_check on the new forms (no
// directory, no top codes, a compact directory).
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>

#include "k2_aux_check.h"
#include "k2_test.h"
#include "matrix/k2_matrix.h"

typedef enum { G_EMPTY, G_PAIRS, G_RMAT, G_GRID, G_WEB, G_UNIFORM } gen_kind;

typedef struct {
  const char *name;
  gen_kind kind;
  uint64_t a, b;  // sizes (nodes, scale, rows x cols, edges)
} gen_case;

static void generate(K2_Edges *E, const gen_case *g) {
  memset(E, 0, sizeof *E);
  switch (g->kind) {
    case G_EMPTY:
      E->nrows = g->a;
      E->ncols = g->b;
      break;
    case G_PAIRS: {  // a x a with the first b cells of the diagonal and the last column
      E->nrows = E->ncols = g->a;
      E->I = malloc((2 * g->b + 1) * sizeof(uint32_t));
      E->J = malloc((2 * g->b + 1) * sizeof(uint32_t));
      assert_true(E->I != NULL && E->J != NULL);
      for (uint64_t k = 0; k < g->b; k++) {
        E->I[E->nvals] = (uint32_t)k;
        E->J[E->nvals++] = (uint32_t)k;
        E->I[E->nvals] = (uint32_t)k;
        E->J[E->nvals++] = (uint32_t)(g->a - 1);
      }
      break;
    }
    case G_RMAT: {
      K2_RmatParams p;
      K2_RmatParams_default(&p, (uint32_t)g->a);
      K2_ASSERT_OK(K2_Gen_rmat(E, &p));
      break;
    }
    case G_GRID:
      K2_ASSERT_OK(K2_Gen_grid2d(E, (uint32_t)g->a, (uint32_t)g->b));
      break;
    case G_WEB: {
      K2_WebParams p;
      K2_WebParams_default(&p);
      K2_ASSERT_OK(K2_Gen_web(E, g->a, &p));
      break;
    }
    case G_UNIFORM:
      K2_ASSERT_OK(K2_Gen_uniform(E, g->a, g->b, 7));
      break;
  }
}

// The tree of E in format fmt (NULL: the default).
static K2_Matrix build(const K2_Edges *E, const K2_Format *fmt) {
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, E->nrows, E->ncols, fmt));
  K2_ASSERT_OK(K2_Matrix_build_32(A, E->I, E->J, E->nvals));
  return A;
}

static const gen_case cases[] = {
    {"empty 0 x 0", G_EMPTY, 0, 0},
    {"empty 1 x 1", G_EMPTY, 1, 1},
    {"empty 1000 x 700", G_EMPTY, 1000, 700},
    {"1 x 1 full", G_PAIRS, 1, 1},
    {"2 x 2, 2 entries", G_PAIRS, 2, 1},
    {"5 x 5, 6 entries", G_PAIRS, 5, 3},
    {"2^32 x 2^32, 200 entries", G_PAIRS, UINT64_C(1) << 32, 100},
    {"R-MAT 4", G_RMAT, 4, 0},
    {"R-MAT 8", G_RMAT, 8, 0},
    {"R-MAT 12", G_RMAT, 12, 0},
    {"R-MAT 16", G_RMAT, 16, 0},
    {"grid 10 x 10", G_GRID, 10, 10},
    {"grid 300 x 300", G_GRID, 300, 300},
    {"grid 1 x 5000", G_GRID, 1, 5000},
    {"web 1000", G_WEB, 1000, 0},
    {"web 100000", G_WEB, 100000, 0},
    {"uniform 10^5 nodes, 10^5 edges", G_UNIFORM, 100000, 100000},
    {"uniform 64 nodes, 4000 edges", G_UNIFORM, 64, 4000},
};

// Every case at every leaf size: within the budget, a valid tree; products (2x2 leaves, and
// every leaf size on the smaller graphs) equal across layouts.
static void test_generated_budget(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    K2_Edges E;
    generate(&E, &cases[c]);
    for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++) {
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.leaf_log = leaf_log;
      K2_Matrix A = build(&E, &fmt);
      char name[128];
      snprintf(name, sizeof name, "%s, %ux%u leaves", cases[c].name, 1u << leaf_log, 1u << leaf_log);
      k2_aux_check_budget(A, name);
      K2_MemoryUsage u;
      K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, A));
      if (leaf_log == 1)
        print_message("%-32s core %9llu B, directory %6llu B (S = %u%s), top %6llu B (level %u)\n",
                      cases[c].name, (unsigned long long)k2_aux_core_bytes(&u),
                      (unsigned long long)u.directory, 1u << A->tree.dir_log,
                      A->tree.dir_len == 0 ? ", implied" : A->tree.dir_lo ? ", compact" : "",
                      (unsigned long long)u.top, A->tree.top_level);
      if (E.nvals < 2000000 && (leaf_log == 1 || E.nvals < 100000) && E.nrows < (UINT64_C(1) << 32))
        k2_aux_check_products(A, &E, name);
      K2_ASSERT_OK(K2_Matrix_free(&A));
    }
    K2_Edges_free(&E);
  }
}

// The choices themselves: S = 256 in compact form wherever it fits, the top level within what
// is left and at most 2^16 nodes, nothing where 5% holds no word; explicit options as asked.
static void test_choices(void **state) {
  (void)state;
  K2_Edges E;
  const gen_case rmat = {"R-MAT 16", G_RMAT, 16, 0};
  generate(&E, &rmat);
  K2_Matrix A = build(&E, NULL);
  const k2_tree *t = &A->tree;
  assert_int_equal(t->dir_log, 8);
  assert_non_null(t->dir_lo);
  assert_int_equal(t->dir_len, (t->n_internal + 255) / 256);
  assert_true(t->top_level > 0 && t->top_count <= 65536);
  const uint64_t budget = k2_tree_core_bytes(t) / 20, dir = k2_dir_bytes(t->dir_len, true);
  assert_true(8 * t->top_count <= budget - dir);
  // the next level would not have fitted
  const uint64_t next = t->level_start[t->top_level + 2] - t->level_start[t->top_level + 1];
  assert_true(8 * next > budget - dir || next > 65536);
  K2_ASSERT_OK(K2_Matrix_free(&A));

  // explicit options are honoured, beyond the budget too
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.directory_log = 11;  // above K2_DIR_LO_MAX_LOG: plain 64-bit samples
  fmt.top_max_log = 16;
  A = build(&E, &fmt);
  assert_int_equal(A->tree.dir_log, 11);
  assert_null(A->tree.dir_lo);
  assert_int_equal(A->tree.dir_len, (A->tree.n_internal + 2047) / 2048);
  assert_int_equal(A->tree.top_count,
                   A->tree.level_start[A->tree.top_level + 1] - A->tree.level_start[A->tree.top_level]);
  assert_true(A->tree.top_count <= 65536);
  K2_ASSERT_OK(k2_tree_check(&A->tree));
  K2_ASSERT_OK(K2_Matrix_free(&A));
  fmt.directory_log = 4;
  fmt.top_max_log = 2;
  A = build(&E, &fmt);
  assert_int_equal(A->tree.dir_log, 4);
  assert_non_null(A->tree.dir_lo);
  assert_int_equal(A->tree.top_level, 1);  // levels 0 and 1 have 1 and 4 nodes
  assert_int_equal(A->tree.top_count, 4);
  K2_ASSERT_OK(k2_tree_check(&A->tree));
  K2_ASSERT_OK(K2_Matrix_free(&A));
  K2_Edges_free(&E);

  // invalid options
  fmt.directory_log = 3;
  assert_int_equal(K2_Matrix_new_format(&A, 10, 10, &fmt), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "neither 0"));
  fmt.directory_log = 31;
  assert_int_equal(K2_Matrix_new_format(&A, 10, 10, &fmt), GrB_INVALID_VALUE);
  fmt.directory_log = 0;
  fmt.top_max_log = 31;
  assert_int_equal(K2_Matrix_new_format(&A, 10, 10, &fmt), GrB_INVALID_VALUE);
  K2_Format_default(&fmt);
  assert_int_equal(fmt.directory_log, 0);
  assert_int_equal(fmt.top_max_log, 0);
}

// k2_tree_check on the new forms: a tree without a directory or top codes is valid (they only
// speed lookups up), a compact directory is checked sample by sample, and inconsistent
// descriptions are refused.
static void test_check_aux(void **state) {
  (void)state;
  K2_Edges E;
  const gen_case web = {"web 20000", G_WEB, 20000, 0};
  generate(&E, &web);
  K2_Matrix A = build(&E, NULL);
  K2_Edges_free(&E);
  const k2_tree *t = &A->tree;
  assert_true(t->dir_len > 16 && t->dir_lo != NULL && t->top_count > 0);
  K2_ASSERT_OK(k2_tree_check(t));
  k2_tree c;
  struct {
    const char *what;
    int change;
    const char *message;  // NULL: valid
  } changes[] = {
      {"no directory", 0, NULL},
      {"no top codes", 1, NULL},
      {"a compact sample off by one", 2, "directory entry 17"},
      {"a 64-bit sample off by one", 3, "directory entry 32"},
      {"compact beyond 16-bit offsets", 4, "compact directory"},
      {"a sample too many", 5, "directory entries"},
      {"top level without codes", 6, "no top codes but top level"},
      {"a top code off", 7, "top code 3"},
      {"dir_log below a word", 8, "dir_log 3"},
  };
  for (size_t k = 0; k < sizeof changes / sizeof changes[0]; k++) {
    K2_ASSERT_OK(k2_tree_copy(&c, t));
    switch (changes[k].change) {
      case 0:
        free(c.dir);
        free(c.dir_lo);
        c.dir = NULL;
        c.dir_lo = NULL;
        c.dir_len = 0;
        break;
      case 1:
        free(c.top_codes);
        c.top_codes = NULL;
        c.top_count = 0;
        c.top_level = 0;
        break;
      case 2: c.dir_lo[17]++; break;
      case 3: c.dir[2]++; break;
      case 4: c.dir_log = 11; break;
      case 5: c.dir_len++; break;
      case 6: c.top_count = 0; break;
      case 7: c.top_codes[3] ^= 1; break;
      case 8: c.dir_log = 3; break;
    }
    GrB_Info info = k2_tree_check(&c);
    if (changes[k].message == NULL) {
      K2_ASSERT_OK(info);
      // a view still finds first children and the top level
      k2_view v;
      k2_tree_view(&v, &c, 1.0);
      assert_true(v.dir_len >= 1 && v.top_count >= 1);
      for (uint64_t p = 0; p < c.n_internal; p += 97) {
        k2_view w;
        k2_tree_view(&w, t, 1.0);
        assert_int_equal(k2_view_first_child(&v, p), k2_view_first_child(&w, p));
      }
    } else if (info != GrB_INVALID_OBJECT || strstr(K2_error_string(), changes[k].message) == NULL) {
      print_error("%s: info %d, message \"%s\", expected \"%s\"\n", changes[k].what, (int)info,
                  K2_error_string(), changes[k].message);
      fail();
    }
    if (changes[k].change == 5) c.dir_len--;  // the arrays hold what they held
    k2_tree_clear(&c);
  }
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_generated_budget),
      cmocka_unit_test(test_choices),
      cmocka_unit_test(test_check_aux),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
