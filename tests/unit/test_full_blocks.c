// test_full_blocks.c: full blocks (K2_Format.full_blocks): nodes whose block is all ones are
// marked by signature 0 and not expanded.
// SPDX-License-Identifier: Apache-2.0
//
// test_dense_oracle: tiny matrices (empty, full, cliques aligned and not, at several levels and
// at the border, with noise; 2x2, 4x4 and 8x8 leaves) against a dense 0/1 array: the marked
// nodes are exactly the maximal all-ones aligned blocks inside the matrix (counted from the
// array), tuples, nvals, every entry, every row and column, CSR export and GrB_Matrix copy,
// equality with the plain tree, the plain expansion equal to the plain tree array by array,
// and INT64 products on the reference and OpenMP engines for every monoid and multiply (with
// inputs present or not, masks, listed outputs and batches) against the array.
// test_semirings: matrices with cliques and random edges, every native semiring through K2_mxv
// and K2_vxm on both CPU engines, dense and sparse inputs and masks (the pruned traversal):
// equal to the plain tree's reference result; one of them large enough for a multi-threaded
// plan with a full node above the task level; compressed leaves and cached bottom codes with
// full blocks.
// test_images: .k2 images: version 4 with flag bit 2 only with full blocks, read back equal and
// written back byte for byte; version/flag mismatches, a full mark in an image without full
// blocks, a full node across the border, a full root of a matrix smaller than its side, a
// wrong nvals, and byte flips: refused with GrB_INVALID_OBJECT, never a crash.
// test_expand_limit: the expansion for the CUDA engine is refused with a message when it would
// exceed K2_FULL_EXPAND_MAX_BYTES (a full 2^32 x 2^32 matrix).

#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cpu/k2_omp_plan.h"
#include "engine/k2_engine.h"
#include "k2_image.h"
#include "k2_native_semirings.h"
#include "k2_oracle.h"
#include "matrix/k2_matrix.h"

// ---- dense matrices ----------------------------------------------------------------------------

typedef struct {
  uint64_t nr, nc;
  uint8_t *d;  // row-major 0/1
} dense;

static dense dense_new(uint64_t nr, uint64_t nc) {
  dense D = {nr, nc, calloc(nr * nc + 1, 1)};
  assert_non_null(D.d);
  return D;
}

static void dense_block(dense *D, uint64_t r0, uint64_t c0, uint64_t h, uint64_t w) {
  for (uint64_t r = r0; r < r0 + h && r < D->nr; r++)
    for (uint64_t c = c0; c < c0 + w && c < D->nc; c++) D->d[r * D->nc + c] = 1;
}

static k2_coo_list dense_list(const dense *D) {
  uint64_t n = 0;
  for (uint64_t k = 0; k < D->nr * D->nc; k++) n += D->d[k];
  k2_coo_list L;
  k2_coo_alloc(&L, D->nr, D->nc, n);
  n = 0;
  for (uint64_t r = 0; r < D->nr; r++)
    for (uint64_t c = 0; c < D->nc; c++)
      if (D->d[r * D->nc + c]) {
        L.I[n] = (uint32_t)r;
        L.J[n++] = (uint32_t)c;
      }
  return L;
}

// Is the aligned block of side 2^s at (r0, c0) inside the matrix and all ones?
static bool dense_full(const dense *D, uint64_t r0, uint64_t c0, uint32_t s) {
  const uint64_t side = UINT64_C(1) << s;
  if (r0 + side > D->nr || c0 + side > D->nc) return false;
  for (uint64_t r = r0; r < r0 + side; r++)
    for (uint64_t c = c0; c < c0 + side; c++)
      if (!D->d[r * D->nc + c]) return false;
  return true;
}

// The maximal full aligned blocks larger than a leaf (the marks the tree must hold), per level.
static uint64_t dense_marks(const dense *D, uint32_t side_log, uint32_t leaf_log, uint64_t *per_level) {
  uint64_t total = 0;
  for (uint32_t t = 0; t < side_log - leaf_log; t++) {
    const uint32_t s = side_log - t;
    per_level[t] = 0;
    for (uint64_t r0 = 0; r0 < D->nr; r0 += UINT64_C(1) << s)
      for (uint64_t c0 = 0; c0 < D->nc; c0 += UINT64_C(1) << s) {
        if (!dense_full(D, r0, c0, s)) continue;
        // maximal: the parent block is not full
        const uint64_t ps = UINT64_C(1) << (s + 1);
        if (t > 0 && dense_full(D, r0 / ps * ps, c0 / ps * ps, s + 1)) continue;
        per_level[t]++;
        total++;
      }
  }
  return total;
}

static K2_Matrix build(const k2_coo_list *L, uint32_t leaf_log, bool full) {
  K2_Format f;
  K2_Format_default(&f);
  f.leaf_log = leaf_log;
  f.full_blocks = full;
  return k2_test_matrix(L, &f);
}

// ---- products on the engines' view, INT64 -------------------------------------------------------

static int64_t mult_of(k2_mult m, int64_t x, int64_t w, uint64_t s, int64_t base) {
  switch (m) {
    case K2_MUL_X: return x;
    case K2_MUL_X_TIMES_W: return x * w;
    case K2_MUL_X_PLUS_W: return x + w;
    case K2_MUL_CONST: return w;
    default: return (int64_t)s + base;
  }
}

