// test_plain_view.c: the tree the CUDA engine is handed (k2_matrix_plain_view) for trees with
// full blocks, 4x4 or 8x8 leaves, plain or compressed: the same matrix as a plain tree of 2x2
// leaves. Checked two ways: every cell the view's descent reaches against the edge list, and,
// where the padded sides agree, array by array against the tree built with 2x2 leaves (the
// directory and the top codes included, which the view derives itself).
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>

#include "k2_oracle.h"
#include "matrix/k2_matrix.h"

// Mark every cell the view's descent reaches (through its directory) in d (nr x nc, row-major).
static void walk(const k2_view *v, uint64_t node, uint32_t level, uint64_t r0, uint64_t c0, uint8_t *d) {
  if (level == v->levels) {
    const uint64_t bits = k2_view_leaf(v, node - v->n_internal);
    const unsigned side = 1u << v->leaf_log;
    assert_int_not_equal(bits, 0);  // a stored leaf holds an entry
    for (unsigned r = 0; r < side; r++)
      for (unsigned c = 0; c < side; c++) {
        if (!((bits >> (r * side + c)) & 1)) continue;
        assert_true(r0 + r < v->nrows && c0 + c < v->ncols);
        d[(r0 + r) * v->ncols + c0 + c]++;
      }
    return;
  }
  const unsigned s = k2_view_sig(v, node);
  assert_int_not_equal(s, 0);  // no full marks in a plain tree
  const uint64_t half = UINT64_C(1) << (v->side_log - level - 1), first = k2_view_first_child(v, node);
  unsigned k = 0;
  for (unsigned b = 0; b < 4; b++)
    if ((s >> b) & 1) walk(v, first + k++, level + 1, r0 + (b >> 1) * half, c0 + (b & 1) * half, d);
}

static void check_cells(const k2_view *v, const k2_coo_list *canon, const char *what) {
  uint8_t *d = calloc(v->nrows * v->ncols + 1, 1);
  assert_non_null(d);
  if (v->n_internal > 0) walk(v, 0, 0, 0, 0, d);
  uint64_t set = 0;
  for (uint64_t k = 0; k < v->nrows * v->ncols; k++) {
    if (d[k] > 1) fail_msg("%s: cell %llu reached twice", what, (unsigned long long)k);
    set += d[k];
  }
  for (uint64_t k = 0; k < canon->nvals; k++) {
    if (d[(uint64_t)canon->I[k] * v->ncols + canon->J[k]] != 1)
      fail_msg("%s: entry (%u, %u) missing", what, canon->I[k], canon->J[k]);
  }
  assert_int_equal(set, canon->nvals);
  assert_int_equal(v->nvals, canon->nvals);
  free(d);
}

static void check_arrays(const k2_view *v, const k2_view *p, const char *what) {
  if (v->levels != p->levels || v->n_internal != p->n_internal || v->n_leaves != p->n_leaves)
    fail_msg("%s: %u levels, %llu internal nodes, %llu leaves; the 2x2 tree %u, %llu, %llu", what, v->levels,
             (unsigned long long)v->n_internal, (unsigned long long)v->n_leaves, p->levels,
             (unsigned long long)p->n_internal, (unsigned long long)p->n_leaves);
  assert_int_equal(v->leaf_log, 1);
  assert_null(v->leafc);
  assert_int_equal(v->n_full, 0);
  if (p->n_internal == 0) return;
  assert_memory_equal(v->level_start, p->level_start, (p->levels + 2) * sizeof(uint64_t));
  assert_memory_equal(v->sig, p->sig, (p->n_internal / 16) * sizeof(uint64_t));
  for (uint64_t q = 0; q < p->n_internal; q++) assert_int_equal(k2_view_sig(v, q), k2_view_sig(p, q));
  for (uint64_t q = 0; q < p->n_leaves; q++) assert_int_equal(k2_view_leaf(v, q), k2_view_leaf(p, q));
  assert_int_equal(v->dir_log, p->dir_log);
  assert_int_equal(v->dir_len, p->dir_len);
  for (uint64_t k = 0; k < p->dir_len; k++) assert_int_equal(k2_view_dir_sample(v, k), k2_view_dir_sample(p, k));
  assert_int_equal(v->top_level, p->top_level);
  assert_int_equal(v->top_count, p->top_count);
  assert_memory_equal(v->top_codes, p->top_codes, p->top_count * sizeof(uint64_t));
}

