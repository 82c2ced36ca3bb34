// k2_call.c: what K2_mxv, K2_vxm, K2_mxm and K2_mxm_right share before their native or fallback
// paths: the checks in GraphBLAS's order, the dimensions, the empty product, and the reasons to
// hand a product to SuiteSparse.
// SPDX-License-Identifier: Apache-2.0
//
// A vector is the n x 1 matrix GraphBLAS makes of it (a GrB_Vector is a GrB_Matrix there): in
// K2_vxm the product is w' = u' A, so u and w enter as the 1 x n rows u' and w'.
#include <stdio.h>

#include "api/k2_api.h"
#include "bridge/k2_bridge.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

GrB_Info k2_bridge_call_check(k2_bridge_call *call, GrB_BinaryOp accum, GrB_Semiring s, K2_Matrix A,
                           GrB_Descriptor desc) {
  const char *fn = call->fn;
  GrB_Info info;
  // in GraphBLAS's order after the output and the mask: accum, semiring, A, the input, desc
  call->ztype = NULL;
  if (accum != NULL && (info = GxB_BinaryOp_ztype(&call->ztype, accum)) != GrB_SUCCESS) {
    K2_FAIL(info, "%s: accum is not a valid GrB_BinaryOp", fn);
  }
  if ((info = k2_semiring_classify(&call->c, s, call->k2_first)) != GrB_SUCCESS) return info;
  if ((info = k2_api_check_matrix(A, fn)) != GrB_SUCCESS) return info;
  if (call->binfo != GrB_SUCCESS) {
    K2_FAIL(call->binfo, "%s: %s is not a valid %s", fn, call->vectors ? "u" : "B",
            call->vectors ? "GrB_Vector" : "GrB_Matrix");
  }
  bool tran0, tran1;
  if ((info = k2_bridge_desc_read(desc, &call->replace, &call->comp, &call->structure, &tran0,
                               &tran1)) != GrB_SUCCESS) {
    return info;
  }
  call->tranA = call->k2_first ? tran0 : tran1;
  call->tranB = call->vectors ? false : call->k2_first ? tran1 : tran0;

  // effective shapes: A' and B' where transposed; C = A*B or B*A
  const GrB_Index ar = A->tree.nrows, ac = A->tree.ncols;
  const GrB_Index a_r = call->tranA ? ac : ar, a_c = call->tranA ? ar : ac;
  const GrB_Index b_r = call->tranB ? call->bcols : call->brows;
  const GrB_Index b_c = call->tranB ? call->brows : call->bcols;
  const GrB_Index rows = call->k2_first ? a_r : b_r, cols = call->k2_first ? b_c : a_c;
  call->inner = call->k2_first ? a_c : b_c;
  const GrB_Index inner2 = call->k2_first ? b_r : a_r;
  call->left = call->k2_first ? call->tranA : !call->tranA;
  if (call->vectors) {
    const GrB_Index wn = call->k2_first ? call->crows : call->ccols;
    const GrB_Index un = call->k2_first ? call->brows : call->bcols;
    if (call->has_mask && call->mrows * call->mcols != wn) {
      K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: mask has size %llu, w has size %llu", fn,
              (unsigned long long)(call->mrows * call->mcols), (unsigned long long)wn);
    }
    if (inner2 != call->inner || call->crows != rows || call->ccols != cols) {
      K2_FAIL(GrB_DIMENSION_MISMATCH,
              "%s: dimensions of w (%llu), A%s (%llu x %llu) and u (%llu) do not match", fn,
              (unsigned long long)wn, call->left ? "'" : "",
              (unsigned long long)(call->left ? ac : ar), (unsigned long long)(call->left ? ar : ac),
              (unsigned long long)un);
    }
  } else {
    if (call->has_mask && (call->mrows != call->crows || call->mcols != call->ccols)) {
      K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: M is %llu x %llu, C is %llu x %llu", fn,
              (unsigned long long)call->mrows, (unsigned long long)call->mcols,
              (unsigned long long)call->crows, (unsigned long long)call->ccols);
    }
    if (call->inner != inner2 || call->crows != rows || call->ccols != cols) {
      K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: C (%llu x %llu) = (%llu x %llu) * (%llu x %llu)", fn,
              (unsigned long long)call->crows, (unsigned long long)call->ccols,
              (unsigned long long)rows, (unsigned long long)call->inner,
              (unsigned long long)inner2, (unsigned long long)cols);
    }
  }
  // the vectors of the batch and their lengths (one vector for mxv / vxm)
  call->batch = call->k2_first ? cols : rows;
  call->ylen = call->k2_first ? rows : cols;
  call->empty = call->inner == 0 || call->crows == 0 || call->ccols == 0;
  return GrB_SUCCESS;
}

