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
// Batches (test_batch_results, test_batch_visits): B = 2, 16 and 64 vectors, each with 0, 1, a
// few, half or all of its inputs present and a mask of none, a few, half or almost all outputs
// allowed per vector, given as flags only or with the index lists (x_list, y_list); equal to
// the reference engine pair by pair, the listed outputs exactly the indices with an entry;
// one entry in one vector of a batch of 16 expands exactly its stripe, as a single vector does.
// test_stripes_probe: the count on a sample of the tasks that chooses the stripe-pruned
// traversal where the cost model's estimate alone would walk the whole tree.
#include "k2_test.h"

#include <omp.h>
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
  // the depth-first descent forced (it expands exactly the stripe), then the planner's choice
  // (whichever pruned traversal it takes, no more than the stripe)
  for (int forced = 1; forced >= 0; forced -= 1)
  for (int left = 0; left < 2; left++) {
    k2_omp_traversal_forced = forced;
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
      print_message("%s%s %llu: %llu entries, %llu internal nodes expanded (the stripe has %llu; "
                    "the tree %llu, %u levels)\n", forced ? "depth first, " : "", left ? "row" : "column",
                    (unsigned long long)idx,
                    (unsigned long long)deg, (unsigned long long)k2_omp_pruned_expanded,
                    (unsigned long long)want, (unsigned long long)f.v.n_internal, L);
      assert_true(k2_omp_pruned_expanded != UINT64_MAX);  // the pruned traversal ran
      // exactly the nodes whose input range holds the entry: the stripe, not the tree
      if (forced) assert_int_equal(k2_omp_pruned_expanded, want);
      assert_true(k2_omp_pruned_expanded <= want);
      assert_true(k2_omp_pruned_expanded * 100 < f.v.n_internal);
      x[idx] = 0;
    }
  }
  k2_omp_traversal_forced = 0;
  free(xp);
  free(x);
  free(y);
  fixture_free(&f);
}

// One batched product on both engines: OpenMP (with the caller's lists where given) against
// the reference, every (index, vector) pair that is not skipped. With a list of outputs, the
// listed indices must be exactly those with a present pair, ascending.
static void compare_batch(const k2_view *v, k2_type type, k2_monoid mon, k2_mult mult, bool left,
                          uint32_t B, const void *x, const uint8_t *xp, const uint8_t *skip,
                          bool lists, const char *what) {
  const uint64_t nin = left ? v->nrows : v->ncols, nout = left ? v->ncols : v->nrows;
  const size_t ts = k2_type_size(type);
  uint8_t *y1 = malloc(nout * B * ts), *y2 = malloc(nout * B * ts);
  uint8_t *p1 = calloc(nout * B, 1), *p2 = malloc(nout * B);
  uint64_t *xl = malloc(nin * sizeof(uint64_t)), *yl = malloc(nout * sizeof(uint64_t));
  assert_true(y1 && y2 && p1 && p2 && xl && yl);
  uint64_t nx = 0;
  for (uint64_t i = 0; i < nin; i++) {
    bool any = false;
    for (uint32_t b = 0; b < B; b++) any |= xp[i * B + b] != 0;
    if (any) xl[nx++] = i;
  }
  memset(y1, 0x5A, nout * B * ts);
  uint64_t listed = K2_Y_DENSE;
  k2_product P = {.type = type, .monoid = mon, .mult = mult, .w = 1, .index_base = 1, .left = left,
                  .batch = B, .x = x, .x_present = xp, .y = y1, .y_present = p1, .y_skip = skip};
  if (lists) {
    P.x_list = xl;
    P.x_count = nx;
    P.y_list = yl;
    P.y_count = &listed;
  }
  assert_int_equal(k2_omp_product(v, NULL, &P), 0);
  P.x_list = NULL;
  P.y_list = NULL;
  P.y_count = NULL;
  P.y = y2;
  P.y_present = p2;
  assert_int_equal(k2_ref_product(v, NULL, &P), 0);
  uint64_t next = 0;  // position in the list
  for (uint64_t o = 0; o < nout; o++) {
    bool any1 = false;
    for (uint32_t b = 0; b < B; b++) any1 |= p1[o * B + b] != 0;
    if (listed != K2_Y_DENSE) {
      const bool in_list = next < listed && yl[next] == o;
      if (in_list != any1) fail_msg("%s: output %llu listed %d, present %d", what, (unsigned long long)o, in_list, any1);
      if (in_list) next++;
    }
    for (uint32_t b = 0; b < B; b++) {
      const uint64_t k = o * B + b;
      if (skip != NULL && skip[k]) continue;  // masked out: either engine may leave it as it likes
      const bool differ = mon != K2_MON_ANY && memcmp(y1 + k * ts, y2 + k * ts, ts) != 0;
      if (p1[k] != p2[k] || (p1[k] && differ)) {
        fail_msg("%s: output %llu vector %u: OpenMP present %d, reference present %d%s", what,
                 (unsigned long long)o, b, p1[k], p2[k], differ ? ", values differ" : "");
      }
    }
  }
  if (listed != K2_Y_DENSE) assert_int_equal(next, listed);
  free(y1);
  free(y2);
  free(p1);
  free(p2);
  free(xl);
  free(yl);
}