// y over the dense array, for one vector; ANY is checked for validity by the caller.
static void dense_product(const dense *D, k2_monoid mon, k2_mult mult, bool left, const int64_t *x,
                          const uint8_t *xp, int64_t *y, uint8_t *yp) {
  const uint64_t nout = left ? D->nc : D->nr, nin = left ? D->nr : D->nc;
  for (uint64_t o = 0; o < nout; o++) {
    bool any = false;
    int64_t acc = 0;
    for (uint64_t s = 0; s < nin; s++) {
      const uint8_t e = left ? D->d[s * D->nc + o] : D->d[o * D->nc + s];
      if (!e || (xp && !xp[s])) continue;
      const int64_t v = mult_of(mult, x[s], 3, s, 1);
      if (!any) acc = v;
      else if (mon == K2_MON_PLUS) acc += v;
      else if (mon == K2_MON_MIN) acc = v < acc ? v : acc;
      else if (mon == K2_MON_MAX) acc = v > acc ? v : acc;
      any = true;
    }
    y[o] = acc;
    yp[o] = any;
  }
}

// Is v one contribution to output o?
static bool any_valid(const dense *D, k2_mult mult, bool left, const int64_t *x, const uint8_t *xp,
                      uint64_t o, int64_t v) {
  const uint64_t nin = left ? D->nr : D->nc;
  for (uint64_t s = 0; s < nin; s++) {
    const uint8_t e = left ? D->d[s * D->nc + o] : D->d[o * D->nc + s];
    if (e && (!xp || xp[s]) && mult_of(mult, x[s], 3, s, 1) == v) return true;
  }
  return false;
}

// One engine's product on v (with the given presence, mask and output list) against the array.
static void check_engine(const k2_view *v, const dense *D, int engine, k2_monoid mon, k2_mult mult,
                         bool left, const uint8_t *xp, const uint8_t *skip, bool listed,
                         const char *what) {
  const uint64_t nin = left ? D->nr : D->nc, nout = left ? D->nc : D->nr;
  int64_t *x = malloc((nin + 1) * 8), *y = malloc((nout + 1) * 8), *yo = malloc((nout + 1) * 8);
  uint8_t *p = calloc(nout + 1, 1), *po = malloc(nout + 1);
  uint64_t *list = malloc((nout + 1) * 8), count = K2_Y_DENSE, *xl = malloc((nin + 1) * 8), nxl = 0;
  assert_true(x && y && yo && p && po && list && xl);
  for (uint64_t i = 0; i < nin; i++) x[i] = (int64_t)((i * 7) % 11) - 5;
  for (uint64_t i = 0; i < nin; i++)
    if (xp && xp[i]) xl[nxl++] = i;
  memset(y, 0x5A, (nout + 1) * 8);
  k2_product P = {.type = K2_T_INT64, .monoid = mon, .mult = mult, .w = 3, .index_base = 1,
                  .left = left, .batch = 1, .x = x, .x_present = xp, .y = y, .y_present = p,
                  .y_skip = skip};
  if (xp != NULL) {
    P.x_list = xl;
    P.x_count = nxl;
  }
  if (listed) {
    P.y_list = list;
    P.y_count = &count;
  }
  const int rc = engine == 0 ? k2_ref_product(v, NULL, &P) : k2_omp_product(v, NULL, &P);
  assert_int_equal(rc, 0);
  dense_product(D, mon, mult, left, x, xp, yo, po);
  if (listed && count != K2_Y_DENSE) {  // the listed outputs: ascending, exactly the present ones
    uint64_t k = 0;
    for (uint64_t o = 0; o < nout; o++) {
      if (skip && skip[o]) continue;
      if (po[o]) {
        if (k >= count || list[k] != o) fail_msg("%s: output %llu not listed", what, (unsigned long long)o);
        k++;
      }
    }
    if (k != count) fail_msg("%s: %llu listed, %llu present", what, (unsigned long long)count, (unsigned long long)k);
    for (uint64_t i = 0; i < count; i++) p[list[i]] |= 2;  // where the engine wrote
    for (uint64_t o = 0; o < nout; o++) p[o] = (p[o] & 2) ? 1 : 0;
  }
  for (uint64_t o = 0; o < nout; o++) {
    if (skip && skip[o]) continue;
    if (p[o] != po[o]) fail_msg("%s: output %llu present %d, oracle %d", what, (unsigned long long)o, p[o], po[o]);
    if (!p[o]) continue;
    const bool ok = mon == K2_MON_ANY ? any_valid(D, mult, left, x, xp, o, y[o]) : y[o] == yo[o];
    if (!ok) fail_msg("%s: output %llu is %lld, oracle %lld", what, (unsigned long long)o, (long long)y[o], (long long)yo[o]);
  }
  free(x);
  free(y);
  free(yo);
  free(p);
  free(po);
  free(list);
  free(xl);
}

