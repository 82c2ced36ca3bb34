// test_pruned.c: the OpenMP engine's traversal pruned by the input and the mask.
// SPDX-License-Identifier: Apache-2.0
//
// Products whose input holds a few entries (a BFS push) or whose mask allows a few outputs (a
// BFS pull) descend only the nodes whose input range holds an entry and whose output range
// holds an allowed position. Checked here: the results equal the reference engine's (which
// walks the whole tree), every cell by its bytes, for inputs of 0, 1, a few and 1/8 of the
// entries and masks allowing 0, 1, a few and 1/8 of the outputs, in both directions and for
// every monoid on INT64; and the pruning itself, by the internal nodes a product expands: one
// input entry expands exactly the non-empty nodes of its stripe (the blocks whose input range
// holds it, counted from the entry list), about 2 sqrt(entries) on a random matrix (fewer on a
// web graph, where a row's entries cluster), against millions in the tree.
#include "k2_test.h"

#include <stdio.h>
#include <string.h>

#include "cpu/k2_omp_plan.h"
#include "engine/k2_engine.h"
#include "k2_oracle.h"
#include "matrix/k2_matrix.h"

typedef struct {
  K2_Matrix A;
  k2_view v;
  k2_coo_list L;
} fixture;

static void fixture_make(fixture *f, uint64_t n, uint64_t nvals, uint64_t seed) {
  k2_rng rng = {seed};
  k2_coo_random(&f->L, n, n, nvals, &rng);
  f->A = k2_test_matrix(&f->L, NULL);
  K2_ASSERT_OK(k2_matrix_wait(f->A));
  k2_tree_view(&f->v, &f->A->tree, f->A->weight);
}

static void fixture_free(fixture *f) {
  K2_ASSERT_OK(K2_Matrix_free(&f->A));
  k2_coo_free(&f->L);
}

// Entries of row idx (by_row) or column idx of the list.
static uint64_t line_degree(const k2_coo_list *L, uint64_t idx, bool by_row) {
  uint64_t d = 0;
  for (uint64_t k = 0; k < L->nvals; k++) d += (by_row ? L->I[k] : L->J[k]) == idx;
  return d;
}

// The OpenMP engine (pruned where the flags are sparse) against the reference engine.
static void compare(const k2_view *v, k2_monoid mon, k2_mult mult, bool left, const uint8_t *xp,
                    const uint8_t *skip, const char *what) {
  const uint64_t nin = left ? v->nrows : v->ncols, nout = left ? v->ncols : v->nrows;
  int64_t *x = malloc(nin * sizeof *x), *y1 = malloc(nout * sizeof *y1), *y2 = malloc(nout * sizeof *y2);
  uint8_t *p1 = malloc(nout), *p2 = malloc(nout);
  assert_true(x && y1 && y2 && p1 && p2);
  for (uint64_t i = 0; i < nin; i++) x[i] = (int64_t)(i % 13) - 6;
  memset(y1, 0x5A, nout * sizeof *y1);
  memset(y2, 0x5A, nout * sizeof *y2);
  k2_product P = {.type = K2_T_INT64, .monoid = mon, .mult = mult, .w = 3, .index_base = 1,
                  .left = left, .batch = 1, .x = x, .x_present = xp, .y = y1, .y_present = p1,
                  .y_skip = skip};
  assert_int_equal(k2_omp_product(v, NULL, &P), 0);
  P.y = y2;
  P.y_present = p2;
  assert_int_equal(k2_ref_product(v, NULL, &P), 0);
  for (uint64_t o = 0; o < nout; o++) {
    if (skip != NULL && skip[o]) continue;  // masked out: either engine may leave it as it likes
    if (p1[o] != p2[o] || (p1[o] && mon != K2_MON_ANY && y1[o] != y2[o])) {
      fail_msg("%s: output %llu: OpenMP %lld (present %d), reference %lld (present %d)", what,
               (unsigned long long)o, (long long)y1[o], p1[o], (long long)y2[o], p2[o]);
    }
  }
  free(x);
  free(y1);
  free(y2);
  free(p1);
  free(p2);
}