static void test_batch_results(void **state) {
  (void)state;
  fixture f;
  const uint64_t n = 3000;
  fixture_make(&f, n, 36000, 17);
  const uint32_t batches[] = {2, 16, 64};
  // per vector: inputs present (0, 1, a few, half, all) and outputs allowed (the same counts;
  // n + 1: no mask)
  const uint64_t counts[] = {0, 1, 5, n / 2, n};
  k2_rng rng = {9};
  char what[200];
  long cases = 0, pruned = 0;
  for (size_t bi = 0; bi < 3; bi++) {
    const uint32_t B = batches[bi];
    uint8_t *xp = malloc(n * B), *skip = malloc(n * B), *xb = malloc(n * B);
    int64_t *xi = malloc(n * B * sizeof *xi);
    assert_true(xp && skip && xb && xi);
    for (uint64_t k = 0; k < n * B; k++) {
      xb[k] = (uint8_t)(k2_rng_below(&rng, 3) != 0);  // false values too: LOR must see them
      xi[k] = (int64_t)k2_rng_below(&rng, 13) - 6;
    }
    for (int left = 0; left < 2; left++)
      for (size_t ci = 0; ci < 5; ci++)
        for (size_t co = 0; co < 6; co++)
          for (int kind = 0; kind < 3; kind++) {
            // vector b gets counts[(ci + b) % 5] inputs, except that the first case of each
            // count keeps every vector at it: a batch of all-sparse (or all-empty) vectors
            memset(xp, 0, n * B);
            memset(skip, 1, n * B);
            const bool mixed = kind != 0;
            for (uint32_t b = 0; b < B; b++) {
              const uint64_t cin = counts[mixed ? (ci + b) % 5 : ci];
              for (uint64_t k = 0; k < cin; k++) {
                const uint64_t i = cin == n ? k : k2_rng_below(&rng, n);
                xp[i * B + b] = 1;
              }
              if (co < 5) {
                const uint64_t cout = counts[mixed ? (co + b) % 5 : co];
                for (uint64_t k = 0; k < cout; k++) {
                  const uint64_t i = cout == n ? k : k2_rng_below(&rng, n);
                  skip[i * B + b] = 0;
                }
              }
            }
            const bool masked = co < 5, lists = kind == 2;
            const k2_mult mult = (k2_mult)k2_rng_below(&rng, 4);  // X .. CONST
            k2_omp_pruned_expanded = UINT64_MAX;
            snprintf(what, sizeof what, "batch %u, %s, %llu inputs, %s %llu, %s, LOR bool, multiply %d",
                     B, left ? "left" : "right", (unsigned long long)counts[ci], masked ? "allowed" : "no mask",
                     (unsigned long long)(masked ? counts[co] : n), mixed ? "mixed" : "alike", (int)mult);
            compare_batch(&f.v, K2_T_BOOL, K2_MON_LOR, mult, left, B, xb, xp, masked ? skip : NULL,
                          lists, what);
            pruned += k2_omp_pruned_expanded != UINT64_MAX;
            const k2_monoid mon = (k2_monoid)k2_rng_below(&rng, 3) == 0 ? K2_MON_PLUS
                                  : k2_rng_below(&rng, 2) ? K2_MON_MIN : K2_MON_ANY;
            snprintf(what, sizeof what, "batch %u, %s, %llu inputs, %s %llu, %s, INT64 monoid %d",
                     B, left ? "left" : "right", (unsigned long long)counts[ci], masked ? "allowed" : "no mask",
                     (unsigned long long)(masked ? counts[co] : n), mixed ? "mixed" : "alike", (int)mon);
            compare_batch(&f.v, K2_T_INT64, mon, (k2_mult)k2_rng_below(&rng, 5), left, B, xi, xp,
                          masked ? skip : NULL, lists, what);
            cases += 2;
          }
    free(xp);
    free(skip);
    free(xb);
    free(xi);
  }
  print_message("batched pruned traversal: %ld products equal to the reference engine's "
                "(%ld LOR products pruned)\n", cases, pruned);
  assert_true(pruned > 0);
  fixture_free(&f);
}