// A batch of 3 vectors (PLUS and MIN), each with its own presence, on both engines.
static void check_batch(const k2_view *v, const dense *D, bool left, const char *what) {
  const uint32_t B = 3;
  const uint64_t nin = left ? D->nr : D->nc, nout = left ? D->nc : D->nr;
  int64_t *x = malloc((nin * B + 1) * 8), *y = malloc((nout * B + 1) * 8), *x1 = malloc((nin + 1) * 8);
  int64_t *y1 = malloc((nout + 1) * 8);
  uint8_t *xp = malloc(nin * B + 1), *p = malloc(nout * B + 1), *xp1 = malloc(nin + 1), *p1 = malloc(nout + 1);
  assert_true(x && y && x1 && y1 && xp && p && xp1 && p1);
  for (uint64_t i = 0; i < nin * B; i++) {
    x[i] = (int64_t)((i * 5) % 9) - 4;
    xp[i] = (uint8_t)((i * 2654435761u) % 3 != 0);
  }
  const k2_monoid mons[2] = {K2_MON_PLUS, K2_MON_MIN};
  for (int m = 0; m < 2; m++)
    for (int engine = 0; engine < 2; engine++) {
      k2_product P = {.type = K2_T_INT64, .monoid = mons[m], .mult = K2_MUL_X, .w = 1, .left = left,
                      .batch = B, .x = x, .x_present = xp, .y = y, .y_present = p};
      assert_int_equal(engine == 0 ? k2_ref_product(v, NULL, &P) : k2_omp_product(v, NULL, &P), 0);
      for (uint32_t b = 0; b < B; b++) {
        for (uint64_t i = 0; i < nin; i++) {
          x1[i] = x[i * B + b];
          xp1[i] = xp[i * B + b];
        }
        dense_product(D, mons[m], K2_MUL_X, left, x1, xp1, y1, p1);
        for (uint64_t o = 0; o < nout; o++) {
          if (p[o * B + b] != p1[o] || (p1[o] && y[o * B + b] != y1[o]))
            fail_msg("%s: batch, engine %d, monoid %d, vector %u, output %llu", what, engine, m, b,
                     (unsigned long long)o);
        }
      }
    }
  free(x);
  free(y);
  free(x1);
  free(y1);
  free(xp);
  free(p);
  free(xp1);
  free(p1);
}

static void check_products(K2_Matrix A, const dense *D, const char *name) {
  k2_view v;
  K2_ASSERT_OK(k2_matrix_wait(A));
  k2_tree_view(&v, &A->tree, 1.0);
  const k2_monoid mons[] = {K2_MON_PLUS, K2_MON_MIN, K2_MON_MAX, K2_MON_ANY};
  const k2_mult mults[] = {K2_MUL_X, K2_MUL_X_TIMES_W, K2_MUL_X_PLUS_W, K2_MUL_CONST, K2_MUL_INDEX};
  char what[200];
  for (int left = 0; left < 2; left++) {
    const uint64_t nin = left ? D->nr : D->nc, nout = left ? D->nc : D->nr;
    uint8_t *xp = malloc(nin + 1), *skip = malloc(nout + 1);
    for (uint64_t i = 0; i < nin; i++) xp[i] = (uint8_t)(i % 9 == 1);  // sparse enough to prune
    for (uint64_t o = 0; o < nout; o++) skip[o] = (uint8_t)(o % 4 != 2);
    for (size_t m = 0; m < sizeof mons / sizeof mons[0]; m++)
      for (size_t u = 0; u < sizeof mults / sizeof mults[0]; u++)
        for (int engine = 0; engine < 2; engine++)
          for (int form = 0; form < 4; form++) {  // dense x; sparse x; mask; sparse x, mask, listed
            snprintf(what, sizeof what, "%s: %s, monoid %zu, mult %zu, engine %d, form %d", name,
                     left ? "left" : "right", m, u, engine, form);
            check_engine(&v, D, engine, mons[m], mults[u], left, form & 1 ? xp : NULL,
                         form >= 2 ? skip : NULL, form == 3, what);
          }
    snprintf(what, sizeof what, "%s: %s", name, left ? "left" : "right");
    check_batch(&v, D, left, what);
    free(xp);
    free(skip);
  }
}

// ---- queries and extraction -----------------------------------------------------------------------

