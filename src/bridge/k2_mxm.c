// k2_mxm.c: K2_mxm (K2_Matrix first) and K2_mxm_right (K2_Matrix second).
// SPDX-License-Identifier: Apache-2.0
//
// With the dense operand B full, C = A*B is one batched product: column b of B is vector b of
// the batch (row-major X: entry s of vector b at s*k + b), and the result comes back as a
// row-major bitmap (pack_BitmapR, O(1)). With the K2_Matrix second, row b of B is the vector
// of a left product and the result is C in column-major order (pack_BitmapC). Mask, accum
// and replace are GraphBLAS's own (GrB_Matrix_apply with the identity). A B with missing
// entries takes the sparse form (k2_mxm_sparse.c). Anything else runs in SuiteSparse on the
// materialized matrix.
#include <stdlib.h>
#include <string.h>

#include "api/k2_api.h"
#include "bridge/k2_bridge.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "semiring/k2_semiring.h"
#include "util/k2_error.h"

#define K2_BATCH_MAX 65536
#define K2_SPARSE_PAIRS_MAX (UINT64_C(1) << 30)

static GrB_Info k2_fail_grb(GrB_Info info, GrB_Matrix C, const char *fn) {
  const char *msg = NULL;
  GrB_Matrix_error(&msg, C);
  K2_FAIL(info, "%s: %s", fn, msg && msg[0] ? msg : "the GraphBLAS operation on C failed");
}