static void test_batch_visits(void **state) {
  (void)state;
  fixture f;
  const uint64_t n = UINT64_C(1) << 16;
  const uint32_t B = 16;
  fixture_make(&f, n, UINT64_C(1) << 19, 23);
  uint8_t *xp = calloc(n * B, 1), *x = calloc(n * B, 1), *y = malloc(n * B), *yp = malloc(n * B);
  uint8_t *line = malloc(n);
  assert_true(xp && x && y && yp && line);
  for (int left = 0; left < 2; left++) {
    for (uint64_t idx = 100; idx < 100 + 3 * 997; idx += 997) {
      // one entry, in vector idx % B: the batch expands the stripe of its index, no more
      const uint64_t at = idx * B + idx % B;
      xp[at] = x[at] = 1;
      k2_product P = {.type = K2_T_BOOL, .monoid = K2_MON_LOR, .mult = K2_MUL_X, .left = left,
                      .batch = B, .x = x, .x_present = xp, .y = y, .y_present = yp};
      k2_omp_pruned_expanded = UINT64_MAX;
      assert_int_equal(k2_omp_product(&f.v, NULL, &P), 0);
      const uint64_t want = k2_oracle_stripe_blocks(&f.L, f.v.side_log, 0, f.v.levels - 1, idx, left);
      print_message("batch of %u, %s %llu in vector %llu: %llu internal nodes expanded (the stripe "
                    "has %llu; the tree %llu)\n", B, left ? "row" : "column", (unsigned long long)idx,
                    (unsigned long long)(idx % B), (unsigned long long)k2_omp_pruned_expanded,
                    (unsigned long long)want, (unsigned long long)f.v.n_internal);
      assert_true(k2_omp_pruned_expanded != UINT64_MAX);
      assert_int_equal(k2_omp_pruned_expanded, want);
      // the output: exactly the entry's line (from the edge list), in its vector only
      memset(line, 0, n);
      for (uint64_t k = 0; k < f.L.nvals; k++)
        if ((left ? f.L.I[k] : f.L.J[k]) == idx) line[left ? f.L.J[k] : f.L.I[k]] = 1;
      for (uint64_t o = 0; o < n; o++)
        for (uint32_t b = 0; b < B; b++) {
          const bool want_present = b == idx % B && line[o];
          if ((yp[o * B + b] != 0) != want_present)
            fail_msg("output %llu vector %u: present %d", (unsigned long long)o, b, yp[o * B + b]);
        }
      xp[at] = x[at] = 0;
    }
  }
  free(xp);
  free(x);
  free(y);
  free(yp);
  free(line);
  fixture_free(&f);
}

