// k2_overlay.c: the K2_Matrix side of the calls include/k2grb/overlay.h redirects.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include <k2grb.h>
#include <k2grb/overlay.h>

#include "bridge/k2_bridge.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"


//----------------------------------------------------------------------------------------------
// extractTuples / extractElement / setElement: pattern from the tree, value = edge weight
//----------------------------------------------------------------------------------------------

static GrB_Info k2_tuples(GrB_Index *I, GrB_Index *J, void *X, GrB_Index *nvals, K2_Matrix A,
                          GrB_Type type, size_t size) {
  if (nvals == NULL) K2_FAIL(GrB_NULL_POINTER, "extractTuples: nvals is NULL");
  GrB_Info info = K2_Matrix_extractTuples(I, J, nvals, A);
  if (info != GrB_SUCCESS || X == NULL) return info;
  unsigned char v[16];
  if ((info = k2_bridge_cast_weight(v, type, A->weight)) != GrB_SUCCESS) {
    K2_MATRIX_FAIL(A, info, "extractTuples: the edge weight cannot be cast to X's type");
  }
  for (GrB_Index k = 0; k < *nvals; k++) memcpy((char *)X + k * size, v, size);
  return GrB_SUCCESS;
}

#define K2_DEF_TUPLES(T, ctype)                                                                \
  GrB_Info K2_Matrix_extractTuples_##T(GrB_Index *I, GrB_Index *J, ctype *X, GrB_Index *nvals,  \
                                       const K2_Matrix A) {                                    \
    return k2_tuples(I, J, X, nvals, A, GrB_##T, sizeof(ctype));                               \
  }
K2_OVERLAY_TYPED(K2_DEF_TUPLES)

GrB_Info K2_Matrix_extractTuples_UDT(GrB_Index *I, GrB_Index *J, void *X, GrB_Index *nvals,
                                     const K2_Matrix A) {
  if (X != NULL) {
    K2_FAIL(GrB_DOMAIN_MISMATCH, "extractTuples: a K2_Matrix has no user-defined values");
  }
  return K2_Matrix_extractTuples(I, J, nvals, A);
}

static GrB_Info k2_element(void *x, K2_Matrix A, GrB_Index i, GrB_Index j, GrB_Type type) {
  if (x == NULL) K2_FAIL(GrB_NULL_POINTER, "extractElement: x is NULL");
  bool present = false;
  GrB_Info info = K2_Matrix_isEntry(&present, A, i, j);
  if (info != GrB_SUCCESS) return info;
  if (!present) return GrB_NO_VALUE;
  return k2_bridge_cast_weight(x, type, A->weight);
}

#define K2_DEF_ELEMENT(T, ctype)                                                                  \
  GrB_Info K2_Matrix_extractElement_##T(ctype *x, const K2_Matrix A, GrB_Index i, GrB_Index j) { \
    return k2_element(x, A, i, j, GrB_##T);                                                       \
  }
K2_DEF_ELEMENT(INT8, int8_t)
K2_DEF_ELEMENT(INT16, int16_t)
K2_DEF_ELEMENT(INT32, int32_t)
K2_DEF_ELEMENT(INT64, int64_t)
K2_DEF_ELEMENT(UINT8, uint8_t)
K2_DEF_ELEMENT(UINT16, uint16_t)
K2_DEF_ELEMENT(UINT32, uint32_t)
K2_DEF_ELEMENT(UINT64, uint64_t)
K2_DEF_ELEMENT(FP32, float)

GrB_Info K2_Matrix_extractElement_UDT(void *x, const K2_Matrix A, GrB_Index i, GrB_Index j) {
  (void)x; (void)A; (void)i; (void)j;
  K2_FAIL(GrB_DOMAIN_MISMATCH, "extractElement: a K2_Matrix has no user-defined values");
}

// As GraphBLAS: an absent entry leaves x empty and is not an error.
GrB_Info K2_Matrix_extractElement_Scalar(GrB_Scalar x, const K2_Matrix A, GrB_Index i, GrB_Index j) {
  if (x == NULL) K2_FAIL(GrB_NULL_POINTER, "extractElement: x is NULL");
  bool present = false;
  GrB_Info info = K2_Matrix_isEntry(&present, A, i, j);
  if (info != GrB_SUCCESS) return info;
  return present ? GrB_Scalar_setElement_FP64(x, A->weight) : GrB_Scalar_clear(x);
}

#define K2_DEF_SET(T, ctype)                                                                \
  GrB_Info K2_Matrix_setElement_##T(K2_Matrix C, ctype x, GrB_Index i, GrB_Index j) {       \
    (void)x; /* the value is the matrix's edge weight */                                    \
    return K2_Matrix_setElement(C, i, j);                                                   \
  }