static void check_queries(K2_Matrix A, const dense *D) {
  for (uint64_t r = 0; r < D->nr; r++)
    for (uint64_t c = 0; c < D->nc; c++) {
      bool e = false;
      K2_ASSERT_OK(K2_Matrix_isEntry(&e, A, r, c));
      assert_int_equal(e, D->d[r * D->nc + c]);
    }
  GrB_Index *buf = malloc((D->nr + D->nc + 1) * 8);
  for (uint64_t r = 0; r < D->nr; r++) {
    GrB_Index cnt = D->nc + 1;
    K2_ASSERT_OK(K2_Matrix_rowNeighbors(buf, &cnt, A, r));
    uint64_t k = 0;
    for (uint64_t c = 0; c < D->nc; c++)
      if (D->d[r * D->nc + c]) assert_int_equal(buf[k++], c);
    assert_int_equal(cnt, k);
  }
  for (uint64_t c = 0; c < D->nc; c++) {
    GrB_Index cnt = D->nr + 1;
    K2_ASSERT_OK(K2_Matrix_colNeighbors(buf, &cnt, A, c));
    uint64_t k = 0;
    for (uint64_t r = 0; r < D->nr; r++)
      if (D->d[r * D->nc + c]) assert_int_equal(buf[k++], r);
    assert_int_equal(cnt, k);
  }
  // the first neighbours only: a prefix of the line, and whether more follow
  for (int by_col = 0; by_col < 2; by_col++) {
    const uint64_t lines = by_col ? D->nc : D->nr, len = by_col ? D->nr : D->nc;
    for (uint64_t x = 0; x < lines; x++) {
      uint64_t deg = 0;
      for (uint64_t y = 0; y < len; y++) deg += D->d[by_col ? y * D->nc + x : x * D->nc + y];
      const uint64_t caps[5] = {0, 1, deg / 2, deg, deg + 1};
      for (int q = 0; q < 5; q++) {
        GrB_Index cnt = caps[q];
        bool more = false;
        if (by_col) K2_ASSERT_OK(K2_Matrix_colNeighborsFirst(buf, &cnt, &more, A, x));
        else K2_ASSERT_OK(K2_Matrix_rowNeighborsFirst(buf, &cnt, &more, A, x));
        assert_int_equal(cnt, caps[q] < deg ? caps[q] : deg);
        assert_int_equal(more, deg > caps[q]);
        uint64_t k = 0;
        for (uint64_t y = 0; y < len && k < cnt; y++)
          if (D->d[by_col ? y * D->nc + x : x * D->nc + y]) assert_int_equal(buf[k++], y);
        assert_int_equal(k, cnt);
      }
    }
  }
  free(buf);
  // CSR export
  GrB_Index apl = 0, ajl = 0;
  K2_ASSERT_OK(K2_Matrix_exportSize_CSR(&apl, &ajl, A));
  uint64_t *Ap = malloc((apl + 1) * 8), *Aj = malloc((ajl + 1) * 8);
  K2_ASSERT_OK(K2_Matrix_export_CSR_64(Ap, Aj, &apl, &ajl, A));
  assert_int_equal(apl, D->nr + 1);
  for (uint64_t r = 0; r < D->nr; r++) {
    uint64_t k = Ap[r];
    for (uint64_t c = 0; c < D->nc; c++)
      if (D->d[r * D->nc + c]) assert_int_equal(Aj[k++], c);
    assert_int_equal(k, Ap[r + 1]);
  }
  free(Ap);
  free(Aj);
  // the GraphBLAS copy
  GrB_Matrix G = NULL;
  K2_ASSERT_OK(K2_Matrix_toGrB(&G, A, GrB_BOOL));
  GrB_Index gnv = 0;
  K2_ASSERT_OK(GrB_Matrix_nvals(&gnv, G));
  uint64_t nv = 0;
  for (uint64_t k = 0; k < D->nr * D->nc; k++) nv += D->d[k];
  assert_int_equal(gnv, nv);
  for (uint64_t r = 0; r < D->nr; r++)
    for (uint64_t c = 0; c < D->nc; c++) {
      bool x = false;
      GrB_Info i = GrB_Matrix_extractElement_BOOL(&x, G, r, c);
      assert_int_equal(i == GrB_SUCCESS, D->d[r * D->nc + c]);
    }
  GrB_Matrix_free(&G);
}

// The expansion (what the CUDA engine uploads) is the plain tree, array by array.
static void check_expansion(K2_Matrix F, K2_Matrix P) {
  k2_tree e;
  K2_ASSERT_OK(k2_tree_expand_full(&e, &F->tree, &F->fmt));
  const k2_tree *p = &P->tree;
  assert_int_equal(e.n_internal, p->n_internal);
  assert_int_equal(e.n_leaves, p->n_leaves);
  assert_int_equal(e.nvals, p->nvals);
  assert_int_equal(e.n_full, 0);
  if (p->n_internal > 0) {
    assert_memory_equal(e.sig, p->sig, k2_tree_sig_words(p) * 8);
    assert_memory_equal(e.leaves, p->leaves, k2_tree_leaf_words(p) * 8);
    assert_memory_equal(e.level_start, p->level_start, (p->levels + 2) * 8);
  }
  K2_ASSERT_OK(k2_tree_check(&e));
  k2_tree_clear(&e);
}

static void check_case(const dense *D, uint32_t leaf_log, const char *name, bool products) {
  k2_coo_list L = dense_list(D);
  K2_Matrix F = build(&L, leaf_log, true), P = build(&L, leaf_log, false);
  K2_ASSERT_OK(k2_tree_check(&F->tree));
  // the marks: exactly the maximal full blocks of the array
  uint64_t per_level[64] = {0};
  const uint64_t marks = D->nr && D->nc ? dense_marks(D, F->tree.side_log, leaf_log, per_level) : 0;
  if (F->tree.n_full != marks)
    fail_msg("%s (leaf_log %u): %llu full nodes, the array has %llu maximal full blocks", name, leaf_log,
             (unsigned long long)F->tree.n_full, (unsigned long long)marks);
  k2_view v;
  k2_tree_view(&v, &F->tree, 1.0);
  k2_full_node *list = NULL;
  uint64_t n = 0;
  K2_ASSERT_OK(k2_full_list(&v, &list, &n));
  assert_int_equal(n, marks);
  uint64_t got[64] = {0};
  for (uint64_t i = 0; i < n; i++) {
    got[list[i].level]++;
    assert_true(dense_full(D, list[i].row, list[i].col, v.side_log - list[i].level));
  }
  free(list);
  for (uint32_t t = 0; t < v.levels; t++) assert_int_equal(got[t], per_level[t]);
  // the same matrix as the plain tree, and smaller or equal
  GrB_Index nv = 0;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, F));
  k2_coo_list canon = dense_list(D);
  assert_int_equal(nv, canon.nvals);
  k2_assert_same_pattern(F, &canon);
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, F, P));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, P, F));
  assert_true(eq);
  assert_true(k2_tree_core_bytes(&F->tree) <= k2_tree_core_bytes(&P->tree));
  K2_MemoryUsage u;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, F));
  assert_int_equal(u.full_nodes, marks);
  assert_int_equal(u.full_saved, k2_tree_core_bytes(&P->tree) - k2_tree_core_bytes(&F->tree));
  check_queries(F, D);
  check_expansion(F, P);
  if (products) check_products(F, D, name);
  // a copy, and edits: the tree is rebuilt with its marks
  K2_Matrix C = NULL;
  K2_ASSERT_OK(K2_Matrix_dup(&C, F));
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, C, P));
  assert_true(eq);
  if (D->nr > 0 && D->nc > 0) {
    K2_ASSERT_OK(K2_Matrix_removeElement(C, 0, 0));
    K2_ASSERT_OK(K2_Matrix_removeElement(P, 0, 0));
    K2_ASSERT_OK(K2_Matrix_setElement(C, D->nr - 1, D->nc - 1));
    K2_ASSERT_OK(K2_Matrix_setElement(P, D->nr - 1, D->nc - 1));
    K2_ASSERT_OK(K2_Matrix_isEqual(&eq, C, P));
    assert_true(eq);
    K2_ASSERT_OK(k2_tree_check(&C->tree));
  }
  K2_Matrix_free(&C);
  K2_Matrix_free(&F);
  K2_Matrix_free(&P);
  k2_coo_free(&L);
  k2_coo_free(&canon);
}

