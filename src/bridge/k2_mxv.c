// k2_mxv.c: K2_mxv and K2_vxm with GraphBLAS semantics.
// SPDX-License-Identifier: Apache-2.0
//
// The native path has two forms. Dense: u becomes a dense array of the semiring's type
// (GraphBLAS typecasts it), one engine product writes dense values + presence bytes, and they
// go to GraphBLAS as a bitmap vector T in O(1). Sparse, when u holds a few entries or the mask
// allows a few outputs: u's entries are scattered into the thread's reused workspace, the
// engine prunes the tree by them and by the mask and lists the outputs it wrote, and T is a
// sparse vector of those, so that the call costs what the traversal costs and not O(n).
// Mask, accumulator, replace and the cast to w's type are then exactly GraphBLAS's:
// w<mask> = accum (w, T) by GrB_Vector_apply with the identity. Without mask and accumulator,
// or with replace and a T that already obeys the mask, and with w of T's type, T's arrays move
// into w directly.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/k2_api.h"
#include "api/k2_profile.h"
#include "bridge/k2_bridge.h"
#include "dispatch/k2_dispatch.h"
#include "engine/k2_values.h"
#include "matrix/k2_matrix.h"
#include "semiring/k2_semiring.h"
#include "util/k2_error.h"
#include "util/k2_par.h"

#define K2_NVALS_UNKNOWN UINT64_MAX

// Number of nonzero bytes (the entries of the result).
static GrB_Index k2_count_present(const uint8_t *p, GrB_Index n) {
  GrB_Index c = 0;
  for (GrB_Index i = 0; i < n; i++) c += p[i];
  return c;
}

// The product's result T, as the engines leave it: sparse (indices and values of nvals
// entries), bitmap (values and presence bytes of n entries) or full (values only). The arrays
// are malloc'd; packing moves them into a GrB_Vector.
typedef struct {
  void *values;
  uint8_t *present;    // bitmap: one byte per entry
  GrB_Index *indices;  // sparse: the entries' indices, ascending
  GrB_Index n, nvals;  // nvals K2_NVALS_UNKNOWN: count the presence bytes
  uint64_t vbytes, pbytes;  // the bytes allocated for values and present (0: n of them)
} k2_result;

static void k2_result_free(k2_result *R) {
  free(R->values);
  free(R->present);
  free(R->indices);
  R->values = NULL;
  R->present = NULL;
  R->indices = NULL;
}

// T into the GrB_Vector V (ownership of R's arrays moves into V on success).
static GrB_Info k2_bridge_pack(GrB_Vector V, k2_result *R, size_t ts) {
  const GrB_Index n = R->n;
  if (R->indices != NULL) {
    return GxB_Vector_pack_CSC(V, &R->indices, &R->values, (R->nvals > 0 ? R->nvals : 1) * sizeof(GrB_Index),
                               (R->nvals > 0 ? R->nvals : 1) * ts, false, R->nvals, false, NULL);
  }
  GrB_Index ysize = (n > 0 ? n : 1) * ts, psize = n > 0 ? n : 1;
  if (R->vbytes > ysize) ysize = R->vbytes;  // the whole allocation: it may come back (recycled)
  if (R->pbytes > psize) psize = R->pbytes;
  if (R->present == NULL) return GxB_Vector_pack_Full(V, &R->values, ysize, false, NULL);
  if (R->nvals == K2_NVALS_UNKNOWN) R->nvals = k2_count_present(R->present, n);
  return GxB_Vector_pack_Bitmap(V, (int8_t **)&R->present, &R->values, psize, ysize, false,
                                R->nvals, NULL);
}