// Every traversal a single vector can take, forced (k2_omp_traversal_forced: pruned depth first,
// the full traversal pruned by stripe summaries, the full traversal) and chosen by the cost
// model, against the reference engine: every type, monoid and multiply the engines run, inputs
// of 0, 1, a few, 1/8, half and all entries, masks of none, 0, 1, a few, 1/4, half and all
// allowed outputs, both directions, with and without the index lists; on a random matrix and
// on one whose entries lie near the diagonal (where the stripes prune whole regions).
static void forced_on(const fixture *f, uint64_t n, k2_rng *rng, long *cases) {
  uint8_t *xp = calloc(n, 1), *skip = malloc(n);
  double *xd = malloc(n * sizeof(double));
  assert_true(xp && skip && xd);
  const uint64_t ins[] = {0, 1, 7, n / 8, n / 2, n};
  const uint64_t outs[] = {0, 1, 9, n / 4, n / 2, n, UINT64_MAX};  // UINT64_MAX: no mask
  char what[200];
  for (int forced = 0; forced <= 3; forced++) {
    k2_omp_traversal_forced = forced;
    for (int left = 0; left < 2; left++)
      for (size_t ci = 0; ci < sizeof ins / sizeof ins[0]; ci++)
        for (size_t co = 0; co < sizeof outs / sizeof outs[0]; co++) {
          memset(xp, 0, n);
          if (ins[ci] == n) memset(xp, 1, n);
          for (uint64_t k = 0; k < ins[ci] && ins[ci] < n; k++) xp[k2_rng_below(rng, n)] = 1;
          const bool masked = outs[co] != UINT64_MAX;
          memset(skip, masked && outs[co] == n ? 0 : 1, n);
          for (uint64_t k = 0; masked && k < outs[co] && outs[co] < n; k++) skip[k2_rng_below(rng, n)] = 0;
          // one type, monoid and multiply per case, drawn among those the engines run
          k2_product probe = {.batch = 1};
          do {
            probe.type = (k2_type)k2_rng_below(rng, K2_T_COUNT);
            probe.monoid = (k2_monoid)k2_rng_below(rng, K2_MON_COUNT);
            probe.mult = (k2_mult)k2_rng_below(rng, K2_MUL_COUNT);
          } while (!k2_product_supported(&probe));
          const size_t ts = k2_type_size(probe.type);
          uint8_t *x = (uint8_t *)xd;
          for (uint64_t i = 0; i < n; i++) {
            const int64_t v = (int64_t)(i % 13) - 6;
            switch (probe.type) {
              case K2_T_BOOL: x[i] = (uint8_t)(v > 0); break;
              case K2_T_INT32: { const int32_t t = (int32_t)v; memcpy(x + i * ts, &t, ts); } break;
              case K2_T_INT64: memcpy(x + i * ts, &v, ts); break;
              case K2_T_FP32: { const float t = (float)v * 0.5f; memcpy(x + i * ts, &t, ts); } break;
              default: { const double t = (double)v * 0.25; memcpy(x + i * ts, &t, ts); } break;
            }
          }
          const bool lists = k2_rng_below(rng, 2) != 0;
          snprintf(what, sizeof what, "forced %d, %s, %llu inputs, %s %llu, type %d, monoid %d, multiply %d%s",
                   forced, left ? "left" : "right", (unsigned long long)ins[ci],
                   masked ? "allowed" : "no mask", (unsigned long long)(masked ? outs[co] : 0),
                   (int)probe.type, (int)probe.monoid, (int)probe.mult, lists ? ", lists" : "");
          compare_batch(&f->v, probe.type, probe.monoid, probe.mult, left, 1, x, xp,
                        masked ? skip : NULL, lists, what);
          (*cases)++;
        }
  }
  k2_omp_traversal_forced = 0;
  free(xp);
  free(skip);
  free(xd);
}

