// k2_ref_product.c: the reference engine, the oracle of every other engine.
// SPDX-License-Identifier: Apache-2.0
//
// Written to be obviously correct, not fast, and independently of the OpenMP and CUDA engines:
// it computes every node's first child by its own prefix sum over all signatures (no directory,
// no top level, no bottom codes), descends the tree recursively (a full node, K2_Format
// .full_blocks: every cell of its block), and folds each contribution with scalar code that
// handles one value at a time in 64-bit integer or double precision, rounding to the product's
// type after every operation (exactly what float arithmetic gives).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/k2_engine.h"
#include "util/k2_alloc.h"
#include "util/k2_error.h"

typedef union {
  int64_t i;  // BOOL (0/1), INT32, INT64
  double f;   // FP32 (a float value), FP64
} k2_ref_value;

static bool k2_ref_is_float(k2_type t) { return t == K2_T_FP32 || t == K2_T_FP64; }

// Round a value to its type: wrap integers, round FP32.
static k2_ref_value k2_ref_round(k2_type t, k2_ref_value v) {
  switch (t) {
    case K2_T_BOOL: v.i = v.i != 0; break;
    case K2_T_INT32: v.i = (int32_t)(uint32_t)(uint64_t)v.i; break;
    case K2_T_INT64: break;
    case K2_T_FP32: v.f = (double)(float)v.f; break;
    case K2_T_FP64: break;
    default: break;
  }
  return v;
}

// GraphBLAS casts a double to an integer by truncation, NaN to 0, saturating at the bounds.
static int64_t k2_ref_double_to_int(double d, k2_type t) {
  double lo = t == K2_T_INT32 ? (double)INT32_MIN : (double)INT64_MIN;
  double hi = t == K2_T_INT32 ? (double)INT32_MAX : (double)INT64_MAX;
  if (isnan(d)) return 0;
  if (d <= lo) return t == K2_T_INT32 ? INT32_MIN : INT64_MIN;
  if (d >= hi) return t == K2_T_INT32 ? INT32_MAX : INT64_MAX;
  return (int64_t)d;
}

static k2_ref_value k2_ref_from_double(k2_type t, double d) {
  k2_ref_value v;
  if (k2_ref_is_float(t)) v.f = d;
  else if (t == K2_T_BOOL) v.i = d != 0;
  else v.i = k2_ref_double_to_int(d, t);
  return k2_ref_round(t, v);
}

static k2_ref_value k2_ref_load(k2_type t, const void *a, uint64_t k) {
  k2_ref_value v;
  switch (t) {
    case K2_T_BOOL: v.i = ((const uint8_t *)a)[k] != 0; break;
    case K2_T_INT32: v.i = ((const int32_t *)a)[k]; break;
    case K2_T_INT64: v.i = ((const int64_t *)a)[k]; break;
    case K2_T_FP32: v.f = ((const float *)a)[k]; break;
    default: v.f = ((const double *)a)[k]; break;
  }
  return v;
}

static void k2_ref_store(k2_type t, void *a, uint64_t k, k2_ref_value v) {
  switch (t) {
    case K2_T_BOOL: ((uint8_t *)a)[k] = (uint8_t)(v.i != 0); break;
    case K2_T_INT32: ((int32_t *)a)[k] = (int32_t)v.i; break;
    case K2_T_INT64: ((int64_t *)a)[k] = v.i; break;
    case K2_T_FP32: ((float *)a)[k] = (float)v.f; break;
    default: ((double *)a)[k] = v.f; break;
  }
}

static k2_ref_value k2_ref_identity(k2_type t, k2_monoid m) {
  k2_ref_value v = {0};
  bool fl = k2_ref_is_float(t);
  if (t == K2_T_BOOL) {
    v.i = m == K2_MON_MIN;  // MIN on BOOL is LAND: identity true
    return v;
  }
  switch (m) {
    case K2_MON_MIN:
      if (fl) v.f = INFINITY;
      else v.i = t == K2_T_INT32 ? INT32_MAX : INT64_MAX;
      break;
    case K2_MON_MAX:
      if (fl) v.f = -INFINITY;
      else v.i = t == K2_T_INT32 ? INT32_MIN : INT64_MIN;
      break;
    default: break;  // PLUS, LOR, ANY: zero
  }
  return v;
}

// The multiply: contribution of vector entry x (index s) through one edge of weight w.
static k2_ref_value k2_ref_multiply(const k2_product *P, k2_ref_value x, uint64_t s) {
  k2_type t = P->type;
  k2_ref_value w = k2_ref_from_double(t, P->w), r;
  switch (P->mult) {
    case K2_MUL_X: r = x; break;
    case K2_MUL_CONST: r = w; break;
    case K2_MUL_INDEX: r = k2_ref_from_double(t, (double)((int64_t)s + P->index_base)); break;
    case K2_MUL_X_TIMES_W:
      if (t == K2_T_BOOL) r.i = x.i && w.i;
      else if (k2_ref_is_float(t)) r.f = x.f * w.f;
      else r.i = (int64_t)((uint64_t)x.i * (uint64_t)w.i);
      break;
    default:  // K2_MUL_X_PLUS_W
      if (t == K2_T_BOOL) r.i = x.i || w.i;
      else if (k2_ref_is_float(t)) r.f = x.f + w.f;
      else r.i = (int64_t)((uint64_t)x.i + (uint64_t)w.i);
      break;
  }
  return k2_ref_round(t, r);
}