// R into w as k2_bridge_pack does, but a bitmap w's own arrays come out first (O(1)) and go to
// the workspace as the next dense result's, instead of being freed by the pack while the next
// call faults in fresh pages. On failure w is as it was.
static GrB_Info k2_bridge_pack_recycling(GrB_Vector w, k2_result *R, size_t ts) {
  void *ov = NULL;
  int8_t *ob = NULL;
  GrB_Index obs = 0, ovs = 0, onv = 0;
  bool oiso = false;
  int sparsity = 0;
  if (R->indices != NULL || R->present == NULL ||
      GxB_Vector_Option_get(w, GxB_SPARSITY_STATUS, &sparsity) != GrB_SUCCESS || sparsity != GxB_BITMAP ||
      GxB_Vector_unpack_Bitmap(w, &ob, &ov, &obs, &ovs, &oiso, &onv, NULL) != GrB_SUCCESS) {
    return k2_bridge_pack(w, R, ts);
  }
  const GrB_Info info = k2_bridge_pack(w, R, ts);
  if (info != GrB_SUCCESS) {
    (void)GxB_Vector_pack_Bitmap(w, &ob, &ov, obs, ovs, oiso, onv, NULL);
  } else if (!oiso) {
    k2_workspace_recycle_y(ov, ovs, (uint8_t *)ob, obs);
  } else {
    free(ov);
    free(ob);
  }
  return info;
}

// The dense passes run on the OpenMP threads from 2^16 entries (the engine's threads left T's
// values in their caches).
#define K2_DENSE_LOOP(n, i, ...) K2_PAR_FOR(n, 65536, i, __VA_ARGS__)

void k2_bridge_presence_drop(uint8_t *present, const uint8_t *skip, uint64_t n) {
  K2_DENSE_LOOP(n, i, present[i] &= (uint8_t)(skip[i] == 0));
}

// Drop from a dense or bitmap T the entries that the skip bytes exclude (O(n), no allocation
// for a bitmap T): T then holds only what the mask allows.
static GrB_Info k2_result_drop_skipped(k2_result *R, const uint8_t *skip, uint64_t allowed) {
  const GrB_Index n = R->n;
  uint8_t *p = R->present;
  if (p == NULL) {
    p = R->present = malloc(n > 0 ? n : 1);
    if (p == NULL) return GrB_OUT_OF_MEMORY;
    K2_DENSE_LOOP(n, i, p[i] = skip[i] == 0);
    R->nvals = allowed;
    return GrB_SUCCESS;
  }
  k2_bridge_presence_drop(p, skip, n);
  R->nvals = K2_NVALS_UNKNOWN;
  return GrB_SUCCESS;
}

// w(i) = op (w(i), t(i)) where T has entry i, in T's type, as GraphBLAS computes it: integer
// sums wrap around (taken in uint64_t), floats take fmin/fmax. One tight loop per
// operator and form of T (listed, bitmap, full).
#define K2_ACCUM_FORMS(T, OP)                                                               \
  do {                                                                                      \
    T *wv = (T *)W;                                                                         \
    const T *tv = (const T *)R->values;                                                     \
    if (R->indices != NULL) {                                                               \
      for (GrB_Index k = 0; k < R->nvals; k++) wv[R->indices[k]] = OP(T, wv[R->indices[k]], tv[k]); \
    } else if (R->present != NULL) {                                                        \
      const uint8_t *tp = R->present;                                                       \
      K2_DENSE_LOOP(n, i, wv[i] = tp[i] ? OP(T, wv[i], tv[i]) : wv[i]);                     \
    } else {                                                                                \
      K2_DENSE_LOOP(n, i, wv[i] = OP(T, wv[i], tv[i]));                                     \
    }                                                                                       \
  } while (0)
// An iso w (one value v, a scalar assigned to all) and a dense or bitmap T: T's own array
// becomes w's, t(i) = op (v, t(i)) where T has entry i and v elsewhere (one pass, no allocation).
#define K2_ACCUM_ISO_FORMS(T, OP)                                                       \
  do {                                                                                  \
    T v;                                                                                \
    memcpy(&v, W, sizeof v);                                                            \
    T *tv = (T *)R->values;                                                             \
    if (R->present != NULL) {                                                           \
      const uint8_t *tp = R->present;                                                   \
      K2_DENSE_LOOP(n, i, tv[i] = tp[i] ? OP(T, v, tv[i]) : v);                         \
    } else {                                                                            \
      K2_DENSE_LOOP(n, i, tv[i] = OP(T, v, tv[i]));                                     \
    }                                                                                   \
  } while (0)