// C<M> = accum (C, A*B) (k2_first) or accum (C, B*A), A the K2_Matrix.
static GrB_Info k2_product_matrix(const char *fn, GrB_Matrix C, GrB_Matrix M, GrB_BinaryOp accum,
                                  GrB_Semiring s, K2_Matrix A, GrB_Matrix B, GrB_Descriptor desc,
                                  bool k2_first) {
  k2_api_set_path(K2_PATH_NONE);
  if (C == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: C is NULL", fn);
  if (s == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: semiring is NULL", fn);
  if (B == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: B is NULL", fn);
  GrB_Info info;
  GrB_Index bnv = 0;
  k2_bridge_call call = {.fn = fn, .vectors = false, .k2_first = k2_first, .has_mask = M != NULL};
  if ((info = GrB_Matrix_nrows(&call.crows, C)) != GrB_SUCCESS ||
      (info = GrB_Matrix_ncols(&call.ccols, C)) != GrB_SUCCESS ||
      (info = GxB_Matrix_type(&call.ctype, C)) != GrB_SUCCESS) {
    K2_FAIL(info, "%s: C is not a valid GrB_Matrix", fn);
  }
  if (M != NULL && ((info = GrB_Matrix_nrows(&call.mrows, M)) != GrB_SUCCESS ||
                    (info = GrB_Matrix_ncols(&call.mcols, M)) != GrB_SUCCESS ||
                    (info = GxB_Matrix_type(&call.mtype, M)) != GrB_SUCCESS)) {
    K2_FAIL(info, "%s: M is not a valid GrB_Matrix", fn);
  }
  call.binfo = GrB_Matrix_nrows(&call.brows, B);
  if (call.binfo == GrB_SUCCESS) call.binfo = GrB_Matrix_ncols(&call.bcols, B);
  if (call.binfo == GrB_SUCCESS) call.binfo = GrB_Matrix_nvals(&bnv, B);
  if (call.binfo == GrB_SUCCESS) call.binfo = GxB_Matrix_type(&call.btype, B);
  if ((info = k2_bridge_call_check(&call, accum, s, A, desc)) != GrB_SUCCESS) return info;
  if (call.empty) return k2_bridge_call_empty(&call, C, M, accum, s, A, desc);
  const bool replace = call.replace, comp = call.comp, structure = call.structure;
  const bool tranB = call.tranB, tran0 = k2_first ? call.tranA : call.tranB;
  const bool tran1 = k2_first ? call.tranB : call.tranA;
  const GrB_Index br = call.brows, bc = call.bcols, cm = call.crows, ck = call.ccols;
  const GrB_Type ct = call.ctype, mt = call.mtype;
  const k2_semiring_class c = call.c;
  const GrB_Index batch = call.batch, xlen = call.inner, ylen = call.ylen;

  char whybuf[300];
  // a B that misses entries takes the workspace of the sparse form, which holds the batch's
  // values of x and of y (8 + 26 bytes per pair): bounded, so that a huge batch goes to
  // SuiteSparse instead of failing for memory
  const bool full = bnv == br * bc;
  const char *why = k2_bridge_call_fallback(
      &call, batch > K2_BATCH_MAX ? "more than 65536 vectors"
             : !full && (xlen * batch > K2_SPARSE_PAIRS_MAX || ylen * batch > K2_SPARSE_PAIRS_MAX)
                 ? "B is not full and the batch holds more than 2^30 values"
                 : NULL,
      whybuf, sizeof whybuf);
  if (why != NULL) {
    GrB_Matrix G = NULL, Bp = B;
    GrB_Descriptor d = NULL;
    bool temporary = false, btemporary = false, positional = k2_semiring_positional(s);
    if ((info = k2_bridge_grb(&G, &temporary, A, positional)) != GrB_SUCCESS) return info;
    info = k2_bridge_conform(&Bp, &btemporary, B, positional);
    // The caller's settings, and Gustavson's method for a masked product: 7.4's masked hash
    // method (its own choice for small outputs) never returns on some inputs
    if (info == GrB_SUCCESS) info = k2_bridge_desc_full(&d, replace, comp, structure, tran0, tran1);
    if (info == GrB_SUCCESS && (M != NULL || comp)) {
      info = GrB_Descriptor_set(d, GxB_AxB_METHOD, GxB_AxB_GUSTAVSON);
    }
    if (info == GrB_SUCCESS) {
      info = k2_first ? GrB_mxm(C, M, accum, s, G, Bp, d) : GrB_mxm(C, M, accum, s, Bp, G, d);
    }
    GrB_Descriptor_free(&d);
    if (temporary) GrB_Matrix_free(&G);
    if (btemporary) GrB_Matrix_free(&Bp);
    k2_api_set_path(K2_PATH_FALLBACK);
    if (k2_api_burble()) k2_api_say(fn, K2_PATH_FALLBACK, "%s", why);
    if (info != GrB_SUCCESS) return k2_fail_grb(info, C, fn);
    return GrB_SUCCESS;
  }

  if (!full) return k2_mxm_sparse(&call, C, M, accum, A, B, bnv);

  k2_product P;
  memset(&P, 0, sizeof P);
  k2_semiring_setup(&P, &c, A->weight);
  size_t ts = k2_type_size(c.type);
  GrB_Index nx = xlen * batch, ny = ylen * batch;
  GrB_Index *I = malloc((bnv > 0 ? bnv : 1) * sizeof(GrB_Index));
  GrB_Index *J = malloc((bnv > 0 ? bnv : 1) * sizeof(GrB_Index));
  void *V = malloc((bnv > 0 ? bnv : 1) * ts);
  void *x = malloc((nx > 0 ? nx : 1) * ts), *y = malloc((ny > 0 ? ny : 1) * ts);
  uint8_t *yp = malloc(ny > 0 ? ny : 1), *skip = NULL;
  GrB_Matrix T = NULL;
#define K2_FREE_WORK \
  do { free(I); free(J); free(V); free(x); free(y); free(yp); free(skip); GrB_Matrix_free(&T); } while (0)
  if (I == NULL || J == NULL || V == NULL || x == NULL || y == NULL || yp == NULL) {
    K2_FREE_WORK;
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", fn);
  }
  GrB_Index got = bnv;
  K2_TRY(k2_bridge_matrix_extract(I, J, V, &got, B, c.type));
  // B(i,j) -> effective B(r, q) -> x entry (vector index s, batch b)
  for (GrB_Index e = 0; e < got; e++) {
    GrB_Index r = tranB ? J[e] : I[e], q = tranB ? I[e] : J[e];
    GrB_Index sidx = k2_first ? r : q, b = k2_first ? q : r;
    memcpy((char *)x + (sidx * batch + b) * ts, (const char *)V + e * ts, ts);
  }
  free(I); free(J); free(V);
  I = J = NULL;
  V = NULL;
  if (M != NULL || comp) {
    // skip[(dst) * batch + b] for C(i,j): k2_first: dst = i, b = j; else dst = j, b = i
    skip = malloc(ny > 0 ? ny : 1);
    if (skip == NULL) {
      K2_FREE_WORK;
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    memset(skip, comp ? 0 : 1, ny);
    if (M != NULL) {
      GrB_Index mnv;
      K2_TRY(GrB_Matrix_nvals(&mnv, M));
      I = malloc((mnv > 0 ? mnv : 1) * sizeof(GrB_Index));
      J = malloc((mnv > 0 ? mnv : 1) * sizeof(GrB_Index));
      V = structure ? NULL : malloc(mnv > 0 ? mnv : 1);
      if (I == NULL || J == NULL || (!structure && V == NULL)) {
        K2_FREE_WORK;
        K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", fn);
      }
      // a structural mask may have any type, user-defined ones included: its pattern only
      if (structure && !k2_bridge_real_type(mt)) {
        K2_TRY(GrB_Matrix_extractTuples_UDT(I, J, NULL, &mnv, M));
      } else {
        K2_TRY(GrB_Matrix_extractTuples_BOOL(I, J, V, &mnv, M));
      }
      for (GrB_Index e = 0; e < mnv; e++) {
        if (!structure && !((bool *)V)[e]) continue;
        GrB_Index at = k2_first ? I[e] * batch + J[e] : J[e] * batch + I[e];
        skip[at] = comp ? 1 : 0;
      }
      free(I); free(J); free(V);
      I = J = NULL;
      V = NULL;
    }
  }
  P.left = call.left;
  P.batch = (uint32_t)batch;
  P.x = x;
  P.y = y;
  // B is full, so every x entry is present and C's structure is the occupancy of A's rows
  // (columns for a left product) in every column: known in advance, no presence tracking
  const uint8_t *occ = NULL;
  uint64_t occ_count = 0;
  K2_TRY(k2_api_occupancy(&occ, &occ_count, A, P.left));
  P.y_present = NULL;
  P.y_skip = skip;
  K2_Engine ran = K2_ENGINE_AUTO;
  K2_TRY(k2_dispatch_product(A, &P, &ran));
  K2_Path path = ran == K2_ENGINE_CUDA ? K2_PATH_NATIVE_GPU : K2_PATH_NATIVE_CPU;
  for (GrB_Index i = 0; i < ylen; i++) memset(yp + i * batch, occ[i], batch);
  GrB_Index nvals = occ_count * batch;
  GrB_Index ysize = (ny > 0 ? ny : 1) * ts, psize = ny > 0 ? ny : 1;
  bool direct = (M == NULL && !comp && accum == NULL && ct == c.grb_type);
  GrB_Matrix target = C;
  if (!direct) {
    K2_TRY(GrB_Matrix_new(&T, c.grb_type, cm, ck));
    target = T;
  }
  // row-major (A first: entry (i, b) at i*batch + b) or column-major (A second: C(b, j) at
  // j*batch + b) bitmap
  info = k2_first ? GxB_Matrix_pack_BitmapR(target, (int8_t **)&yp, &y, psize, ysize, false, nvals, NULL)
                  : GxB_Matrix_pack_BitmapC(target, (int8_t **)&yp, &y, psize, ysize, false, nvals, NULL);
  if (info != GrB_SUCCESS) {
    K2_FREE_WORK;
    K2_FAIL(info, "%s: SuiteSparse:GraphBLAS could not take the result matrix", fn);
  }
  if (!direct) {
    info = GrB_Matrix_apply(C, M, accum, k2_type_identity_op(c.type), T,
                            k2_bridge_desc(replace, comp, structure));
    if (info != GrB_SUCCESS) {
      GrB_Info r = k2_fail_grb(info, C, fn);
      K2_FREE_WORK;
      return r;
    }
  }
  K2_FREE_WORK;
#undef K2_FREE_WORK
  k2_api_set_path(path);
  if (k2_api_burble()) {
    k2_api_say(fn, path, "%s, batch of %llu %s products (%s engine)", c.name,
                  (unsigned long long)batch, P.left ? "left" : "right",
                  K2_engine_name(ran));
  }
  return GrB_SUCCESS;
}

GrB_Info K2_mxm(GrB_Matrix C, const GrB_Matrix M, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const K2_Matrix A, const GrB_Matrix B,
                const GrB_Descriptor desc) {
  k2_error_clear();
  return k2_bridge_done("K2_mxm", k2_product_matrix("K2_mxm", C, M, accum, semiring, A, B,
                                                    desc, true));
}

GrB_Info K2_mxm_right(GrB_Matrix C, const GrB_Matrix M, const GrB_BinaryOp accum,
                      const GrB_Semiring semiring, const GrB_Matrix B, const K2_Matrix A,
                      const GrB_Descriptor desc) {
  k2_error_clear();
  return k2_bridge_done("K2_mxm_right", k2_product_matrix("K2_mxm_right", C, M, accum,
                                                          semiring, A, B, desc, false));
}