// The decoded last level made by one descent of the tree (a matrix that asks for it,
// K2_Matrix_setDecodedLevel) equals the one decoded from the bottom codes, entry for entry: with
// no plan, with a plan of either direction, on trees from a lone root block to one large enough
// for a team of threads, sides not multiples of 4. A tree with neither codes nor the request, or
// with 4x4 leaves, declines.
static void test_decoded_by_descent(void **state) {
  (void)state;
  const uint64_t shapes[][3] = {{1, 1, 1}, {3, 3, 5}, {7, 300, 500}, {513, 1025, 20000}, {40000, 30001, 150000}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    k2_rng rng = {900 + s};
    k2_coo_list L;
    k2_coo_random(&L, shapes[s][0], shapes[s][1], shapes[s][2], &rng);
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.cache_bottom_codes = true;
    K2_Matrix B = k2_test_matrix(&L, &fmt), A = k2_test_matrix(&L, NULL);
    K2_ASSERT_OK(k2_matrix_wait(A));
    K2_ASSERT_OK(k2_matrix_wait(B));
    k2_view vb, va;
    k2_tree_view(&vb, &B->tree, B->weight);
    k2_tree_view(&va, &A->tree, A->weight);
    uint64_t *want = NULL, *got = NULL, nw = 0, ng = 0;
    assert_int_equal(k2_omp_blocks_new(&va, NULL, &got, &ng), K2_DECLINED);  // not asked for
    assert_int_equal(k2_omp_blocks_new(&vb, NULL, &want, &nw), 0);
    va.decoded_level = true;
    for (int plan = 0; plan < 3; plan++) {
      k2_omp_plan *p = NULL;
      if (plan > 0) assert_int_equal(k2_omp_plan_new(&va, plan == 2, &p), 0);
      assert_int_equal(k2_omp_blocks_new(&va, p, &got, &ng), 0);
      assert_int_equal(ng, nw);
      for (uint64_t i = 0; i < nw; i++)
        if (got[i] != want[i]) {
          print_error("%llux%llu, plan %d: entry %llu: %llx (descent) vs %llx (codes)\n",
                      (unsigned long long)L.nrows, (unsigned long long)L.ncols, plan,
                      (unsigned long long)i, (unsigned long long)got[i], (unsigned long long)want[i]);
          fail();
        }
      free(got);
      k2_omp_plan_free(p);
    }
    if (s == sizeof shapes / sizeof shapes[0] - 1) {
      print_message("%llu internal nodes, %llu decoded blocks, %d threads\n",
                    (unsigned long long)va.n_internal, (unsigned long long)nw, omp_get_max_threads());
      assert_true(va.n_internal + va.n_leaves >= 32768);  // the team's size (k2_omp_team_size)
    }
    free(want);
    K2_Matrix_free(&A);
    K2_Matrix_free(&B);
    fmt.cache_bottom_codes = false;
    fmt.leaf_log = 2;
    K2_Matrix C = k2_test_matrix(&L, &fmt);
    K2_ASSERT_OK(k2_matrix_wait(C));
    k2_view vc;
    k2_tree_view(&vc, &C->tree, C->weight);
    vc.decoded_level = true;
    assert_int_equal(k2_omp_blocks_new(&vc, NULL, &got, &ng), K2_DECLINED);
    K2_Matrix_free(&C);
    k2_coo_free(&L);
  }
}