#define K2_ACCUM_LOOP(FORMS, T, PLUSF, MINF, MAXF) \
  do {                                            \
    switch (m) {                                  \
      case K2_MON_PLUS: FORMS(T, PLUSF); break;   \
      case K2_MON_MIN: FORMS(T, MINF); break;     \
      default: FORMS(T, MAXF); break;             \
    }                                             \
  } while (0)
#define K2_ACCUM_TYPED(FORMS)                                                                       \
  do {                                                                                              \
    switch (t) {                                                                                    \
      case K2_T_INT32: K2_ACCUM_LOOP(FORMS, int32_t, K2_ADD_WRAP, K2_MIN_INT, K2_MAX_INT); break; \
      case K2_T_INT64: K2_ACCUM_LOOP(FORMS, int64_t, K2_ADD_WRAP, K2_MIN_INT, K2_MAX_INT); break; \
      case K2_T_FP32: K2_ACCUM_LOOP(FORMS, float, K2_ADD_FLOAT, K2_MIN_FP32, K2_MAX_FP32); break; \
      default: K2_ACCUM_LOOP(FORMS, double, K2_ADD_FLOAT, K2_MIN_FP64, K2_MAX_FP64); break;     \
    }                                                                                               \
  } while (0)
#define K2_ADD_WRAP(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define K2_ADD_FLOAT(T, a, b) ((T)((a) + (b)))
#define K2_MIN_INT(T, a, b) ((a) < (b) ? (a) : (b))
#define K2_MAX_INT(T, a, b) ((a) > (b) ? (a) : (b))
#define K2_MIN_FP32(T, a, b) fminf(a, b)
#define K2_MAX_FP32(T, a, b) fmaxf(a, b)
#define K2_MIN_FP64(T, a, b) fmin(a, b)
#define K2_MAX_FP64(T, a, b) fmax(a, b)

// w = accum (w, T) with no mask, for a full w of T's type and a PLUS, MIN or MAX accumulator m:
// w's values are taken out of it, updated where T has an entry and put back (O(1) moves and
// one pass, where GraphBLAS's accumulation costs about 1 ms on 3 10^5 entries). *done false
// when w is not such a vector (nothing changed then).
static GrB_Info k2_bridge_accumulate_full(bool *done, GrB_Vector w, k2_type t, k2_monoid m, k2_result *R) {
  *done = false;
  GrB_Index n = 0, nv = 0;
  if (GrB_Vector_size(&n, w) != GrB_SUCCESS || GrB_Vector_nvals(&nv, w) != GrB_SUCCESS || n == 0 ||
      nv != n || n != R->n) {
    return GrB_SUCCESS;
  }
  int sparsity = 0;
  if (GxB_Vector_Option_get(w, GxB_SPARSITY_STATUS, &sparsity) != GrB_SUCCESS || sparsity != GxB_FULL)
    return GrB_SUCCESS;
  const size_t ts = k2_type_size(t);
  void *W = NULL;
  GrB_Index wsize = 0;
  bool iso = false;
  if (GxB_Vector_unpack_Full(w, &W, &wsize, &iso, NULL) != GrB_SUCCESS) return GrB_SUCCESS;
  if (iso && R->indices == NULL) {
    // T's array becomes w's (k2_result's values are n entries of T's type)
    K2_ACCUM_TYPED(K2_ACCUM_ISO_FORMS);
    free(W);
    W = R->values;
    R->values = NULL;
    wsize = n * ts;
  } else if (iso) {
    // a listed T: spread the one value, then update the listed entries
    void *full = wsize >= ts ? malloc(n * ts) : NULL;
    if (full == NULL) {
      (void)GxB_Vector_pack_Full(w, &W, wsize, iso, NULL);  // as it was; GraphBLAS accumulates
      return GrB_SUCCESS;
    }
    for (GrB_Index i = 0; i < n; i++) memcpy((char *)full + i * ts, W, ts);
    free(W);
    W = full;
    wsize = n * ts;
    K2_ACCUM_TYPED(K2_ACCUM_FORMS);
  } else if (wsize < n * ts) {
    (void)GxB_Vector_pack_Full(w, &W, wsize, iso, NULL);
    return GrB_SUCCESS;
  } else {
    K2_ACCUM_TYPED(K2_ACCUM_FORMS);
  }
  GrB_Info info = GxB_Vector_pack_Full(w, &W, wsize, false, NULL);
  if (info != GrB_SUCCESS) {
    free(W);
    return info;
  }
  *done = true;
  return GrB_SUCCESS;
}