K2_OVERLAY_TYPED(K2_DEF_SET)

GrB_Info K2_Matrix_setElement_UDT(K2_Matrix C, void *x, GrB_Index i, GrB_Index j) {
  (void)x;
  return K2_Matrix_setElement(C, i, j);
}

GrB_Info K2_Matrix_setElement_Scalar(K2_Matrix C, GrB_Scalar x, GrB_Index i, GrB_Index j) {
  GrB_Index n = 0;
  GrB_Info info = GrB_Scalar_nvals(&n, x);
  if (info != GrB_SUCCESS) return info;
  // an empty scalar deletes the entry, as in GraphBLAS
  return n ? K2_Matrix_setElement(C, i, j) : K2_Matrix_removeElement(C, i, j);
}

GrB_Info K2_Matrix_waitMode(K2_Matrix A, GrB_WaitMode mode) {
  (void)mode;
  return K2_Matrix_wait(A);
}

//----------------------------------------------------------------------------------------------
// reductions
//----------------------------------------------------------------------------------------------

// Row reduction with a monoid is the product with (monoid, FIRST) and a full u: every A(i,j)
// contributes the matrix value, and w(i) exists iff row i has an entry. Native where the
// monoid is.
static GrB_Info k2_reduce_monoid(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                                 const GrB_Monoid monoid, const K2_Matrix A,
                                 const GrB_Descriptor desc) {
  if (monoid == NULL) K2_FAIL(GrB_NULL_POINTER, "GrB_reduce: monoid is NULL");
  GrB_Info info = k2_matrix_check(A, "GrB_reduce");
  if (info != GrB_SUCCESS) return info;
  GrB_BinaryOp op = NULL;
  GrB_Type t = NULL;
  if ((info = GxB_Monoid_operator(&op, monoid)) != GrB_SUCCESS ||
      (info = GxB_BinaryOp_ztype(&t, op)) != GrB_SUCCESS) {
    K2_FAIL(info, "GrB_reduce: monoid is not valid");
  }
  // The product with (monoid, FIRST): native for the engines' five types; the others take the
  // bridge's fallback, which also forms an empty reduction itself (SuiteSparse 7.4 reports a
  // dimension mismatch for one with an accumulator). A user-defined monoid has no FIRST.
  const GrB_Type types[] = {GrB_BOOL, GrB_INT8, GrB_INT16, GrB_INT32, GrB_INT64, GrB_UINT8,
                            GrB_UINT16, GrB_UINT32, GrB_UINT64, GrB_FP32, GrB_FP64, GxB_FC32,
                            GxB_FC64};
  const GrB_BinaryOp firsts[] = {GrB_FIRST_BOOL, GrB_FIRST_INT8, GrB_FIRST_INT16, GrB_FIRST_INT32,
                                 GrB_FIRST_INT64, GrB_FIRST_UINT8, GrB_FIRST_UINT16,
                                 GrB_FIRST_UINT32, GrB_FIRST_UINT64, GrB_FIRST_FP32,
                                 GrB_FIRST_FP64, GxB_FIRST_FC32, GxB_FIRST_FC64};
  GrB_BinaryOp first = NULL;
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    if (t == types[k]) first = firsts[k];
  }
  if (first == NULL) {
    GrB_Matrix G = NULL;
    bool temporary = false;
    if ((info = k2_bridge_grb(&G, &temporary, A, false)) != GrB_SUCCESS) return info;
    info = GrB_Matrix_reduce_Monoid(w, mask, accum, monoid, G, desc);
    if (temporary) GrB_Matrix_free(&G);
    return info;
  }
  bool replace, comp, structure, tran0, tran1;
  if ((info = k2_bridge_desc_read(desc, &replace, &comp, &structure, &tran0, &tran1)) != GrB_SUCCESS) {
    return info;
  }
  GrB_Index n = 0;
  if ((info = tran0 ? K2_Matrix_nrows(&n, A) : K2_Matrix_ncols(&n, A)) != GrB_SUCCESS) return info;
  GrB_Semiring s = NULL;
  GrB_Vector u = NULL;
  info = GrB_Semiring_new(&s, monoid, first);
  if (info == GrB_SUCCESS) info = GrB_Vector_new(&u, t, n);
  if (info == GrB_SUCCESS) info = GrB_Vector_assign_BOOL(u, NULL, NULL, true, GrB_ALL, n, NULL);
  if (info == GrB_SUCCESS) info = K2_mxv(w, mask, accum, s, A, u, desc);
  GrB_Vector_free(&u);
  GrB_Semiring_free(&s);
  return info;
}