// A random list with a few all-ones rectangles (full blocks where they cover aligned blocks).
static void make_list(k2_coo_list *L, uint64_t nr, uint64_t nc, uint64_t scattered, uint64_t seed) {
  k2_rng rng = {seed};
  const uint64_t blocks = nr >= 24 && nc >= 24 ? 3 : 0, side = 16;
  k2_coo_random(L, nr, nc, scattered, &rng);
  k2_coo_list B;
  k2_coo_alloc(&B, nr, nc, L->nvals + blocks * side * side);
  memcpy(B.I, L->I, L->nvals * sizeof *B.I);
  memcpy(B.J, L->J, L->nvals * sizeof *B.J);
  uint64_t k = L->nvals;
  for (uint64_t b = 0; b < blocks; b++) {
    const uint64_t r0 = k2_rng_below(&rng, nr - side + 1), c0 = k2_rng_below(&rng, nc - side + 1);
    for (uint64_t r = 0; r < side; r++)
      for (uint64_t c = 0; c < side; c++) B.I[k] = (uint32_t)(r0 + r), B.J[k++] = (uint32_t)(c0 + c);
  }
  B.nvals = k;
  k2_coo_free(L);
  *L = B;
  k2_coo_canonical(L);
}

static void test_plain_view_of_every_format(void **state) {
  (void)state;
  const uint64_t shapes[][3] = {{1, 1, 1},     {3, 5, 6},       {7, 7, 20},      {16, 16, 0},
                                {64, 64, 300}, {100, 37, 500},  {37, 100, 900},  {257, 255, 3000},
                                {600, 600, 9000}, {1000, 333, 40000}};
  int compared = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    k2_coo_list L;
    make_list(&L, shapes[s][0], shapes[s][1], shapes[s][2], 1000 + s);
    K2_Format pf;
    K2_Format_default(&pf);
    K2_Matrix P = k2_test_matrix(&L, &pf);  // the plain 2x2 tree
    k2_view pv;
    K2_ASSERT_OK(k2_matrix_plain_view(P, &pv));  // its own view, nothing built
    assert_ptr_equal(pv.sig, P->tree.sig);
    for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++)
      for (int variant = 0; variant < 4; variant++) {
        const bool full = variant & 1, compress = (variant & 2) != 0;
        if (compress && leaf_log == 1) continue;
        K2_Format f;
        K2_Format_default(&f);
        f.leaf_log = leaf_log;
        f.full_blocks = full;
        f.compress_leaves = compress;
        f.cache_bottom_codes = variant == 3;
        K2_Matrix A = k2_test_matrix(&L, &f);
        char what[160];
        snprintf(what, sizeof what, "%llu x %llu, %llu entries, leaf_log %u%s%s",
                 (unsigned long long)L.nrows, (unsigned long long)L.ncols, (unsigned long long)L.nvals, leaf_log,
                 full ? ", full blocks" : "", compress ? ", compressed" : "");
        k2_view v;
        K2_ASSERT_OK(k2_matrix_plain_view(A, &v));
        check_cells(&v, &L, what);
        if (variant == 3 && v.n_internal > 0) assert_non_null(v.bottom_codes);
        if (A->tree.side_log == P->tree.side_log) {
          check_arrays(&v, &pv, what);
          compared++;
        }
        k2_view again;  // made once: the same arrays the second time
        K2_ASSERT_OK(k2_matrix_plain_view(A, &again));
        assert_ptr_equal(again.sig, v.sig);
        K2_ASSERT_OK(K2_Matrix_free(&A));
      }
    K2_ASSERT_OK(K2_Matrix_free(&P));
    k2_coo_free(&L);
  }
  printf("  plain views: every cell checked on 10 shapes; %d compared array by array with the 2x2 build\n",
         compared);
  assert_true(compared >= 40);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_plain_view_of_every_format)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