// w<mask> = accum (w, T) (R's arrays are taken on success and freed on failure).
// mask_applied: T holds no entry that the mask excludes, so that with replace and no
// accumulator w is T itself; otherwise skip (or NULL), the mask's skip bytes with `allowed`
// zeros, lets a dense T drop the excluded entries itself in that case, instead of a masked
// GraphBLAS assignment (about 1 ms on 3 10^5 entries against tens of microseconds).
static GrB_Info k2_bridge_finish_vector(k2_profile_call *pc, GrB_Vector w, GrB_Vector mask,
                                     GrB_BinaryOp accum, GrB_Type wtype, k2_type t, k2_result *R,
                                     bool replace, bool comp, bool structure, bool mask_applied,
                                     const uint8_t *skip, uint64_t allowed, const char *fn) {
  size_t ts = k2_type_size(t);
  GrB_Info info;
  const bool no_mask = mask == NULL && !comp;
  const bool plain = accum == NULL && wtype == k2_type_grb(t);
  if (plain && !no_mask && replace && !mask_applied && skip != NULL && R->indices == NULL) {
    if (k2_result_drop_skipped(R, skip, allowed) != GrB_SUCCESS) {
      k2_result_free(R);
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory (%llu entries)", fn, (unsigned long long)R->n);
    }
    mask_applied = true;
    k2_profile_lap(pc, K2_PROFILE_APPLY);
  }
  if (no_mask && accum != NULL && wtype == k2_type_grb(t)) {
    k2_monoid m = K2_MON_PLUS;
    bool done = false;
    info = k2_semiring_accum_monoid(accum, t, &m) ? k2_bridge_accumulate_full(&done, w, t, m, R) : GrB_SUCCESS;
    if (info != GrB_SUCCESS || done) {
      k2_result_free(R);
      k2_profile_lap(pc, K2_PROFILE_APPLY);
      if (info != GrB_SUCCESS) K2_FAIL(info, "%s: SuiteSparse:GraphBLAS could not take the values back into w", fn);
      return GrB_SUCCESS;
    }
  }
  if (plain && (no_mask || (replace && mask_applied))) {
    info = k2_bridge_pack_recycling(w, R, ts);
    k2_result_free(R);
    k2_profile_lap(pc, K2_PROFILE_PACK);
    if (info != GrB_SUCCESS) {
      K2_FAIL(info, "%s: SuiteSparse:GraphBLAS could not take the result into w", fn);
    }
    return GrB_SUCCESS;
  }
  // T goes in as a bitmap even when every entry is present: 7.4's accumulation of a full T
  // into an iso w under a sparse valued mask (GB_subassign_08n) crashes
  if (R->indices == NULL && R->present == NULL) {
    R->present = malloc(R->n > 0 ? R->n : 1);
    if (R->present == NULL) {
      k2_result_free(R);
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory (%llu entries)", fn, (unsigned long long)R->n);
    }
    memset(R->present, 1, R->n);
    R->nvals = R->n;
  }
  GrB_Vector T = NULL;
  info = GrB_Vector_new(&T, k2_type_grb(t), R->n);
  if (info == GrB_SUCCESS) info = k2_bridge_pack(T, R, ts);
  k2_result_free(R);
  k2_profile_lap(pc, K2_PROFILE_PACK);
  if (info == GrB_SUCCESS) {
    info = GrB_Vector_apply(w, mask, accum, k2_type_identity_op(t), T,
                            k2_bridge_desc(replace, comp, structure));
    k2_profile_lap(pc, K2_PROFILE_APPLY);
    if (info != GrB_SUCCESS) {
      const char *msg = "";
      GrB_Vector_error(&msg, w);
      GrB_Vector_free(&T);
      K2_FAIL(info, "%s: %s", fn, msg && msg[0] ? msg : "applying the mask and accumulator to w failed");
    }
  }
  GrB_Vector_free(&T);
  k2_profile_lap(pc, K2_PROFILE_APPLY);
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
  double t0 = k2_api_burble() ? k2_clock_now() : 0;
  GrB_Matrix G = NULL;
  GrB_Vector T = NULL;
  GrB_BinaryOp mult = NULL;
  GrB_Type ztype = NULL;
  bool temporary = false;
  const char *msg = NULL;
  GrB_Info info = k2_bridge_grb(&G, &temporary, A, k2_semiring_positional(s));
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
    info = GrB_Vector_assign(w, mask, accum, T, GrB_ALL, wn, k2_bridge_desc(replace, comp, structure));
    if (info != GrB_SUCCESS) GrB_Vector_error(&msg, w);
  }
  k2_api_set_path(K2_PATH_FALLBACK);
  if (k2_api_burble()) {
    k2_api_say(fn, K2_PATH_FALLBACK, "%s (%s%.3f ms)", why,
                  info == GrB_SUCCESS ? "" : "failed, ", 1e3 * (k2_clock_now() - t0));
  }
  if (info != GrB_SUCCESS) {
    // the message lives in T or w: record it before T goes
    k2_error_set(info, "%s (SuiteSparse): %s", fn, msg != NULL && msg[0] ? msg : "the product failed");
  }
  GrB_Vector_free(&T);
  return info;
}

