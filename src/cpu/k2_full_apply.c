// k2_full_apply.c: the contribution of a full block to a product (k2_full_apply.h).
// SPDX-License-Identifier: Apache-2.0
//
// A full block holds every cell, so each of its outputs receives the same value: the monoid's
// reduction of its inputs' contributions. The arithmetic is the OpenMP engine's (k2_values.h
// casts; integers wrap, floats in their own type, MIN and MAX ignore NaN as fmin and fmax).
#include "cpu/k2_full_apply.h"

#include "engine/k2_values.h"

typedef union {
  uint8_t b;
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
} k2_fv;

static inline k2_fv k2_fv_load(k2_type t, const void *a, uint64_t k) {
  k2_fv v;
  switch (t) {
    case K2_T_BOOL: v.b = ((const uint8_t *)a)[k] != 0; break;
    case K2_T_INT32: v.i32 = ((const int32_t *)a)[k]; break;
    case K2_T_INT64: v.i64 = ((const int64_t *)a)[k]; break;
    case K2_T_FP32: v.f32 = ((const float *)a)[k]; break;
    default: v.f64 = ((const double *)a)[k]; break;
  }
  return v;
}

static inline void k2_fv_store(k2_type t, void *a, uint64_t k, k2_fv v) {
  switch (t) {
    case K2_T_BOOL: ((uint8_t *)a)[k] = v.b; break;
    case K2_T_INT32: ((int32_t *)a)[k] = v.i32; break;
    case K2_T_INT64: ((int64_t *)a)[k] = v.i64; break;
    case K2_T_FP32: ((float *)a)[k] = v.f32; break;
    default: ((double *)a)[k] = v.f64; break;
  }
}

static inline k2_fv k2_fv_cast(k2_type t, double d) {
  k2_fv v;
  switch (t) {
    case K2_T_BOOL: v.b = d != 0; break;
    case K2_T_INT32: v.i32 = k2_double_to_int32(d); break;
    case K2_T_INT64: v.i64 = k2_double_to_int64(d); break;
    case K2_T_FP32: v.f32 = (float)d; break;
    default: v.f64 = d; break;
  }
  return v;
}

// The contribution of input x (index s) through one cell.
static inline k2_fv k2_fv_mult(const k2_product *P, k2_fv x, k2_fv w, uint64_t s) {
  const k2_type t = P->type;
  k2_fv r = x;
  switch (P->mult) {
    case K2_MUL_X: break;
    case K2_MUL_CONST: r = w; break;
    case K2_MUL_INDEX: r = k2_fv_cast(t, (double)((int64_t)s + P->index_base)); break;
    case K2_MUL_X_TIMES_W:
      switch (t) {
        case K2_T_BOOL: r.b = (uint8_t)(x.b && w.b); break;
        case K2_T_INT32: r.i32 = (int32_t)((uint32_t)x.i32 * (uint32_t)w.i32); break;
        case K2_T_INT64: r.i64 = (int64_t)((uint64_t)x.i64 * (uint64_t)w.i64); break;
        case K2_T_FP32: r.f32 = x.f32 * w.f32; break;
        default: r.f64 = x.f64 * w.f64; break;
      }
      break;
    default:  // K2_MUL_X_PLUS_W
      switch (t) {
        case K2_T_BOOL: r.b = (uint8_t)(x.b || w.b); break;
        case K2_T_INT32: r.i32 = (int32_t)((uint32_t)x.i32 + (uint32_t)w.i32); break;
        case K2_T_INT64: r.i64 = (int64_t)((uint64_t)x.i64 + (uint64_t)w.i64); break;
        case K2_T_FP32: r.f32 = x.f32 + w.f32; break;
        default: r.f64 = x.f64 + w.f64; break;
      }
      break;
  }
  return r;
}

#define K2_FV_MIN(a, b) (((b) < (a) || (a) != (a)) && (b) == (b) ? (b) : (a))
#define K2_FV_MAX(a, b) (((b) > (a) || (a) != (a)) && (b) == (b) ? (b) : (a))

