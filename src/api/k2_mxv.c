// k2_mxv.c: K2_mxv and K2_vxm with GraphBLAS semantics.
// SPDX-License-Identifier: Apache-2.0
//
// The native path turns u into a dense array of the semiring's type (GraphBLAS typecasts it),
// runs one engine product into dense values + presence bytes, and hands them to GraphBLAS as a
// bitmap vector T in O(1). Mask, accumulator, replace and the cast to w's type are then
// exactly GraphBLAS's: w<mask> = accum (w, T) by GrB_Vector_apply with the identity. Without
// mask and accumulator and with w of T's type, T's arrays move into w directly.
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/k2_api.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "semiring/k2_semiring.h"
#include "util/k2_error.h"

static double k2_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define K2_NVALS_UNKNOWN UINT64_MAX

// Number of nonzero bytes (the entries of the result).
static GrB_Index k2_count_present(const uint8_t *p, GrB_Index n) {
  GrB_Index c = 0;
  for (GrB_Index i = 0; i < n; i++) c += p[i];
  return c;
}

// T as GraphBLAS's vector: bitmap (values y, presence y_present) or, with y_present NULL, full.
// Ownership of the arrays moves into T on success.
static GrB_Info k2_api_pack(GrB_Vector T, void **y, uint8_t **y_present, GrB_Index n,
                               GrB_Index nvals, size_t ts) {
  GrB_Index ysize = (n > 0 ? n : 1) * ts, psize = n > 0 ? n : 1;
  if (*y_present == NULL) return GxB_Vector_pack_Full(T, y, ysize, false, NULL);
  if (nvals == K2_NVALS_UNKNOWN) nvals = k2_count_present(*y_present, n);
  return GxB_Vector_pack_Bitmap(T, (int8_t **)y_present, y, psize, ysize, false, nvals, NULL);
}