static void test_dense_oracle(void **state) {
  (void)state;
  k2_rng rng = {2024};
  const struct {
    uint64_t nr, nc;
  } shapes[] = {{1, 1}, {4, 4}, {5, 7}, {8, 8}, {13, 13}, {16, 16}, {32, 20}, {64, 64}, {33, 64}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++)
      for (int pattern = 0; pattern < 6; pattern++) {
        const uint64_t nr = shapes[s].nr, nc = shapes[s].nc;
        dense D = dense_new(nr, nc);
        switch (pattern) {
          case 0: break;                                   // empty
          case 1: dense_block(&D, 0, 0, nr, nc); break;    // full
          case 2:                                          // aligned cliques of several sizes
            dense_block(&D, 0, 0, 8, 8);
            dense_block(&D, 16, 16, 16, 16);
            dense_block(&D, 8, 0, 4, 4);
            dense_block(&D, 4, 12, 2, 2);
            break;
          case 3:  // unaligned blocks, one through the border
            dense_block(&D, 3, 5, 11, 9);
            dense_block(&D, nr > 6 ? nr - 6 : 0, nc > 10 ? nc - 10 : 0, 10, 10);
            break;
          case 4:  // a complete bipartite piece and noise
            dense_block(&D, 0, nc / 2, nr / 2, nc - nc / 2);
            for (int k = 0; k < 20; k++) D.d[k2_rng_below(&rng, nr) * nc + k2_rng_below(&rng, nc)] = 1;
            break;
          default:  // full but for one cell
            dense_block(&D, 0, 0, nr, nc);
            D.d[k2_rng_below(&rng, nr) * nc + k2_rng_below(&rng, nc)] = 0;
            break;
        }
        char name[80];
        snprintf(name, sizeof name, "%llux%llu pattern %d", (unsigned long long)nr, (unsigned long long)nc,
                 pattern);
        check_case(&D, leaf_log, name, nr * nc <= 64 * 64 && (leaf_log == 1 || pattern != 0));
        free(D.d);
      }
  // a full matrix of a padded side: the root itself is full
  dense D = dense_new(8, 8);
  dense_block(&D, 0, 0, 8, 8);
  k2_coo_list L = dense_list(&D);
  K2_Matrix F = build(&L, 1, true);
  assert_int_equal(F->tree.n_internal, 1);
  assert_int_equal(F->tree.n_leaves, 0);
  assert_int_equal(F->tree.n_full, 1);
  K2_Matrix_free(&F);
  k2_coo_free(&L);
  free(D.d);
}

// ---- every native semiring, through the API --------------------------------------------------------

static sr_entry SR[K2_NATIVE_SEMIRINGS_MAX];
static int n_sr;

static GrB_Vector make_u(GrB_Type t, uint64_t n, int form) {
  GrB_Vector u = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, t, n));
  for (uint64_t i = 0; i < n; i++) {
    if (form == 1 && (i * 2654435761u) % 50 != 0) continue;  // sparse: the pruned traversal
    K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, (double)((i * 40503u) % 97) / 8.0, i));
  }
  K2_ASSERT_OK(GrB_Vector_wait(u, GrB_MATERIALIZE));
  return u;
}

static GrB_Vector make_mask(uint64_t n) {
  GrB_Vector m = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&m, GrB_BOOL, n));
  for (uint64_t i = 0; i < n; i += 37) K2_ASSERT_OK(GrB_Vector_setElement_BOOL(m, true, i));
  K2_ASSERT_OK(GrB_Vector_wait(m, GrB_MATERIALIZE));
  return m;
}

static GrB_Vector product(K2_Matrix A, const sr_entry *s, GrB_Vector u, GrB_Vector mask, int dir,
                          K2_Engine e) {
  GrB_Index nr, nc;
  K2_ASSERT_OK(K2_Matrix_nrows(&nr, A));
  K2_ASSERT_OK(K2_Matrix_ncols(&nc, A));
  GrB_Vector w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, s->type, dir == 0 ? nr : nc));
  K2_ASSERT_OK(K2_set_engine(e));
  if (dir == 0) K2_ASSERT_OK(K2_mxv(w, mask, NULL, s->s, A, u, mask ? GrB_DESC_S : NULL));
  else if (dir == 1) K2_ASSERT_OK(K2_mxv(w, mask, NULL, s->s, A, u, mask ? GrB_DESC_ST0 : GrB_DESC_T0));
  else K2_ASSERT_OK(K2_vxm(w, mask, NULL, s->s, u, A, mask ? GrB_DESC_S : NULL));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  return w;
}