static void test_results(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f, 5000, 60000, 11);
  const uint64_t n = 5000;
  uint8_t *xp = calloc(n, 1), *skip = malloc(n);
  assert_true(xp && skip);
  const uint64_t counts[] = {0, 1, 7, n / 8};
  const k2_monoid mons[] = {K2_MON_PLUS, K2_MON_MIN, K2_MON_MAX, K2_MON_ANY};
  const k2_mult mults[] = {K2_MUL_X, K2_MUL_X_TIMES_W, K2_MUL_X_PLUS_W, K2_MUL_CONST, K2_MUL_INDEX};
  k2_rng rng = {5};
  char what[160];
  long cases = 0;
  for (int left = 0; left < 2; left++)
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
      for (size_t co = 0; co < sizeof counts / sizeof counts[0] + 1; co++)
        for (size_t m = 0; m < 4; m++) {
          // inputs: counts[ci] present; outputs: counts[co] allowed, or no mask at all
          memset(xp, 0, n);
          for (uint64_t k = 0; k < counts[ci]; k++) xp[k2_rng_below(&rng, n)] = 1;
          const bool masked = co < sizeof counts / sizeof counts[0];
          memset(skip, 1, n);
          if (masked)
            for (uint64_t k = 0; k < counts[co]; k++) skip[k2_rng_below(&rng, n)] = 0;
          const k2_mult mult = mults[k2_rng_below(&rng, 5)];
          snprintf(what, sizeof what, "%s, %llu inputs, %s, monoid %d, multiply %d",
                   left ? "left" : "right", (unsigned long long)counts[ci],
                   masked ? "masked" : "no mask", (int)mons[m], (int)mult);
          compare(&f.v, mons[m], mult, left, xp, masked ? skip : NULL, what);
          cases++;
        }
  print_message("pruned traversal: %ld products equal to the reference engine's\n", cases);
  free(xp);
  free(skip);
  fixture_free(&f);
}

static void test_visits(void **state) {
  (void)state;
  fixture f;
  const uint64_t n = UINT64_C(1) << 16;
  fixture_make(&f, n, UINT64_C(1) << 19, 23);
  const uint32_t L = f.v.levels;
  uint8_t *xp = calloc(n, 1);
  int64_t *x = calloc(n, sizeof *x), *y = malloc(n * sizeof *y);
  assert_true(xp && x && y);
  for (int left = 0; left < 2; left++) {
    for (uint64_t idx = 100; idx < 100 + 5 * 997; idx += 997) {
      memset(xp, 0, n);
      xp[idx] = 1;
      x[idx] = 1;
      k2_product P = {.type = K2_T_INT64, .monoid = K2_MON_PLUS, .mult = K2_MUL_X, .left = left,
                      .batch = 1, .x = x, .x_present = xp, .y = y};
      k2_omp_pruned_expanded = UINT64_MAX;
      assert_int_equal(k2_omp_product(&f.v, NULL, &P), 0);
      const uint64_t deg = line_degree(&f.L, idx, left);
      const uint64_t want = k2_oracle_stripe_blocks(&f.L, f.v.side_log, 0, f.v.levels - 1, idx, left);
      print_message("%s %llu: %llu entries, %llu internal nodes expanded (the stripe has %llu; "
                    "the tree %llu, %u levels)\n", left ? "row" : "column", (unsigned long long)idx,
                    (unsigned long long)deg, (unsigned long long)k2_omp_pruned_expanded,
                    (unsigned long long)want, (unsigned long long)f.v.n_internal, L);
      assert_true(k2_omp_pruned_expanded != UINT64_MAX);  // the pruned traversal ran
      // exactly the nodes whose input range holds the entry: the stripe, not the tree
      assert_int_equal(k2_omp_pruned_expanded, want);
      assert_true(k2_omp_pruned_expanded * 100 < f.v.n_internal);
      x[idx] = 0;
    }
  }
  free(xp);
  free(x);
  free(y);
  fixture_free(&f);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_results),
      cmocka_unit_test(test_visits),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