GrB_Info K2_Matrix_reduce_Monoid(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                                 const GrB_Monoid monoid, const K2_Matrix A,
                                 const GrB_Descriptor desc) {
  k2_error_clear();
  return k2_bridge_done("GrB_reduce", k2_reduce_monoid(w, mask, accum, monoid, A, desc));
}

#define K2_WITH_GRB(A, call)                                       \
  do {                                                             \
    GrB_Matrix G = NULL;                                           \
    bool temporary = false;                                        \
    k2_error_clear();                                              \
    GrB_Info info_ = k2_matrix_check(A, "GrB_reduce");             \
    if (info_ == GrB_SUCCESS) info_ = k2_bridge_grb(&G, &temporary, A, false); \
    if (info_ != GrB_SUCCESS) return info_;                        \
    info_ = (call);                                                \
    if (temporary) GrB_Matrix_free(&G);                            \
    return k2_bridge_done("GrB_reduce", info_);                    \
  } while (0)

GrB_Info K2_Matrix_reduce_BinaryOp(GrB_Vector w, const GrB_Vector mask,
                                   const GrB_BinaryOp accum, const GrB_BinaryOp op,
                                   const K2_Matrix A, const GrB_Descriptor desc) {
  K2_WITH_GRB(A, GrB_Matrix_reduce_BinaryOp(w, mask, accum, op, G, desc));
}