static void assert_same_vector(GrB_Vector a, GrB_Vector b, bool values, const char *what) {
  GrB_Index na = 0, nb = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&na, a));
  K2_ASSERT_OK(GrB_Vector_nvals(&nb, b));
  if (na != nb) fail_msg("%s: %llu entries plain, %llu full blocks", what, (unsigned long long)na, (unsigned long long)nb);
  GrB_Index *ia = malloc((na + 1) * 8), *ib = malloc((na + 1) * 8);
  double *xa = malloc((na + 1) * 8), *xb = malloc((na + 1) * 8);
  GrB_Index ka = na, kb = nb;
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ia, xa, &ka, a));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ib, xb, &kb, b));
  for (GrB_Index k = 0; k < na; k++)
    if (ia[k] != ib[k] || (values && xa[k] != xb[k]))
      fail_msg("%s: entry %llu: plain (%llu, %g), full blocks (%llu, %g)", what, (unsigned long long)k,
               (unsigned long long)ia[k], xa[k], (unsigned long long)ib[k], xb[k]);
  free(ia);
  free(ib);
  free(xa);
  free(xb);
}

static void compare_semirings(K2_Matrix P, K2_Matrix F, const char *name, bool all) {
  GrB_Index nr, nc;
  K2_ASSERT_OK(K2_Matrix_nrows(&nr, P));
  K2_ASSERT_OK(K2_Matrix_ncols(&nc, P));
  for (int si = 0; si < n_sr; si++) {
    if (!all && strcmp(SR[si].name, "PLUS_TIMES_FP64") != 0 && strcmp(SR[si].name, "MIN_PLUS_INT64") != 0 &&
        strcmp(SR[si].name, "LOR_LAND_BOOL") != 0)
      continue;
    for (int dir = 0; dir < 3; dir++)
      for (int form = 0; form < 3; form++) {  // dense u, sparse u, dense u with a mask
        GrB_Vector u = make_u(SR[si].type, dir == 0 ? nc : nr, form);
        GrB_Vector mask = form == 2 ? make_mask(dir == 0 ? nr : nc) : NULL;
        GrB_Vector want = product(P, &SR[si], u, mask, dir, K2_ENGINE_REFERENCE);
        for (int e = 0; e < 2; e++) {
          const K2_Engine eng = e == 0 ? K2_ENGINE_REFERENCE : K2_ENGINE_OPENMP;
          GrB_Vector got = product(F, &SR[si], u, mask, dir, eng);
          char what[200];
          snprintf(what, sizeof what, "%s: %s, %s, dir %d, form %d", name, SR[si].name, K2_engine_name(eng),
                   dir, form);
          assert_same_vector(want, got, SR[si].any == A_NONE, what);
          GrB_Vector_free(&got);
        }
        GrB_Vector_free(&want);
        GrB_Vector_free(&u);
        GrB_Vector_free(&mask);
      }
  }
}

// Random edges and cliques: aligned ones, unaligned ones, one at the border.
static void planted(k2_coo_list *L, uint64_t n, uint64_t noise, const uint64_t (*blocks)[3], int nb,
                    k2_rng *rng) {
  uint64_t total = noise;
  for (int b = 0; b < nb; b++) total += blocks[b][2] * blocks[b][2];
  k2_coo_alloc(L, n, n, total);
  uint64_t k = 0;
  for (uint64_t i = 0; i < noise; i++, k++) {
    L->I[k] = (uint32_t)k2_rng_below(rng, n);
    L->J[k] = (uint32_t)k2_rng_below(rng, n);
  }
  for (int b = 0; b < nb; b++)
    for (uint64_t r = 0; r < blocks[b][2]; r++)
      for (uint64_t c = 0; c < blocks[b][2]; c++) {
        if (blocks[b][0] + r >= n || blocks[b][1] + c >= n) continue;
        L->I[k] = (uint32_t)(blocks[b][0] + r);
        L->J[k++] = (uint32_t)(blocks[b][1] + c);
      }
  L->nvals = k;
}