// The monoid.
static k2_ref_value k2_ref_add(k2_type t, k2_monoid m, k2_ref_value a, k2_ref_value b) {
  k2_ref_value r;
  bool fl = k2_ref_is_float(t);
  if (t == K2_T_BOOL) {
    if (m == K2_MON_MIN) r.i = a.i && b.i;
    else if (m == K2_MON_ANY) r.i = b.i;
    else r.i = a.i || b.i;  // PLUS, MAX, LOR on BOOL are LOR
    return r;
  }
  switch (m) {
    case K2_MON_PLUS:
      if (fl) r.f = a.f + b.f;
      else r.i = (int64_t)((uint64_t)a.i + (uint64_t)b.i);
      break;
    case K2_MON_MIN:
      if (fl) r.f = fmin(a.f, b.f);
      else r.i = a.i < b.i ? a.i : b.i;
      break;
    case K2_MON_MAX:
      if (fl) r.f = fmax(a.f, b.f);
      else r.i = a.i > b.i ? a.i : b.i;
      break;
    default:  // ANY: the latest contribution
      r = b;
      break;
  }
  return k2_ref_round(t, r);
}

typedef struct {
  const k2_view *A;
  const k2_product *P;
  const uint64_t *first_child;  // of every internal node
} k2_ref_walk;

static void k2_ref_cell(const k2_ref_walk *w, uint64_t r, uint64_t c) {
  const k2_product *P = w->P;
  uint64_t s = P->left ? r : c, o = P->left ? c : r;
  for (uint32_t b = 0; b < P->batch; b++) {
    uint64_t xs = s * P->batch + b, yo = o * P->batch + b;
    if (P->x_present != NULL && !P->x_present[xs]) continue;
    if (P->y_skip != NULL && P->y_skip[yo]) continue;
    k2_ref_value x = k2_ref_load(P->type, P->x, xs);
    k2_ref_value v = k2_ref_multiply(P, x, s);
    k2_ref_value y = k2_ref_load(P->type, P->y, yo);
    k2_ref_store(P->type, P->y, yo, k2_ref_add(P->type, P->monoid, y, v));
    if (P->y_present != NULL) P->y_present[yo] = 1;
  }
}

// Node p at level lvl covers rows [row, row + size) and columns [col, col + size).
static void k2_ref_visit(const k2_ref_walk *w, uint64_t p, uint32_t lvl, uint64_t row, uint64_t col) {
  const k2_view *A = w->A;
  uint64_t half = UINT64_C(1) << (A->side_log - lvl - 1);
  unsigned s = k2_view_sig(A, p);
  if (s == 0) {  // a full node (k2_view.h): every cell of its block, one at a time
    for (uint64_t r = 0; r < 2 * half; r++)
      for (uint64_t c = 0; c < 2 * half; c++) k2_ref_cell(w, row + r, col + c);
    return;
  }
  uint64_t child = w->first_child[p];
  for (unsigned b = 0; b < 4; b++) {
    if (!(s & (1u << b))) continue;
    uint64_t r = row + ((b >> 1) ? half : 0), c = col + ((b & 1) ? half : 0);
    if (lvl + 1 < A->levels) {
      k2_ref_visit(w, child, lvl + 1, r, c);
    } else {
      uint64_t d = UINT64_C(1) << A->leaf_log;
      uint64_t bits = k2_view_leaf(A, child - A->n_internal);
      for (uint64_t cell = 0; cell < A->leaf_bits; cell++)
        if ((bits >> cell) & 1) k2_ref_cell(w, r + cell / d, c + cell % d);
    }
    child++;
  }
}

int k2_ref_product(const k2_view *A, void *state, const k2_product *P) {
  (void)state;  // none: the oracle derives everything per product
  if (!k2_product_supported(P)) return K2_DECLINED;
  uint64_t ny = (P->left ? A->ncols : A->nrows) * P->batch;
  // the child offsets first: without memory for them, y stays as it was
  uint64_t *first_child = NULL;
  if (A->n_internal > 0) {
    first_child = k2_malloc(A->n_internal * sizeof(uint64_t));
    if (first_child == NULL)
      K2_FAIL(GrB_OUT_OF_MEMORY, "reference engine: not enough memory for the offsets of %llu nodes",
              (unsigned long long)A->n_internal);
  }
  k2_ref_value id = k2_ref_identity(P->type, P->monoid);
  for (uint64_t k = 0; k < ny; k++) k2_ref_store(P->type, P->y, k, id);
  if (P->y_present != NULL) memset(P->y_present, 0, ny);
  if (A->n_internal == 0) return 0;
  uint64_t next = 1;  // the root is node 0; its children follow
  for (uint64_t p = 0; p < A->n_internal; p++) {
    first_child[p] = next;
    next += (uint64_t)__builtin_popcount(k2_view_sig(A, p));
  }
  k2_ref_walk w = {A, P, first_child};
  k2_ref_visit(&w, 0, 0, 0, 0);
  free(first_child);
  return 0;
}

static bool k2_ref_available(char *why, size_t len) {
  (void)why;
  (void)len;
  return true;
}

const k2_engine k2_ref_engine = {
    .name = "reference",
    .id = K2_ENGINE_ID_REFERENCE,
    .slot = -1,
    .available = k2_ref_available,
    .accepts = k2_engine_accepts_supported,
    .product = k2_ref_product,
};