#define K2_DEF_REDUCE(T, ctype)                                                                  \
  GrB_Info K2_Matrix_reduce_##T(ctype *c, const GrB_BinaryOp accum, const GrB_Monoid monoid,    \
                                const K2_Matrix A, const GrB_Descriptor desc) {                 \
    K2_WITH_GRB(A, GrB_Matrix_reduce_##T(c, accum, monoid, G, desc));                           \
  }
K2_OVERLAY_TYPED(K2_DEF_REDUCE)

GrB_Info K2_Matrix_reduce_UDT(void *c, const GrB_BinaryOp accum, const GrB_Monoid monoid,
                              const K2_Matrix A, const GrB_Descriptor desc) {
  K2_WITH_GRB(A, GrB_Matrix_reduce_UDT(c, accum, monoid, G, desc));
}

GrB_Info K2_Matrix_reduce_Monoid_Scalar(GrB_Scalar c, const GrB_BinaryOp accum,
                                        const GrB_Monoid monoid, const K2_Matrix A,
                                        const GrB_Descriptor desc) {
  K2_WITH_GRB(A, GrB_Matrix_reduce_Monoid_Scalar(c, accum, monoid, G, desc));
}

GrB_Info K2_Matrix_reduce_BinaryOp_Scalar(GrB_Scalar c, const GrB_BinaryOp accum,
                                          const GrB_BinaryOp op, const K2_Matrix A,
                                          const GrB_Descriptor desc) {
  K2_WITH_GRB(A, GrB_Matrix_reduce_BinaryOp_Scalar(c, accum, op, G, desc));
}

//----------------------------------------------------------------------------------------------
// transpose
//----------------------------------------------------------------------------------------------

GrB_Info K2_transpose_fromK2(GrB_Matrix C, const GrB_Matrix Mask, const GrB_BinaryOp accum,
                             const K2_Matrix A, const GrB_Descriptor desc) {
  K2_WITH_GRB(A, GrB_transpose(C, Mask, accum, G, desc));
}

// C = A' (or A with GrB_INP0 = GrB_TRAN) as a pattern; the tuples are swapped and rebuilt.
static GrB_Info k2_transpose_into(K2_Matrix C, const GrB_Matrix Mask, const GrB_BinaryOp accum,
                                  GrB_Index *I, GrB_Index *J, GrB_Index n, GrB_Index nr,
                                  GrB_Index nc, const GrB_Descriptor desc) {
  GrB_Info info = k2_matrix_check(C, "GrB_transpose");
  if (info != GrB_SUCCESS) return info;
  if (Mask != NULL || accum != NULL) {
    K2_FAIL(GrB_NOT_IMPLEMENTED, "GrB_transpose into a K2_Matrix: no mask or accum "
            "(use K2_Matrix_getGrB and GraphBLAS)");
  }
  bool replace, comp, structure, tran0, tran1;
  if ((info = k2_bridge_desc_read(desc, &replace, &comp, &structure, &tran0, &tran1)) != GrB_SUCCESS) {
    return info;
  }
  GrB_Index cr, cc;
  K2_Matrix_nrows(&cr, C);
  K2_Matrix_ncols(&cc, C);
  GrB_Index want_r = tran0 ? nr : nc, want_c = tran0 ? nc : nr;
  if (cr != want_r || cc != want_c) {
    K2_FAIL(GrB_DIMENSION_MISMATCH, "GrB_transpose: C is %llu x %llu, the result %llu x %llu",
            (unsigned long long)cr, (unsigned long long)cc,
            (unsigned long long)want_r, (unsigned long long)want_c);
  }
  return tran0 ? K2_Matrix_build(C, I, J, n) : K2_Matrix_build(C, J, I, n);
}

GrB_Info K2_transpose_K2K2(K2_Matrix C, const GrB_Matrix Mask, const GrB_BinaryOp accum,
                           const K2_Matrix A, const GrB_Descriptor desc) {
  GrB_Index n, nr, nc;
  GrB_Info info = K2_Matrix_nvals(&n, A);
  if (info != GrB_SUCCESS) return info;
  K2_Matrix_nrows(&nr, A);
  K2_Matrix_ncols(&nc, A);
  GrB_Index *I = malloc((n ? n : 1) * sizeof(GrB_Index)), *J = malloc((n ? n : 1) * sizeof(GrB_Index));
  if (I == NULL || J == NULL) {
    free(I);
    free(J);
    K2_FAIL(GrB_OUT_OF_MEMORY, "GrB_transpose: out of memory");
  }
  info = K2_Matrix_extractTuples(I, J, &n, A);
  if (info == GrB_SUCCESS) info = k2_transpose_into(C, Mask, accum, I, J, n, nr, nc, desc);
  if (info == GrB_SUCCESS && C != A) info = K2_Matrix_setEdgeWeight(C, A->weight);
  free(I);
  free(J);
  return info;
}

GrB_Info K2_transpose_GrBK2(K2_Matrix C, const GrB_Matrix Mask, const GrB_BinaryOp accum,
                            const GrB_Matrix A, const GrB_Descriptor desc) {
  if (A == NULL) K2_FAIL(GrB_NULL_POINTER, "GrB_transpose: A is NULL");
  K2_Matrix T = NULL;
  GrB_Info info = K2_Matrix_fromGrB(&T, A);
  if (info == GrB_SUCCESS) info = K2_transpose_K2K2(C, Mask, accum, T, desc);
  K2_Matrix_free(&T);
  return info;
}
