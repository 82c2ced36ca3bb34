// test_rows.c: the row-ordered 4x4 blocks of the last internal level (src/matrix/k2_rows.c),
// which the CUDA engine's row configuration keeps on the device, against the edge list itself.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "k2_oracle.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_rows.h"

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

// The blocks of A hold exactly the canonical list, in (row, column) order, every block non-empty.
static void check_blocks(const k2_coo_list *L, const K2_Format *fmt, const char *what) {
  k2_coo_list C;
  k2_coo_alloc(&C, L->nrows, L->ncols, L->nvals);
  memcpy(C.I, L->I, L->nvals * sizeof(uint32_t));
  memcpy(C.J, L->J, L->nvals * sizeof(uint32_t));
  k2_coo_canonical(&C);
  K2_Matrix A = k2_test_matrix(L, fmt);
  K2_ASSERT_OK(k2_matrix_wait(A));
  k2_view v;
  k2_tree_view(&v, &A->tree, 1.0);
  k2_row_blocks b;
  assert_int_equal(k2_row_blocks_build(&v, &b), 0);
  uint64_t *cells = malloc((C.nvals + 1) * sizeof(uint64_t));
  assert_true(cells != NULL);
  uint64_t m = 0;
  for (uint64_t k = 0; k < b.count; k++) {
    if (b.pattern[k] == 0) {
      print_error("%s: block %llu is empty\n", what, (unsigned long long)k);
      fail();
    }
    if (k > 0 && (b.row[k] < b.row[k - 1] || (b.row[k] == b.row[k - 1] && b.col[k] <= b.col[k - 1]))) {
      print_error("%s: block %llu (%u, %u) out of order after (%u, %u)\n", what,
                  (unsigned long long)k, b.row[k], b.col[k], b.row[k - 1], b.col[k - 1]);
      fail();
    }
    for (unsigned bit = 0; bit < 16; bit++) {
      if (!(b.pattern[k] & (1u << bit))) continue;
      const uint64_t r = 4 * (uint64_t)b.row[k] + bit / 4, c = 4 * (uint64_t)b.col[k] + bit % 4;
      assert_true(r < L->nrows && c < L->ncols);
      assert_true(m < C.nvals);
      cells[m++] = r << 32 | c;
    }
  }
  assert_int_equal(m, C.nvals);
  qsort(cells, m, sizeof *cells, cmp_u64);
  for (uint64_t k = 0; k < m; k++) {
    if (cells[k] != ((uint64_t)C.I[k] << 32 | C.J[k])) {
      print_error("%s: cell %llu is (%llu, %llu), the list has (%u, %u)\n", what,
                  (unsigned long long)k, (unsigned long long)(cells[k] >> 32),
                  (unsigned long long)(cells[k] & 0xFFFFFFFFu), C.I[k], C.J[k]);
      fail();
    }
  }
  // as many blocks as nodes of the last internal level
  if (v.n_internal > 0)
    assert_int_equal(b.count, v.level_start[v.levels] - v.level_start[v.levels - 1]);
  else
    assert_int_equal(b.count, 0);
  free(cells);
  k2_row_blocks_free(&b);
  assert_null(b.row);
  K2_Matrix_free(&A);
  k2_coo_free(&C);
}

static void test_random_shapes(void **state) {
  (void)state;
  // shapes whose sides are not multiples of 4, a single cell, long thin matrices
  const uint64_t shapes[][3] = {{1, 1, 1},       {3, 5, 7},        {8, 8, 30},
                                {300, 211, 5000}, {1000, 17, 3000}, {17, 1000, 3000},
                                {4097, 4099, 60000}, {100000, 100000, 50000}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int variant = 0; variant < 3; variant++) {
      k2_coo_list L;
      k2_rng rng = {1000 + s * 7 + (uint64_t)variant};
      k2_coo_random(&L, shapes[s][0], shapes[s][1], shapes[s][2], &rng);
      K2_Format fmt;
      K2_Format_default(&fmt);
      // with the bottom codes cached, from the top codes of a narrow top, from the default top
      fmt.cache_bottom_codes = variant == 0;
      fmt.top_max_log = variant == 1 ? 2 : fmt.top_max_log;
      char what[96];
      snprintf(what, sizeof what, "%llux%llu, %llu pairs, variant %d",
               (unsigned long long)shapes[s][0], (unsigned long long)shapes[s][1],
               (unsigned long long)shapes[s][2], variant);
      check_blocks(&L, &fmt, what);
      k2_coo_free(&L);
    }
}

// Rows of very different lengths: a dense row, a dense column, a band and the diagonal.
static void test_skewed_rows(void **state) {
  (void)state;
  const uint64_t n = 5003;
  k2_coo_list L = {n, n, 0, malloc(4 * n * sizeof(uint32_t)), malloc(4 * n * sizeof(uint32_t))};
  assert_true(L.I && L.J);
  for (uint64_t i = 0; i < n; i++) {
    L.I[L.nvals] = 2, L.J[L.nvals++] = (uint32_t)i;      // row 2: every column
    L.I[L.nvals] = (uint32_t)i, L.J[L.nvals++] = 4001;   // column 4001: every row
    L.I[L.nvals] = (uint32_t)i, L.J[L.nvals++] = (uint32_t)i;
    L.I[L.nvals] = (uint32_t)i, L.J[L.nvals++] = (uint32_t)((i * 7 + 3) % n);
  }
  K2_Format fmt;
  K2_Format_default(&fmt);
  check_blocks(&L, &fmt, "skewed");
  fmt.cache_bottom_codes = true;
  check_blocks(&L, &fmt, "skewed, bottom codes cached");
  k2_coo_free(&L);
}

// Empty matrices have no blocks; other leaf sizes are refused with a message.
static void test_empty_and_refused(void **state) {
  (void)state;
  k2_coo_list L = {10, 10, 0, malloc(sizeof(uint32_t)), malloc(sizeof(uint32_t))};
  assert_true(L.I && L.J);
  K2_Format fmt;
  K2_Format_default(&fmt);
  check_blocks(&L, &fmt, "empty");
  k2_coo_free(&L);
  k2_rng rng = {5};
  k2_coo_random(&L, 200, 200, 1000, &rng);
  fmt.leaf_log = 2;
  K2_Matrix A = k2_test_matrix(&L, &fmt);
  K2_ASSERT_OK(k2_matrix_wait(A));
  k2_view v;
  k2_tree_view(&v, &A->tree, 1.0);
  k2_row_blocks b;
  assert_int_equal(k2_row_blocks_build(&v, &b), GrB_NOT_IMPLEMENTED);
  assert_non_null(strstr(K2_error_string(), "2x2 leaves"));
  assert_null(b.row);
  assert_int_equal(b.count, 0);
  K2_Matrix_free(&A);
  k2_coo_free(&L);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_shapes),
      cmocka_unit_test(test_skewed_rows),
      cmocka_unit_test(test_empty_and_refused),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