// ANY on the decoded last level: a tree with its bottom codes and the engine's decoded level in
// its state, the full traversal forced (which reads the level instead of descending), against the
// reference engine: every type and multiply, inputs of 1, a few, 1/8 and all entries, no mask or
// a quarter of the outputs allowed, both directions, sides not multiples of 4. Present outputs
// equal; a value is one contribution that ANY may pick: w for the constant multiply, and for x
// and the index a source that is present and holds the entry (x(i) = i + 1 identifies it).
static void test_any_decoded(void **state) {
  (void)state;
  const uint64_t n = 3001;
  k2_rng rng = {4242};
  k2_coo_list L;
  k2_coo_random(&L, n, n, 40000, &rng);
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = true;
  K2_Matrix A = k2_test_matrix(&L, &fmt);
  K2_ASSERT_OK(k2_matrix_wait(A));
  k2_view v;
  k2_tree_view(&v, &A->tree, A->weight);
  k2_omp_state st = {0};
  assert_int_equal(k2_omp_blocks_new(&v, NULL, &st.blocks, &st.blocks_count), 0);
  uint8_t *edge = calloc(n * n, 1), *xp = malloc(n), *skip = malloc(n), *p1 = malloc(n), *p2 = malloc(n);
  double *x = malloc(n * sizeof *x), *y1 = malloc(n * sizeof *y1), *y2 = malloc(n * sizeof *y2);
  assert_true(edge && xp && skip && p1 && p2 && x && y1 && y2);
  for (uint64_t k = 0; k < L.nvals; k++) edge[(uint64_t)L.I[k] * n + L.J[k]] = 1;
  const uint64_t ins[] = {1, 7, n / 8, n};
  long cases = 0;
  k2_omp_traversal_forced = 3;
  for (int t = 0; t < K2_T_COUNT; t++)
    for (int mult = 0; mult < K2_MUL_COUNT; mult++)
      for (int left = 0; left < 2; left++)
        for (size_t ci = 0; ci < sizeof ins / sizeof ins[0]; ci++)
          for (int masked = 0; masked < 2; masked++) {
            k2_product P = {.type = (k2_type)t, .monoid = K2_MON_ANY, .mult = (k2_mult)mult, .w = 1,
                            .index_base = 1, .left = left, .batch = 1};
            if (!k2_product_supported(&P)) continue;
            const size_t ts = k2_type_size(P.type);
            uint8_t *xb = (uint8_t *)x;
            for (uint64_t i = 0; i < n; i++) {
              const int64_t iv = (int64_t)i + 1;
              switch (P.type) {
                case K2_T_BOOL: xb[i] = 1; break;
                case K2_T_INT32: { const int32_t c = (int32_t)iv; memcpy(xb + i * ts, &c, ts); } break;
                case K2_T_INT64: memcpy(xb + i * ts, &iv, ts); break;
                case K2_T_FP32: { const float c = (float)iv; memcpy(xb + i * ts, &c, ts); } break;
                default: { const double c = (double)iv; memcpy(xb + i * ts, &c, ts); } break;
              }
            }
            memset(xp, ins[ci] == n, n);
            for (uint64_t k = 0; k < ins[ci] && ins[ci] < n; k++) xp[k2_rng_below(&rng, n)] = 1;
            memset(skip, masked, n);
            for (uint64_t k = 0; masked && k < n / 4; k++) skip[k2_rng_below(&rng, n)] = 0;
            P.x = x;
            P.x_present = xp;
            P.y_skip = masked ? skip : NULL;
            P.y = y1;
            P.y_present = p1;
            assert_int_equal(k2_omp_product(&v, &st, &P), 0);
            P.y = y2;
            P.y_present = p2;
            assert_int_equal(k2_ref_product(&v, NULL, &P), 0);
            const uint8_t *yb = (const uint8_t *)y1;
            for (uint64_t o = 0; o < n; o++) {
              if (masked && skip[o]) continue;
              if (p1[o] != p2[o])
                fail_msg("type %d, multiply %d, %s, %llu inputs%s: output %llu present %d, reference %d", t, mult,
                         left ? "left" : "right", (unsigned long long)ins[ci], masked ? ", masked" : "",
                         (unsigned long long)o, p1[o], p2[o]);
              if (!p1[o] || P.type == K2_T_BOOL) continue;
              double val = 0;
              switch (P.type) {
                case K2_T_INT32: { int32_t c; memcpy(&c, yb + o * ts, ts); val = c; } break;
                case K2_T_INT64: { int64_t c; memcpy(&c, yb + o * ts, ts); val = (double)c; } break;
                case K2_T_FP32: { float c; memcpy(&c, yb + o * ts, ts); val = c; } break;
                default: memcpy(&val, yb + o * ts, ts); break;
              }
              if (P.mult == K2_MUL_CONST) {
                assert_true(val == 1.0);
                continue;
              }
              if (P.mult != K2_MUL_X && P.mult != K2_MUL_INDEX) continue;  // (x times / plus w: w = 1)
              const uint64_t src = (uint64_t)val - 1;  // x(i) = i + 1; index + base 1
              const bool ok = src < n && xp[src] && (left ? edge[src * n + o] : edge[o * n + src]);
              if (!ok) fail_msg("type %d, multiply %d, %s: output %llu holds %g, no present source with the entry",
                                t, mult, left ? "left" : "right", (unsigned long long)o, val);
            }
            cases++;
          }
  k2_omp_traversal_forced = 0;
  print_message("ANY on the decoded level: %ld products checked\n", cases);
  assert_true(cases > 0);
  free(edge), free(xp), free(skip), free(p1), free(p2), free(x), free(y1), free(y2);
  free(st.blocks);
  k2_omp_plan_free(st.plan[0]);
  k2_omp_plan_free(st.plan[1]);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);
}