const char *k2_bridge_call_fallback(const k2_bridge_call *call, const char *extra, char *buf,
                                 size_t len) {
  const char *why = NULL;
  if (!call->c.native) why = call->c.why;
  else if (k2_api_force_fallback()) why = "fallback forced (K2_set_force_fallback)";
  else if (extra != NULL) why = extra;
  else if (!k2_bridge_real_type(call->ctype)) {
    why = call->vectors ? "w has a complex or user-defined type" : "C has a complex or user-defined type";
  } else if (!k2_bridge_real_type(call->btype)) {
    why = call->vectors ? "u has a complex or user-defined type" : "B has a complex or user-defined type";
  } else if (call->has_mask && !call->structure && !k2_bridge_real_type(call->mtype)) {
    why = "valued mask of a complex or user-defined type";
  } else if (call->ztype != NULL && !k2_bridge_real_type(call->ztype)) {
    why = "accum of a complex or user-defined type";
  }
  if (why == NULL) return NULL;
  snprintf(buf, len, "%s: %s", call->c.name, why);
  return buf;
}

GrB_Info k2_bridge_call_empty(const k2_bridge_call *call, GrB_Matrix C, GrB_Matrix M,
                           GrB_BinaryOp accum, GrB_Semiring s, K2_Matrix A, GrB_Descriptor desc) {
  const char *fn = call->fn;
  // GraphBLAS's domain checks first, on objects of size 1
  GrB_Info info = k2_bridge_check_domains(fn, call->ctype, call->has_mask ? call->mtype : NULL,
                                       accum, s, k2_bridge_grb_type(A->weight), call->btype,
                                       call->vectors ? 1 : 2, desc, !call->k2_first);
  if (info != GrB_SUCCESS) return info;
  // T is empty whatever the semiring: C<M> = accum (C, T) formed directly (SuiteSparse 7.4
  // mishandles an empty inner dimension: DIMENSION_MISMATCH with an accumulator, C left as it
  // was on some formats)
  GrB_BinaryOp mult = NULL;
  GrB_Type zt = NULL;
  GrB_Matrix T = NULL;
  GrB_Index r = 0, k = 0;
  info = GxB_Semiring_multiply(&mult, s);
  if (info == GrB_SUCCESS) info = GxB_BinaryOp_ztype(&zt, mult);
  if (info == GrB_SUCCESS) info = GrB_Matrix_nrows(&r, C);  // as stored (a vector: n x 1)
  if (info == GrB_SUCCESS) info = GrB_Matrix_ncols(&k, C);
  if (info == GrB_SUCCESS) info = GrB_Matrix_new(&T, zt, r, k);
  if (info == GrB_SUCCESS) {
    info = GrB_Matrix_assign(C, M, accum, T, GrB_ALL, r, GrB_ALL, k,
                             k2_bridge_desc(call->replace, call->comp, call->structure));
  }
  GrB_Matrix_free(&T);
  k2_api_set_path(K2_PATH_NATIVE_CPU);
  if (k2_api_burble()) k2_api_say(fn, K2_PATH_NATIVE_CPU, "empty product (a dimension is 0)");
  if (info != GrB_SUCCESS) {
    const char *msg = NULL;
    GrB_Matrix_error(&msg, C);
    K2_FAIL(info, "%s: %s", fn, msg && msg[0] ? msg : "assigning the empty product failed");
  }
  return GrB_SUCCESS;
}