// y[i] = w added deg[i] times, in the product's type (integers wrap as the engines' sums do).
static void k2_fill_by_degree(void *y, k2_type t, const int64_t *deg, uint64_t n, double w) {
  switch (t) {
    case K2_T_INT32: {
      const int32_t wv = k2_double_to_int32(w);
      for (uint64_t i = 0; i < n; i++) ((int32_t *)y)[i] = (int32_t)((uint32_t)deg[i] * (uint32_t)wv);
      break;
    }
    case K2_T_INT64: {
      const int64_t wv = k2_double_to_int64(w);
      for (uint64_t i = 0; i < n; i++) ((int64_t *)y)[i] = (int64_t)((uint64_t)deg[i] * (uint64_t)wv);
      break;
    }
    case K2_T_FP32: {
      const float wv = (float)w;
      for (uint64_t i = 0; i < n; i++) ((float *)y)[i] = (float)deg[i] * wv;
      break;
    }
    default: {  // FP64 (PLUS is never BOOL here: PLUS_BOOL is LOR)
      for (uint64_t i = 0; i < n; i++) ((double *)y)[i] = (double)deg[i] * w;
      break;
    }
  }
}

// The product with dense arrays (u's own where they serve, see k2_bridge_vector_dense) into a
// bitmap or full result R. *how: "the cached degrees" when they gave the answer.
static GrB_Info k2_product_dense(k2_profile_call *pc, k2_product *P, k2_result *R,
                                 K2_Engine *ran, const char **how, K2_Matrix A, GrB_Vector u,
                                 k2_type t, bool reads_vec, GrB_Index wn, const char *fn) {
  const size_t ts = k2_type_size(t);
  void *x = NULL, *y = NULL;
  uint8_t *xp = NULL, *yp = NULL;
  bool borrowed = false;  // x, xp are u's own arrays (read in place, never freed here)
  GrB_Info info = k2_bridge_vector_dense(&x, &xp, &borrowed, u, t, reads_vec);
  k2_profile_lap(pc, K2_PROFILE_INPUT);
  if (info != GrB_SUCCESS) return info;
  // Every u(j) present: T's structure is A's row (column) occupancy, known in advance, so the
  // engine tracks no presence and T is full when every row is occupied. With a constant
  // multiply and PLUS, the values are known too: w times each row's degree (cached), and the
  // degrees give the occupancy.
  const bool by_degree = xp == NULL && P->monoid == K2_MON_PLUS && P->mult == K2_MUL_CONST;
  const int64_t *deg = NULL;
  const uint8_t *occ = NULL;
  uint64_t occ_count = 0;
  if (by_degree) {
    info = k2_api_degrees(&deg, &occ_count, A, P->left);
  } else if (xp == NULL) {
    info = k2_api_occupancy(&occ, &occ_count, A, P->left);
  }
  const bool need_presence = xp != NULL || occ_count < wn;
  if (info == GrB_SUCCESS) {
    y = malloc((wn > 0 ? wn : 1) * ts);
    // masked-out entries need no presence either: the mask drops them when T is applied
    if (need_presence) yp = malloc(wn > 0 ? wn : 1);
    if (y == NULL || (need_presence && yp == NULL)) {
      k2_error_set(GrB_OUT_OF_MEMORY, "%s: out of memory (%llu entries)", fn, (unsigned long long)wn);
      info = GrB_OUT_OF_MEMORY;
    }
  }
  k2_profile_lap(pc, K2_PROFILE_PLAN);
  if (info == GrB_SUCCESS) {
    P->x = x;
    P->x_present = xp;
    P->y = y;
    P->y_present = xp != NULL ? yp : NULL;
    if (by_degree) {
      k2_fill_by_degree(y, P->type, deg, wn, P->w);
      if (yp != NULL) {
        for (GrB_Index i = 0; i < wn; i++) yp[i] = deg[i] != 0;
      }
      *how = "the cached degrees";
      k2_profile_lap(pc, K2_PROFILE_KERNEL);
    } else {
      P->timing = k2_profile_product(pc);
      info = k2_dispatch_product(A, P, ran);
      k2_profile_dispatched(pc);
    }
  }
  // u is no longer needed: w may be u itself (aliasing), and packing into w releases its arrays
  if (!borrowed) {
    free(x);
    free(xp);
    k2_profile_lap(pc, K2_PROFILE_INPUT);
  }
  if (info != GrB_SUCCESS) {
    free(y);
    free(yp);
    return info;
  }
  if (occ != NULL && yp != NULL) memcpy(yp, occ, wn);
  k2_profile_lap(pc, K2_PROFILE_PACK);
  R->values = y;
  R->present = yp;
  R->nvals = xp == NULL ? occ_count : K2_NVALS_UNKNOWN;
  return GrB_SUCCESS;
}