static void test_forced_traversals(void **state) {
  (void)state;
  long cases = 0;
  k2_rng rng = {77};
  fixture f;
  fixture_make(&f, 3000, 40000, 31);
  forced_on(&f, 3000, &rng, &cases);
  fixture_free(&f);
  // entries within 40 of the diagonal: most stripes of a sparse input or mask stay empty; over
  // 32768 leaves, so that the full traversals run on every thread
  const uint64_t n = 20000;
  k2_coo_list L;
  k2_coo_random(&L, n, n, 120000, &rng);
  for (uint64_t k = 0; k < L.nvals; k++) {
    const uint64_t off = L.J[k] % 81;
    L.J[k] = L.I[k] + off >= 40 && L.I[k] + off - 40 < n ? L.I[k] + off - 40 : L.I[k];
  }
  f.L = L;
  f.A = k2_test_matrix(&f.L, NULL);
  K2_ASSERT_OK(k2_matrix_wait(f.A));
  k2_tree_view(&f.v, &f.A->tree, f.A->weight);
  assert_true(f.v.n_leaves >= 32768);
  forced_on(&f, n, &rng, &cases);
  fixture_free(&f);
  print_message("forced traversals: %ld products equal to the reference engine's\n", cases);
}

// The stripe-pruned traversal's probe: the cost model's estimate takes the input's and the
// mask's stripes as independent of the tree, so where they are not it prices the pruned
// traversal at a large share of the tree and chooses the full one; given the matrix's task plan,
// the engine then counts the nodes on a sample of the tasks. A matrix whose entries lie within
// 40 of the diagonal, an input in the first half of the indices and allowed outputs in the
// second: without the plans (no sample) the full traversal runs, with them the stripes, which
// expand only the nodes near the middle. With input and outputs over the whole range, whichever
// runs, a count from the probe must be near what the stripes expand. Two threads, the plans the
// engine would cache, every result against the reference engine.
static void probe_case(const fixture *f, k2_omp_state *st, bool left, const uint8_t *xp, const uint8_t *skip,
                       const int64_t *x, k2_product_report *rep) {
  const uint64_t n = f->v.nrows;
  int64_t *y1 = malloc(n * sizeof *y1), *y2 = malloc(n * sizeof *y2);
  uint8_t *p1 = malloc(n), *p2 = malloc(n);
  assert_true(y1 && y2 && p1 && p2);
  memset(rep, 0, sizeof *rep);
  k2_product P = {.type = K2_T_INT64, .monoid = K2_MON_MIN, .mult = K2_MUL_X_PLUS_W, .w = 2,
                  .left = left, .batch = 1, .x = x, .x_present = xp, .y = y1, .y_present = p1,
                  .y_skip = skip, .report = rep};
  assert_int_equal(k2_omp_product(&f->v, st, &P), 0);
  P.y = y2;
  P.y_present = p2;
  P.report = NULL;
  assert_int_equal(k2_ref_product(&f->v, NULL, &P), 0);
  for (uint64_t o = 0; o < n; o++) {
    if (skip[o]) continue;
    if (p1[o] != p2[o] || (p1[o] && y1[o] != y2[o])) fail_msg("output %llu differs", (unsigned long long)o);
  }
  assert_non_null(rep->traversal);
  print_message("%s, %s: %s, estimate %.0f, expanded %llu of %llu internal nodes\n", st ? "plans" : "no plans",
                left ? "left" : "right", rep->traversal, rep->estimate, (unsigned long long)rep->expanded,
                (unsigned long long)f->v.n_internal);
  free(y1);
  free(y2);
  free(p1);
  free(p2);
}