// w<mask> = accum (w, T) where T is given by y / y_present (ownership taken on success;
// y_present NULL: every entry present) with nvals entries (K2_NVALS_UNKNOWN: count them).
GrB_Info k2_api_finish_vector(GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum,
                                 GrB_Type wtype, k2_type t, void **y, uint8_t **y_present,
                                 GrB_Index n, GrB_Index nvals, bool replace, bool comp,
                                 bool structure, const char *fn) {
  size_t ts = k2_type_size(t);
  GrB_Info info;
  if (mask == NULL && !comp && accum == NULL && wtype == k2_type_grb(t)) {
    info = k2_api_pack(w, y, y_present, n, nvals, ts);
    if (info != GrB_SUCCESS) {
      K2_FAIL(info, "%s: SuiteSparse:GraphBLAS could not take the result into w", fn);
    }
    return GrB_SUCCESS;
  }
  // T goes in as a bitmap even when every entry is present: 7.4's accumulation of a full T
  // into an iso w under a sparse valued mask (GB_subassign_08n) crashes
  if (*y_present == NULL) {
    *y_present = malloc(n > 0 ? n : 1);
    if (*y_present == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory (%llu entries)", fn, (unsigned long long)n);
    memset(*y_present, 1, n);
    nvals = n;
  }
  GrB_Vector T = NULL;
  info = GrB_Vector_new(&T, k2_type_grb(t), n);
  if (info == GrB_SUCCESS) info = k2_api_pack(T, y, y_present, n, nvals, ts);
  if (info == GrB_SUCCESS) {
    info = GrB_Vector_apply(w, mask, accum, k2_type_identity_op(t), T,
                            k2_api_desc(replace, comp, structure));
    if (info != GrB_SUCCESS) {
      const char *msg = "";
      GrB_Vector_error(&msg, w);
      GrB_Vector_free(&T);
      K2_FAIL(info, "%s: %s", fn, msg && msg[0] ? msg : "applying the mask and accumulator to w failed");
    }
  }
  GrB_Vector_free(&T);
  if (info != GrB_SUCCESS) {
    K2_FAIL(info, "%s: building the result vector failed", fn);
  }
  return GrB_SUCCESS;
}

// SuiteSparse computes T = A*u (u'*A) unmasked on the bridge's copy of A, then
// w<mask> = accum (w, T) by GrB_Vector_assign: the same semantics as GrB_mxv with the mask,
// without SuiteSparse 7.4's masked product kernels, some of which never return or crash on
// inputs its own objects can hold (an iso u and a bitmap mask; a full valued mask).
static GrB_Info k2_fallback_vector(const char *fn, GrB_Vector w, GrB_Vector mask,
                                   GrB_BinaryOp accum, GrB_Semiring s, K2_Matrix A,
                                   GrB_Vector u, GrB_Index wn, bool tran, bool replace, bool comp,
                                   bool structure, bool vxm, const char *why) {
  double t0 = k2_api_burble() ? k2_now() : 0;
  GrB_Matrix G = NULL;
  GrB_Vector T = NULL;
  GrB_BinaryOp mult = NULL;
  GrB_Type ztype = NULL;
  bool temporary = false;
  const char *msg = NULL;
  GrB_Info info = k2_api_grb(&G, &temporary, A, k2_semiring_positional(s));
  if (info != GrB_SUCCESS) return info;
  info = GxB_Semiring_multiply(&mult, s);
  if (info == GrB_SUCCESS) info = GxB_BinaryOp_ztype(&ztype, mult);
  if (info == GrB_SUCCESS) info = GrB_Vector_new(&T, ztype, wn);
  // T as a bitmap, as the native path hands it over: 7.4's accumulation of a sparse T into w
  // under a mask (GB_subassign_08n) crashes on some inputs
  if (info == GrB_SUCCESS) info = GxB_Vector_Option_set(T, GxB_SPARSITY_CONTROL, GxB_BITMAP);
  if (info == GrB_SUCCESS) {
    GrB_Descriptor dt = !tran ? NULL : vxm ? GrB_DESC_T1 : GrB_DESC_T0;
    info = vxm ? GrB_vxm(T, NULL, NULL, s, u, G, dt) : GrB_mxv(T, NULL, NULL, s, G, u, dt);
    if (info != GrB_SUCCESS) GrB_Vector_error(&msg, T);
  }
  if (temporary) GrB_Matrix_free(&G);
  if (info == GrB_SUCCESS) {
    info = GrB_Vector_assign(w, mask, accum, T, GrB_ALL, wn, k2_api_desc(replace, comp, structure));
    if (info != GrB_SUCCESS) GrB_Vector_error(&msg, w);
  }
  k2_api_set_path(K2_PATH_FALLBACK);
  if (k2_api_burble()) {
    k2_api_say(fn, K2_PATH_FALLBACK, "%s (%s%.3f ms)", why,
                  info == GrB_SUCCESS ? "" : "failed, ", 1e3 * (k2_now() - t0));
  }
  if (info != GrB_SUCCESS) {
    // the message lives in T or w: record it before T goes
    k2_error_set(info, "%s (SuiteSparse): %s", fn, msg != NULL && msg[0] ? msg : "the product failed");
  }
  GrB_Vector_free(&T);
  return info;
}

static GrB_Info k2_product_vector(const char *fn, GrB_Vector w, GrB_Vector mask,
                                  GrB_BinaryOp accum, GrB_Semiring s, K2_Matrix A,
                                  GrB_Vector u, GrB_Descriptor desc, bool vxm) {
  k2_api_set_path(K2_PATH_NONE);
  // handles, in GraphBLAS's order: w, mask, accum, semiring, A, u, desc
  if (w == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: w is NULL", fn);
  if (s == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: semiring is NULL", fn);
  if (u == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: u is NULL", fn);
  GrB_Info info;
  GrB_Index wn = 0, un = 0, mn = 0;
  k2_api_call call = {.fn = fn, .vectors = true, .k2_first = !vxm, .has_mask = mask != NULL};
  if ((info = GrB_Vector_size(&wn, w)) != GrB_SUCCESS || (info = GxB_Vector_type(&call.ctype, w)) != GrB_SUCCESS) {
    K2_FAIL(info, "%s: w is not a valid GrB_Vector", fn);
  }
  if (mask != NULL && ((info = GrB_Vector_size(&mn, mask)) != GrB_SUCCESS ||
                       (info = GxB_Vector_type(&call.mtype, mask)) != GrB_SUCCESS)) {
    K2_FAIL(info, "%s: mask is not a valid GrB_Vector", fn);
  }
  call.binfo = GrB_Vector_size(&un, u);
  if (call.binfo == GrB_SUCCESS) call.binfo = GxB_Vector_type(&call.btype, u);
  // as the product sees them: w = A u (columns), or w' = u' A (rows)
  call.crows = vxm ? 1 : wn;
  call.ccols = vxm ? wn : 1;
  call.brows = vxm ? 1 : un;
  call.bcols = vxm ? un : 1;
  call.mrows = mn;
  call.mcols = 1;
  if ((info = k2_api_call_check(&call, accum, s, A, desc)) != GrB_SUCCESS) return info;
  if (call.empty) return k2_api_call_empty(&call, (GrB_Matrix)w, (GrB_Matrix)mask, accum, s, A, desc);
  const bool left = call.left, replace = call.replace, comp = call.comp, structure = call.structure;
  const k2_semiring_class c = call.c;

  // Everything GraphBLAS would reject for its domains, and every unusual type, goes to
  // SuiteSparse, which then answers exactly as GraphBLAS does.
  char whybuf[300];
  const char *why = k2_api_call_fallback(&call, NULL, whybuf, sizeof whybuf);
  if (why != NULL) {
    return k2_fallback_vector(fn, w, mask, accum, s, A, u, wn, call.tranA, replace, comp,
                              structure, vxm, why);
  }
  const GrB_Type wt = call.ctype;

  double t0 = k2_api_burble() ? k2_now() : 0;
  k2_product P;
  memset(&P, 0, sizeof P);
  k2_semiring_setup(&P, &c, A->weight);
  size_t ts = k2_type_size(c.type);
  void *x = NULL, *y = NULL;
  uint8_t *xp = NULL, *yp = NULL, *skip = NULL;
  bool borrowed = false;  // x, xp are u's own arrays (read in place, never freed here)
#define K2_FREE_WORK                                                    \
  do {                                                                  \
    if (!borrowed) {                                                    \
      free(x);                                                          \
      free(xp);                                                         \
    }                                                                   \
    free(y);                                                            \
    free(yp);                                                           \
    free(skip);                                                         \
  } while (0)
  K2_TRY(k2_api_vector_dense(&x, &xp, &borrowed, u, c.type, c.reads_vec));
  // Every u(j) present: T's structure is A's row (column) occupancy, known in advance, so the
  // engine tracks no presence and T is full when every row is occupied.
  const uint8_t *occ = NULL;
  uint64_t occ_count = 0;
  if (xp == NULL) K2_TRY(k2_api_occupancy(&occ, &occ_count, A, left));
  if (mask != NULL || comp) {
    if (mask == NULL) {
      // complement of no mask: nothing may be written; GraphBLAS still computes nothing useful
      skip = malloc(wn > 0 ? wn : 1);
      if (skip != NULL) memset(skip, 1, wn);
    } else {
      K2_TRY(k2_api_skip_from_mask(&skip, mask, wn, comp, structure));
    }
  }
  y = malloc((wn > 0 ? wn : 1) * ts);
  // masked-out entries need no presence either: the mask drops them when T is applied
  if (occ == NULL || occ_count < wn) yp = malloc(wn > 0 ? wn : 1);
  if (y == NULL || ((occ == NULL || occ_count < wn) && yp == NULL) ||
      ((mask != NULL || comp) && skip == NULL)) {
    K2_FREE_WORK;
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory (%llu entries)", fn,
            (unsigned long long)wn);
  }
  P.left = left;
  P.batch = 1;
  P.x = x;
  P.x_present = xp;
  P.y = y;
  P.y_present = occ == NULL ? yp : NULL;
  P.y_skip = skip;
  K2_Engine ran = K2_ENGINE_AUTO;
  K2_TRY(k2_dispatch_product(A, &P, &ran));
  if (occ != NULL && yp != NULL) memcpy(yp, occ, wn);
  K2_Path path = ran == K2_ENGINE_CUDA ? K2_PATH_NATIVE_GPU : K2_PATH_NATIVE_CPU;
  // u is no longer needed: w may be u itself (aliasing), and packing into w releases its arrays
  if (!borrowed) {
    free(x);
    free(xp);
  }
  free(skip);
  x = NULL;
  xp = skip = NULL;
  K2_TRY(k2_api_finish_vector(w, mask, accum, wt, c.type, &y, &yp, wn,
                                 occ != NULL ? occ_count : K2_NVALS_UNKNOWN, replace, comp,
                                 structure, fn));
  K2_FREE_WORK;
#undef K2_FREE_WORK
  k2_api_set_path(path);
  if (k2_api_burble()) {
    k2_api_say(fn, path, "%s, %s product (%s engine), %s mask%s%s, %.3f ms", c.name,
                  left ? "left" : "right", K2_engine_name(ran),
                  mask == NULL ? "no" : structure ? "structural" : "valued",
                  comp ? " complemented" : "", accum ? ", accum" : "", 1e3 * (k2_now() - t0));
  }
  return GrB_SUCCESS;
}

GrB_Info K2_mxv(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const K2_Matrix A, const GrB_Vector u,
                const GrB_Descriptor desc) {
  k2_error_clear();
  return k2_api_done("K2_mxv", k2_product_vector("K2_mxv", w, mask, accum, semiring, A, u,
                                                    desc, false));
}

GrB_Info K2_vxm(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const GrB_Vector u, const K2_Matrix A,
                const GrB_Descriptor desc) {
  k2_error_clear();
  return k2_api_done("K2_vxm", k2_product_vector("K2_vxm", w, mask, accum, semiring, A, u,
                                                    desc, true));
}