// The product on the thread's workspace: u's entries scattered (sparse_in) or u dense, and the
// engine's listed outputs compacted into a sparse result R, so that nothing costs O(n) but
// the traversal. An engine that writes all of y gives a bitmap result instead.
static GrB_Info k2_product_sparse(k2_profile_call *pc, k2_product *P, k2_result *R,
                                  K2_Engine *ran, K2_Matrix A, GrB_Vector u, k2_type t,
                                  bool reads_vec, bool sparse_in, GrB_Index un, GrB_Index wn) {
  GrB_Info info = GrB_SUCCESS;
  k2_workspace *W = NULL;
  info = k2_workspace_get(&W, un, wn);
  k2_profile_lap(pc, K2_PROFILE_PLAN);
  if (info != GrB_SUCCESS) return info;
  void *x = NULL;
  uint8_t *xp = NULL;
  bool borrowed = false;
  uint64_t nx = 0;
  if (sparse_in) {
    info = k2_bridge_vector_scatter(W, u, t, reads_vec, &nx);
    P->x = W->x;
    P->x_present = W->x_present;
    P->x_list = W->x_list;
    P->x_count = nx;
  } else {
    info = k2_bridge_vector_dense(&x, &xp, &borrowed, u, t, reads_vec);
    P->x = x;
    P->x_present = xp;
  }
  k2_profile_lap(pc, K2_PROFILE_INPUT);
  uint64_t ny = K2_Y_DENSE;
  if (info == GrB_SUCCESS) {
    P->y = W->y;
    P->y_present = W->y_present;
    P->y_list = W->y_list;
    P->y_count = &ny;
    P->timing = k2_profile_product(pc);
    info = k2_dispatch_product(A, P, ran);
    k2_profile_dispatched(pc);
  }
  if (sparse_in) {
    k2_bridge_vector_unscatter(W, nx);
  } else if (!borrowed) {
    free(x);
    free(xp);
  }
  k2_profile_lap(pc, K2_PROFILE_INPUT);
  if (info != GrB_SUCCESS) {
    k2_workspace_drop_y(W);  // y_present may be half written
    return info;
  }
  if (ny != K2_Y_DENSE) {
    info = k2_bridge_result_compact(W, ny, P->y_skip, t, &R->indices, &R->values, &R->nvals);
    k2_profile_lap(pc, K2_PROFILE_PACK);
    return info;
  }
  // the engine wrote all of y: its arrays become the result, the workspace gets fresh ones
  R->values = W->y;
  R->present = W->y_present;
  R->nvals = K2_NVALS_UNKNOWN;
  R->vbytes = W->y_cap * 8;
  R->pbytes = W->y_cap;
  k2_workspace_take_y(W);
  k2_profile_lap(pc, K2_PROFILE_PACK);
  return GrB_SUCCESS;
}