static void test_semirings(void **state) {
  (void)state;
  n_sr = k2_native_semirings(SR);
  k2_rng rng = {77};
  {
    const uint64_t blocks[][3] = {{0, 0, 64}, {128, 256, 32}, {300, 41, 50}, {977, 981, 60}, {600, 600, 1}};
    k2_coo_list L;
    planted(&L, 1000, 6000, blocks, 5, &rng);
    for (uint32_t leaf_log = 1; leaf_log <= 2; leaf_log++) {
      K2_Matrix P = build(&L, leaf_log, false), F = build(&L, leaf_log, true);
      assert_true(F->tree.n_full > 0);
      K2_ASSERT_OK(K2_Matrix_setEdgeWeight(P, 2));
      K2_ASSERT_OK(K2_Matrix_setEdgeWeight(F, 2));
      char name[64];
      snprintf(name, sizeof name, "cliques 1000, leaf_log %u", leaf_log);
      compare_semirings(P, F, name, true);
      if (leaf_log == 2) {  // with compressed leaves too: the products' leaf cursor skips full nodes
        K2_Format fc;
        K2_Format_default(&fc);
        fc.leaf_log = 2;
        fc.compress_leaves = true;
        fc.full_blocks = true;
        K2_Matrix C = k2_test_matrix(&L, &fc);
        assert_non_null(C->tree.leaf_codes);
        assert_int_equal(C->tree.n_full, F->tree.n_full);
        K2_ASSERT_OK(K2_Matrix_setEdgeWeight(C, 2));
        compare_semirings(P, C, "cliques 1000, compressed 4x4 leaves", false);
        check_expansion(C, P);  // what the CUDA engine uploads: the leaves decoded
        K2_Matrix_free(&C);
      }
      {  // with the bottom codes cached: the OpenMP engine's paths from them would miss the marks
        K2_Format fb;
        K2_Format_default(&fb);
        fb.leaf_log = leaf_log;
        fb.cache_bottom_codes = true;
        fb.full_blocks = true;
        K2_Matrix B = k2_test_matrix(&L, &fb);
        assert_non_null(B->tree.bottom_codes);
        K2_ASSERT_OK(K2_Matrix_setEdgeWeight(B, 2));
        compare_semirings(P, B, "cliques 1000, bottom codes cached", false);
        k2_coo_list canon = L;
        k2_coo_alloc(&canon, L.nrows, L.ncols, L.nvals);
        memcpy(canon.I, L.I, L.nvals * 4);
        memcpy(canon.J, L.J, L.nvals * 4);
        k2_coo_canonical(&canon);
        k2_assert_same_pattern(B, &canon);  // the tuples read the bottom codes too
        k2_coo_free(&canon);
        K2_Matrix_free(&B);
      }
      K2_Matrix_free(&P);
      K2_Matrix_free(&F);
    }
    k2_coo_free(&L);
  }
  {
    // 30000 x 30000 (side 2^15), 60000 random edges: a multi-threaded plan's task level has
    // about 4096 nodes (level 6); the aligned 1024-clique is a full node of level 5, above it;
    // the others give full nodes inside the tasks and at the border
    const uint64_t blocks[][3] = {{1024, 2048, 1024}, {5000, 5003, 700}, {29000, 29300, 1000}};
    k2_coo_list L;
    planted(&L, 30000, 60000, blocks, 3, &rng);
    K2_Matrix P = build(&L, 1, false), F = build(&L, 1, true);
    k2_view v;
    k2_tree_view(&v, &F->tree, 1.0);
    k2_full_node *list;
    uint64_t n;
    K2_ASSERT_OK(k2_full_list(&v, &list, &n));
    bool level5 = false;
    for (uint64_t i = 0; i < n; i++) level5 |= list[i].level == 5 && list[i].row == 1024 && list[i].col == 2048;
    free(list);
    assert_true(level5);
    compare_semirings(P, F, "cliques 30000", false);
    // the pruned traversal's parallel paths too
    const uint64_t par = k2_omp_pruned_par_min;
    k2_omp_pruned_par_min = 1;
    compare_semirings(P, F, "cliques 30000, parallel pruned", false);
    k2_omp_pruned_par_min = par;
    K2_Matrix_free(&P);
    K2_Matrix_free(&F);
    k2_coo_free(&L);
  }
  k2_native_semirings_free();
}

// ---- images -------------------------------------------------------------------------------------

static void expect_refused(const uint8_t *b, GrB_Index size, const char *message) {
  K2_Matrix R = NULL;
  GrB_Info info = K2_Matrix_deserialize(&R, b, size);
  if (info != GrB_INVALID_OBJECT) fail_msg("%s: deserialize returned %d (%s)", message, (int)info, K2_error_string());
  assert_null(R);
  if (strstr(K2_error_string(), message) == NULL) fail_msg("expected \"%s\" in \"%s\"", message, K2_error_string());
}