static void test_stripes_probe(void **state) {
  (void)state;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);
  const uint64_t n = 20000;
  k2_rng rng = {91};
  fixture f;
  k2_coo_random(&f.L, n, n, 120000, &rng);
  for (uint64_t k = 0; k < f.L.nvals; k++) {
    const uint64_t off = f.L.J[k] % 81;
    f.L.J[k] = f.L.I[k] + off >= 40 && f.L.I[k] + off - 40 < n ? f.L.I[k] + off - 40 : f.L.I[k];
  }
  f.A = k2_test_matrix(&f.L, NULL);
  K2_ASSERT_OK(k2_matrix_wait(f.A));
  k2_tree_view(&f.v, &f.A->tree, f.A->weight);
  k2_omp_state st = {0};
  assert_int_equal(k2_omp_plan_new(&f.v, false, &st.plan[0]), 0);
  assert_int_equal(k2_omp_plan_new(&f.v, true, &st.plan[1]), 0);
  int64_t *x = malloc(n * sizeof *x);
  uint8_t *xp = malloc(n), *skip = malloc(n);
  assert_true(x && xp && skip);
  for (uint64_t i = 0; i < n; i++) x[i] = (int64_t)(i % 7) + 1;
  const char *stripes = "full, pruned by the stripes of the input and the mask";
  for (int apart = 1; apart >= 0; apart--) {
    for (int left = 0; left < 2; left++) {
      // apart: inputs in the first half, allowed outputs in the second; else both everywhere
      for (uint64_t i = 0; i < n; i++) {
        xp[i] = (uint8_t)((!apart || i < n / 2) && k2_rng_below(&rng, 2));
        skip[i] = (uint8_t)!((!apart || i >= n / 2) && k2_rng_below(&rng, 2));
      }
      k2_product_report rep;
      if (apart) {
        probe_case(&f, NULL, left, xp, skip, x, &rep);
        assert_string_equal(rep.traversal, "full");
      }
      probe_case(&f, &st, left, xp, skip, x, &rep);
      if (apart) {
        assert_string_equal(rep.traversal, stripes);
        assert_true(rep.expanded * 50 < f.v.n_internal);
      }
      if (strcmp(rep.traversal, stripes) == 0) {
        // the probe's count scales a sample: within a factor of 4 of what the run expanded
        assert_true(rep.estimate <= 4.0 * (double)rep.expanded + 64 && 4.0 * rep.estimate + 64 >= (double)rep.expanded);
      }
    }
  }
  free(x);
  free(xp);
  free(skip);
  k2_omp_plan_free(st.plan[0]);
  k2_omp_plan_free(st.plan[1]);
  fixture_free(&f);
  omp_set_num_threads(threads);
}

// The same products with the parallel paths taken at every size (levels split among threads,
// leaves by output block), on three threads so that the parts are uneven.
static void test_parallel_paths(void **state) {
  const uint64_t was = k2_omp_pruned_par_min;
  const int threads = omp_get_max_threads();
  k2_omp_pruned_par_min = 1;
  omp_set_num_threads(3);
  test_results(state);
  test_batch_results(state);
  test_visits(state);
  test_forced_traversals(state);
  omp_set_num_threads(threads);
  k2_omp_pruned_par_min = was;
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_results),
      cmocka_unit_test(test_visits),
      cmocka_unit_test(test_batch_results),
      cmocka_unit_test(test_batch_visits),
      cmocka_unit_test(test_forced_traversals),
      cmocka_unit_test(test_any_decoded),
      cmocka_unit_test(test_decoded_by_descent),
      cmocka_unit_test(test_parallel_paths),
      cmocka_unit_test(test_stripes_probe),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