static GrB_Info k2_product_vector(k2_profile_call *pc, const char *fn, GrB_Vector w,
                                  GrB_Vector mask, GrB_BinaryOp accum, GrB_Semiring s,
                                  K2_Matrix A, GrB_Vector u, GrB_Descriptor desc, bool vxm) {
  k2_api_set_path(K2_PATH_NONE);
  // handles, in GraphBLAS's order: w, mask, accum, semiring, A, u, desc
  if (w == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: w is NULL", fn);
  if (s == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: semiring is NULL", fn);
  if (u == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: u is NULL", fn);
  GrB_Info info;
  GrB_Index wn = 0, un = 0, mn = 0;
  k2_bridge_call call = {.fn = fn, .vectors = true, .k2_first = !vxm, .has_mask = mask != NULL};
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
  if ((info = k2_bridge_call_check(&call, accum, s, A, desc)) != GrB_SUCCESS) return info;
  if (call.empty) return k2_bridge_call_empty(&call, (GrB_Matrix)w, (GrB_Matrix)mask, accum, s, A, desc);
  const bool left = call.left, replace = call.replace, comp = call.comp, structure = call.structure;
  const k2_semiring_class c = call.c;

  // Everything GraphBLAS would reject for its domains, and every unusual type, goes to
  // SuiteSparse, which then answers exactly as GraphBLAS does.
  char whybuf[300];
  const char *why = k2_bridge_call_fallback(&call, NULL, whybuf, sizeof whybuf);
  if (why != NULL) {
    k2_profile_lap(pc, K2_PROFILE_VALIDATE);
    info = k2_fallback_vector(fn, w, mask, accum, s, A, u, wn, call.tranA, replace, comp,
                              structure, vxm, why);
    k2_profile_lap(pc, K2_PROFILE_FALLBACK);
    return info;
  }
  const GrB_Type wt = call.ctype;

  double t0 = k2_api_burble() ? k2_clock_now() : 0;
  k2_product P;
  memset(&P, 0, sizeof P);
  k2_semiring_setup(&P, &c, A->weight);
  P.left = left;
  P.batch = 1;
  GrB_Index unv = 0;
  if ((info = GrB_Vector_nvals(&unv, u)) != GrB_SUCCESS) K2_FAIL(info, "%s: u is not a valid GrB_Vector", fn);
  k2_profile_lap(pc, K2_PROFILE_VALIDATE);

  // The mask as skip bytes: the mask's own where it has them, else built (O(n))
  const uint8_t *skip = NULL;
  uint8_t *skip_own = NULL;
  uint64_t allowed = wn;
  if (mask != NULL || comp) {
    if (mask == NULL) {
      // complement of no mask: nothing may be written; GraphBLAS still computes nothing useful
      skip_own = malloc(wn > 0 ? wn : 1);
      if (skip_own == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory (%llu entries)", fn, (unsigned long long)wn);
      memset(skip_own, 1, wn);
      allowed = 0;
    } else if (!k2_bridge_skip_borrow(&skip, &allowed, mask, wn, comp, structure)) {
      if ((info = k2_bridge_skip_from_mask(&skip_own, &allowed, mask, wn, comp, structure)) != GrB_SUCCESS) return info;
    }
    if (skip_own != NULL) skip = skip_own;
    P.y_skip = skip;
    P.y_allowed_known = true;
    P.y_allowed = allowed;
    k2_profile_lap(pc, K2_PROFILE_MASK);
  }
  // a few inputs or a few allowed outputs: the engines may prune and list their outputs, and
  // the cost outside the traversal follows the entries (the reused workspace, a sparse result)
  const bool sparse_in = unv * 8 <= un && unv < un;
  const bool sparse = sparse_in || allowed * 4 <= wn;
  const char *how = NULL;
  k2_product_report report = {0};
  P.report = &report;
  K2_Engine ran = K2_ENGINE_AUTO;
  k2_result R = {.n = wn, .nvals = K2_NVALS_UNKNOWN};
  info = sparse ? k2_product_sparse(pc, &P, &R, &ran, A, u, c.type, c.reads_vec, sparse_in, un, wn)
                : k2_product_dense(pc, &P, &R, &ran, &how, A, u, c.type, c.reads_vec, wn, fn);
  if (info != GrB_SUCCESS) {
    free(skip_own);
    return info;
  }
  if (how == NULL) how = K2_engine_name(ran);
  K2_Path path = ran == K2_ENGINE_CUDA ? K2_PATH_NATIVE_GPU : K2_PATH_NATIVE_CPU;
  // exact for a sparse result (compacted without the masked-out entries)
  const bool mask_applied = R.indices != NULL;
  const GrB_Index tn = R.indices != NULL ? R.nvals : K2_NVALS_UNKNOWN;
  // the skip bytes are read before w is written (w may be the mask that lends them)
  info = k2_bridge_finish_vector(pc, w, mask, accum, wt, c.type, &R, replace, comp, structure,
                              mask_applied, skip, allowed, fn);
  free(skip_own);
  if (info != GrB_SUCCESS) return info;
  k2_api_set_path(path);
  if (k2_api_burble()) {
    // what was chosen and from what: u's entries and the mask's allowed outputs against the
    // thresholds (1/8 of the inputs, 1/4 of the outputs), the engine's traversal, the form of
    // the result
    char result[64] = "a dense result", traversal[160] = "";
    if (tn != K2_NVALS_UNKNOWN) snprintf(result, sizeof result, "%llu entries listed", (unsigned long long)tn);
    if (report.traversal != NULL) {
      snprintf(traversal, sizeof traversal, ", %s", report.traversal);
      if (report.estimate > 0) {
        snprintf(traversal + strlen(traversal), sizeof traversal - strlen(traversal),
                 " (estimated %.0f of %llu nodes", report.estimate, (unsigned long long)report.nodes);
        snprintf(traversal + strlen(traversal), sizeof traversal - strlen(traversal),
                 report.expanded > 0 ? ", %llu expanded)" : ")", (unsigned long long)report.expanded);
      }
    }
    k2_api_say(fn, path,
               "%s, %s product, u %llu of %llu entries, %s mask%s (%llu outputs allowed)%s: "
               "%s path, %s%s, %s, %.3f ms",
               c.name, left ? "left" : "right", (unsigned long long)unv, (unsigned long long)un,
               mask == NULL ? "no" : structure ? "structural" : "valued",
               comp ? " complemented" : "", (unsigned long long)allowed, accum ? ", accum" : "",
               sparse ? "sparse" : "dense", how, traversal, result, 1e3 * (k2_clock_now() - t0));
  }
  return GrB_SUCCESS;
}

GrB_Info K2_mxv(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const K2_Matrix A, const GrB_Vector u,
                const GrB_Descriptor desc) {
  k2_profile_call pc;
  k2_profile_begin(&pc);
  k2_error_clear();
  GrB_Info info = k2_bridge_done("K2_mxv", k2_product_vector(&pc, "K2_mxv", w, mask, accum,
                                                          semiring, A, u, desc, false));
  k2_profile_end(&pc);
  return info;
}

GrB_Info K2_vxm(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const GrB_Vector u, const K2_Matrix A,
                const GrB_Descriptor desc) {
  k2_profile_call pc;
  k2_profile_begin(&pc);
  k2_error_clear();
  GrB_Info info = k2_bridge_done("K2_vxm", k2_product_vector(&pc, "K2_vxm", w, mask, accum,
                                                          semiring, A, u, desc, true));
  k2_profile_end(&pc);
  return info;
}