static void test_images(void **state) {
  (void)state;
  k2_rng rng = {5};
  const uint64_t blocks[][3] = {{0, 0, 64}, {300, 41, 50}, {977, 981, 60}};
  k2_coo_list L;
  planted(&L, 1000, 3000, blocks, 3, &rng);
  for (int compress = 0; compress < 2; compress++) {
    K2_Format f;
    K2_Format_default(&f);
    f.leaf_log = compress ? 2 : 1;
    f.compress_leaves = compress;
    K2_Matrix P = k2_test_matrix(&L, &f);
    f.full_blocks = true;
    K2_Matrix F = k2_test_matrix(&L, &f);
    GrB_Index sp, sf;
    uint8_t *bp = k2_img_of(P, &sp), *bf = k2_img_of(F, &sf);
    assert_int_equal(k2_img_rd32(bp, H_VERSION), compress ? 3 : 2);  // without full blocks: as before
    assert_int_equal(k2_img_rd32(bf, H_VERSION), 4);
    assert_int_equal(k2_img_rd32(bf, H_FLAGS), compress ? 6 : 4);
    assert_true(sf < sp);
    K2_Matrix R = NULL;
    K2_ASSERT_OK(K2_Matrix_deserialize(&R, bf, sf));
    assert_true(R->fmt.full_blocks);
    assert_int_equal(R->tree.n_full, F->tree.n_full);
    bool eq = false;
    K2_ASSERT_OK(K2_Matrix_isEqual(&eq, R, P));
    assert_true(eq);
    GrB_Index sr;
    uint8_t *br = k2_img_of(R, &sr);  // written again: the same bytes
    assert_int_equal(sr, sf);
    assert_memory_equal(br, bf, sf);
    free(br);
    K2_Matrix_free(&R);
    // through a file too
    char path[256];
    snprintf(path, sizeof path, "%s/test_full_blocks_%d.k2", K2_BINARY_DIR, compress);
    K2_ASSERT_OK(K2_Matrix_save(F, path));
    K2_ASSERT_OK(K2_Matrix_load(&R, path));
    K2_ASSERT_OK(K2_Matrix_isEqual(&eq, R, P));
    assert_true(eq);
    K2_Matrix_free(&R);
    remove(path);
    // version and flags
    uint8_t *b = malloc(sf);
    memcpy(b, bf, sf);
    k2_img_wr32(b, H_FLAGS, k2_img_rd32(b, H_FLAGS) & ~4u);
    k2_img_rehash(b);
    expect_refused(b, sf, "version 4 image without the full-blocks flag");
    memcpy(b, bf, sf);
    k2_img_wr32(b, H_VERSION, 3);
    k2_img_rehash(b);
    expect_refused(b, sf, "unknown flags");
    memcpy(b, bf, sf);
    k2_img_wr32(b, H_VERSION, 5);
    k2_img_rehash(b);
    expect_refused(b, sf, "newer");
    // a full mark where the image does not allow one: version 2/3 with the tree's marks
    memcpy(b, bf, sf);
    k2_img_wr32(b, H_VERSION, compress ? 3 : 2);
    k2_img_wr32(b, H_FLAGS, k2_img_rd32(b, H_FLAGS) & ~4u);
    k2_img_rehash(b);
    expect_refused(b, sf, "empty signature");
    // nvals that the leaves and the full nodes do not make
    memcpy(b, bf, sf);
    k2_img_wr64(b, H_NVALS, k2_img_rd64(b, H_NVALS) - 1);
    k2_img_rehash(b);
    expect_refused(b, sf, "nvals");
    // byte flips: refused or (rarely) a valid tree, never a crash
    for (int k = 0; k < 400; k++) {
      memcpy(b, bf, sf);
      const uint64_t at = 320 + k2_rng_below(&rng, sf - 320);
      b[at] ^= (uint8_t)(1u << k2_rng_below(&rng, 8));
      if (k % 2 == 0) k2_img_rehash(b);
      K2_Matrix X = NULL;
      GrB_Info info = K2_Matrix_deserialize(&X, b, sf);
      assert_true(info == GrB_SUCCESS || info == GrB_INVALID_OBJECT);
      if (info == GrB_SUCCESS) {
        K2_ASSERT_OK(k2_tree_check(&X->tree));
        K2_Matrix_free(&X);
      }
    }
    free(b);
    free(bp);
    free(bf);
    K2_Matrix_free(&P);
    K2_Matrix_free(&F);
  }
  k2_coo_free(&L);
  // a full node across the border: an 8x8 matrix whose block at rows 0..3, columns 4..7 is full,
  // relabelled 8x6 (same side, same nvals): that node now crosses the border
  dense D = dense_new(8, 8);
  dense_block(&D, 0, 4, 4, 4);
  D.d[7 * 8 + 0] = 1;
  k2_coo_list L2 = dense_list(&D);
  K2_Matrix F = build(&L2, 1, true);
  assert_int_equal(F->tree.n_full, 1);
  GrB_Index s;
  uint8_t *b = k2_img_of(F, &s);
  k2_img_wr64(b, H_NCOLS, 6);
  k2_img_rehash(b);
  expect_refused(b, s, "crosses the border");
  free(b);
  K2_Matrix_free(&F);
  k2_coo_free(&L2);
  // a full root of a matrix that does not fill its padded side: its 64 entries exceed 7 x 8
  // (and with nvals lowered, the full root holds more than nvals)
  dense_block(&D, 0, 0, 8, 8);
  L2 = dense_list(&D);
  F = build(&L2, 1, true);
  assert_int_equal(F->tree.n_internal, 1);
  b = k2_img_of(F, &s);
  k2_img_wr64(b, H_NROWS, 7);
  k2_img_rehash(b);
  expect_refused(b, s, "exceeds 7 x 8");
  k2_img_wr64(b, H_NVALS, 56);
  k2_img_rehash(b);
  expect_refused(b, s, "hold more entries than nvals");
  free(b);
  K2_Matrix_free(&F);
  k2_coo_free(&L2);
  free(D.d);
}

// ---- the expansion's limit --------------------------------------------------------------------------

static void test_expand_limit(void **state) {
  (void)state;
  // a hand-made tree: the root of a 2^32 x 2^32 matrix, full (2^64 entries do not fit nvals:
  // the tree's nvals is only what the check would refuse; the expansion looks at the nodes)
  uint64_t sig = 0, level_start[34] = {0};
  for (int l = 1; l < 34; l++) level_start[l] = 1;
  k2_tree t;
  memset(&t, 0, sizeof t);
  t.nrows = t.ncols = UINT64_C(1) << 32;
  t.leaf_log = 1;
  t.side_log = 32;
  t.levels = 31;
  t.n_internal = 1;
  t.dir_log = 4;
  t.sig = &sig;
  t.level_start = level_start;
  t.full_blocks = true;
  t.n_full = 1;
  K2_Format f;
  K2_Format_default(&f);
  k2_tree e;
  assert_int_equal(k2_tree_expand_full(&e, &t, &f), GrB_OUT_OF_MEMORY);
  assert_non_null(strstr(K2_error_string(), "over the limit"));
  // a small full matrix expands
  t.nrows = t.ncols = 64;
  t.side_log = 6;
  t.levels = 5;
  t.nvals = 64 * 64;
  for (int l = 1; l < 34; l++) level_start[l] = 1;
  K2_ASSERT_OK(k2_tree_check(&t));
  K2_ASSERT_OK(k2_tree_expand_full(&e, &t, &f));
  assert_int_equal(e.n_leaves, 32 * 32);
  assert_int_equal(e.nvals, 64 * 64);
  K2_ASSERT_OK(k2_tree_check(&e));
  k2_tree_clear(&e);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dense_oracle),
      cmocka_unit_test(test_semirings),
      cmocka_unit_test(test_images),
      cmocka_unit_test(test_expand_limit),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