// a (+) b.
static inline k2_fv k2_fv_add(k2_type t, k2_monoid m, k2_fv a, k2_fv b) {
  if (m == K2_MON_ANY) return b;
  k2_fv r = a;
  if (t == K2_T_BOOL) {
    r.b = m == K2_MON_MIN ? (uint8_t)(a.b & b.b) : (uint8_t)(a.b | b.b);  // LAND, else LOR
    return r;
  }
  switch (t) {
    case K2_T_INT32:
      r.i32 = m == K2_MON_PLUS ? (int32_t)((uint32_t)a.i32 + (uint32_t)b.i32)
              : m == K2_MON_MIN ? (b.i32 < a.i32 ? b.i32 : a.i32)
                                : (b.i32 > a.i32 ? b.i32 : a.i32);
      break;
    case K2_T_INT64:
      r.i64 = m == K2_MON_PLUS ? (int64_t)((uint64_t)a.i64 + (uint64_t)b.i64)
              : m == K2_MON_MIN ? (b.i64 < a.i64 ? b.i64 : a.i64)
                                : (b.i64 > a.i64 ? b.i64 : a.i64);
      break;
    case K2_T_FP32:
      r.f32 = m == K2_MON_PLUS  ? a.f32 + b.f32
              : m == K2_MON_MIN ? K2_FV_MIN(a.f32, b.f32)
                                : K2_FV_MAX(a.f32, b.f32);
      break;
    default:
      r.f64 = m == K2_MON_PLUS  ? a.f64 + b.f64
              : m == K2_MON_MIN ? K2_FV_MIN(a.f64, b.f64)
                                : K2_FV_MAX(a.f64, b.f64);
      break;
  }
  return r;
}

// The common case of the full traversal (PageRank, the benchmarks): one vector of floats, every
// input present, no mask, PLUS over x or x * w, without the generic code's per-value switches.
#define K2_FULL_PLUS_FAST(T)                                                      \
  do {                                                                          \
    const T *x = (const T *)P->x + i0;                                          \
    T *y = (T *)P->y + o0;                                                      \
    const T w = (T)P->w;                                                        \
    T sum = 0;                                                                  \
    if (P->mult == K2_MUL_X)                                                    \
      for (uint64_t k = 0; k < side; k++) sum += x[k];                          \
    else                                                                        \
      for (uint64_t k = 0; k < side; k++) sum += x[k] * w;                      \
    for (uint64_t k = 0; k < side; k++) y[k] += sum;                            \
    if (P->y_present != NULL)                                                   \
      for (uint64_t k = 0; k < side; k++) P->y_present[o0 + k] = 1;             \
  } while (0)

void k2_full_apply(const k2_product *P, uint64_t r0, uint64_t c0, uint64_t side, const uint64_t *in,
                   uint64_t nin, const uint64_t *out, uint64_t nout) {
  const uint64_t B = P->batch, i0 = P->left ? r0 : c0, o0 = P->left ? c0 : r0;
  if (B == 1 && in == NULL && out == NULL && P->x_present == NULL && P->y_skip == NULL &&
      P->monoid == K2_MON_PLUS && (P->mult == K2_MUL_X || P->mult == K2_MUL_X_TIMES_W)) {
    if (P->type == K2_T_FP32) {
      K2_FULL_PLUS_FAST(float);
      return;
    }
    if (P->type == K2_T_FP64) {
      K2_FULL_PLUS_FAST(double);
      return;
    }
  }
  const uint64_t ni = in != NULL ? nin : side, no = out != NULL ? nout : side;
  const k2_type t = P->type;
  const k2_fv w = k2_fv_cast(t, P->w);
  for (uint64_t b = 0; b < B; b++) {
    // the reduction of the block's inputs
    k2_fv red = {0};
    bool any = false;
    for (uint64_t k = 0; k < ni; k++) {
      const uint64_t s = in != NULL ? in[k] : i0 + k, xs = s * B + b;
      if (P->x_present != NULL && !P->x_present[xs]) continue;
      const k2_fv v = k2_fv_mult(P, k2_fv_load(t, P->x, xs), w, s);
      red = any ? k2_fv_add(t, P->monoid, red, v) : v;
      any = true;
    }
    if (!any) continue;
    // the same value into each of its outputs
    for (uint64_t k = 0; k < no; k++) {
      const uint64_t o = out != NULL ? out[k] : o0 + k, yo = o * B + b;
      if (P->y_skip != NULL && P->y_skip[yo]) continue;
      k2_fv_store(t, P->y, yo, k2_fv_add(t, P->monoid, k2_fv_load(t, P->y, yo), red));
      if (P->y_present != NULL) P->y_present[yo] = 1;
    }
  }
}
