// k2grb/overlay.h: the drop-in overlay. GrB_ calls that graph algorithms make on their
// adjacency matrix accept a K2_Matrix as well as a GrB_Matrix (C11 _Generic).
// SPDX-License-Identifier: Apache-2.0
//
// Include after <k2grb.h> (which includes GraphBLAS.h). A GraphBLAS program then switches
// storage by changing the declared type of its matrix and how it is built, nothing else:
//
//   GrB_mxv GrB_vxm GrB_mxm           native product or SuiteSparse fallback (ops.h)
//   GrB_Matrix_nrows / ncols / nvals  GrB_Matrix_dup (to a K2_Matrix)  GrB_free  GrB_wait
//   GrB_Matrix_extractTuples[_T]      GrB_Matrix_extractElement[_T]   (values = edge weight)
//   GrB_Matrix_setElement[_T]         GrB_Matrix_removeElement        (the value is ignored:
//                                     a K2_Matrix holds a pattern and one edge weight)
//   GrB_reduce                        to a vector: native (a product with FIRST); to a scalar:
//                                     on the cached GrB_Matrix
//   GrB_transpose                     K2 input: on the cached GrB_Matrix; K2 output (no mask,
//                                     no accum): the transposed pattern, built as a tree
//   GxB_print GxB_fprint              K2_Matrix_fprint with the variable's name (matrix.h)
//
// Anything else takes K2_Matrix_getGrB(&G, A) and calls GraphBLAS on G. C only: C++ has no
// _Generic (and GraphBLAS 7.4's header has no extern "C").
#ifndef K2GRB_OVERLAY_H
#define K2GRB_OVERLAY_H

#ifndef K2GRB_H
#error "include <k2grb.h> before <k2grb/overlay.h>"
#endif

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "k2grb/overlay.h needs C11 (_Generic)"
#endif

//==============================================================================================
// the K2_Matrix side of the overlaid calls (src/bridge/k2_overlay.c)
//==============================================================================================

#define K2_OVERLAY_TYPED(macro)                                     \
  macro(BOOL, bool) macro(INT8, int8_t) macro(INT16, int16_t)       \
  macro(INT32, int32_t) macro(INT64, int64_t) macro(UINT8, uint8_t) \
  macro(UINT16, uint16_t) macro(UINT32, uint32_t)                   \
  macro(UINT64, uint64_t) macro(FP32, float) macro(FP64, double)

#define K2_OVERLAY_DECL_TUPLES(T, ctype)                                              \
  GrB_Info K2_Matrix_extractTuples_##T(GrB_Index *I, GrB_Index *J, ctype *X,          \
                                       GrB_Index *nvals, const K2_Matrix A);
K2_OVERLAY_TYPED(K2_OVERLAY_DECL_TUPLES)
GrB_Info K2_Matrix_extractTuples_UDT(GrB_Index *I, GrB_Index *J, void *X, GrB_Index *nvals,
                                     const K2_Matrix A);

// _BOOL and _FP64 are in matrix.h
#define K2_OVERLAY_DECL_ELEMENT(T, ctype) \
  GrB_Info K2_Matrix_extractElement_##T(ctype *x, const K2_Matrix A, GrB_Index i, GrB_Index j);
K2_OVERLAY_DECL_ELEMENT(INT8, int8_t)
K2_OVERLAY_DECL_ELEMENT(INT16, int16_t)
K2_OVERLAY_DECL_ELEMENT(INT32, int32_t)
K2_OVERLAY_DECL_ELEMENT(INT64, int64_t)
K2_OVERLAY_DECL_ELEMENT(UINT8, uint8_t)
K2_OVERLAY_DECL_ELEMENT(UINT16, uint16_t)
K2_OVERLAY_DECL_ELEMENT(UINT32, uint32_t)
K2_OVERLAY_DECL_ELEMENT(UINT64, uint64_t)
K2_OVERLAY_DECL_ELEMENT(FP32, float)
GrB_Info K2_Matrix_extractElement_UDT(void *x, const K2_Matrix A, GrB_Index i, GrB_Index j);
GrB_Info K2_Matrix_extractElement_Scalar(GrB_Scalar x, const K2_Matrix A, GrB_Index i, GrB_Index j);

#define K2_OVERLAY_DECL_SET(T, ctype) \
  GrB_Info K2_Matrix_setElement_##T(K2_Matrix C, ctype x, GrB_Index i, GrB_Index j);
K2_OVERLAY_TYPED(K2_OVERLAY_DECL_SET)
GrB_Info K2_Matrix_setElement_UDT(K2_Matrix C, void *x, GrB_Index i, GrB_Index j);
GrB_Info K2_Matrix_setElement_Scalar(K2_Matrix C, GrB_Scalar x, GrB_Index i, GrB_Index j);

// GrB_wait's shape
GrB_Info K2_Matrix_waitMode(K2_Matrix A, GrB_WaitMode mode);

// reductions
GrB_Info K2_Matrix_reduce_Monoid(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                                 const GrB_Monoid monoid, const K2_Matrix A,
                                 const GrB_Descriptor desc);
GrB_Info K2_Matrix_reduce_BinaryOp(GrB_Vector w, const GrB_Vector mask,
                                   const GrB_BinaryOp accum, const GrB_BinaryOp op,
                                   const K2_Matrix A, const GrB_Descriptor desc);
#define K2_OVERLAY_DECL_REDUCE(T, ctype)                                                    \
  GrB_Info K2_Matrix_reduce_##T(ctype *c, const GrB_BinaryOp accum, const GrB_Monoid monoid, \
                                const K2_Matrix A, const GrB_Descriptor desc);
K2_OVERLAY_TYPED(K2_OVERLAY_DECL_REDUCE)
GrB_Info K2_Matrix_reduce_UDT(void *c, const GrB_BinaryOp accum, const GrB_Monoid monoid,
                              const K2_Matrix A, const GrB_Descriptor desc);
GrB_Info K2_Matrix_reduce_Monoid_Scalar(GrB_Scalar c, const GrB_BinaryOp accum,
                                        const GrB_Monoid monoid, const K2_Matrix A,
                                        const GrB_Descriptor desc);
GrB_Info K2_Matrix_reduce_BinaryOp_Scalar(GrB_Scalar c, const GrB_BinaryOp accum,
                                          const GrB_BinaryOp op, const K2_Matrix A,
                                          const GrB_Descriptor desc);

// transpose: K2 input into a GrB_Matrix; into a K2_Matrix from either
GrB_Info K2_transpose_fromK2(GrB_Matrix C, const GrB_Matrix Mask, const GrB_BinaryOp accum,
                             const K2_Matrix A, const GrB_Descriptor desc);
GrB_Info K2_transpose_K2K2(K2_Matrix C, const GrB_Matrix Mask, const GrB_BinaryOp accum,
                           const K2_Matrix A, const GrB_Descriptor desc);
GrB_Info K2_transpose_GrBK2(K2_Matrix C, const GrB_Matrix Mask, const GrB_BinaryOp accum,
                            const GrB_Matrix A, const GrB_Descriptor desc);

//==============================================================================================
// the overlay
//==============================================================================================

#define K2_OVERLAY_CASES(p, func)                                          \
  const bool p : func##_BOOL, bool p : func##_BOOL,                        \
  const int8_t p : func##_INT8, int8_t p : func##_INT8,                    \
  const int16_t p : func##_INT16, int16_t p : func##_INT16,                \
  const int32_t p : func##_INT32, int32_t p : func##_INT32,                \
  const int64_t p : func##_INT64, int64_t p : func##_INT64,                \
  const uint8_t p : func##_UINT8, uint8_t p : func##_UINT8,                \
  const uint16_t p : func##_UINT16, uint16_t p : func##_UINT16,            \
  const uint32_t p : func##_UINT32, uint32_t p : func##_UINT32,            \
  const uint64_t p : func##_UINT64, uint64_t p : func##_UINT64,            \
  const float p : func##_FP32, float p : func##_FP32,                      \
  const double p : func##_FP64, double p : func##_FP64

#undef GrB_mxv
#define GrB_mxv(w, mask, accum, s, A, u, desc) \
  _Generic((A), K2_Matrix: K2_mxv, default: GrB_mxv)(w, mask, accum, s, A, u, desc)
#undef GrB_vxm
#define GrB_vxm(w, mask, accum, s, u, A, desc) \
  _Generic((A), K2_Matrix: K2_vxm, default: GrB_vxm)(w, mask, accum, s, u, A, desc)
#undef GrB_mxm
#define GrB_mxm(C, M, accum, s, A, B, desc)                                                  \
  _Generic((A), K2_Matrix: K2_mxm, default: _Generic((B), K2_Matrix: K2_mxm_right,         \
                                                      default: GrB_mxm))(C, M, accum, s, A, B, desc)

#undef GrB_Matrix_nrows
#define GrB_Matrix_nrows(n, A) _Generic((A), K2_Matrix: K2_Matrix_nrows, default: GrB_Matrix_nrows)(n, A)
#undef GrB_Matrix_ncols
#define GrB_Matrix_ncols(n, A) _Generic((A), K2_Matrix: K2_Matrix_ncols, default: GrB_Matrix_ncols)(n, A)
#undef GrB_Matrix_nvals
#define GrB_Matrix_nvals(n, A) _Generic((A), K2_Matrix: K2_Matrix_nvals, default: GrB_Matrix_nvals)(n, A)
#undef GrB_Matrix_dup
#define GrB_Matrix_dup(C, A) _Generic((A), K2_Matrix: K2_Matrix_dup, default: GrB_Matrix_dup)(C, A)
#undef GrB_Matrix_removeElement
#define GrB_Matrix_removeElement(C, i, j) \
  _Generic((C), K2_Matrix: K2_Matrix_removeElement, default: GrB_Matrix_removeElement)(C, i, j)

// typed names: one macro each
#define K2_OVERLAY_TUPLES_T(T, ctype)                                                        \
  _Generic((A), K2_Matrix: K2_Matrix_extractTuples_##T, default: GrB_Matrix_extractTuples_##T)
#undef GrB_Matrix_extractTuples_BOOL
#define GrB_Matrix_extractTuples_BOOL(I, J, X, n, A) K2_OVERLAY_TUPLES_T(BOOL, bool)(I, J, X, n, A)
#undef GrB_Matrix_extractTuples_INT32
#define GrB_Matrix_extractTuples_INT32(I, J, X, n, A) K2_OVERLAY_TUPLES_T(INT32, int32_t)(I, J, X, n, A)
#undef GrB_Matrix_extractTuples_INT64
#define GrB_Matrix_extractTuples_INT64(I, J, X, n, A) K2_OVERLAY_TUPLES_T(INT64, int64_t)(I, J, X, n, A)
#undef GrB_Matrix_extractTuples_UINT64
#define GrB_Matrix_extractTuples_UINT64(I, J, X, n, A) K2_OVERLAY_TUPLES_T(UINT64, uint64_t)(I, J, X, n, A)
#undef GrB_Matrix_extractTuples_FP32
#define GrB_Matrix_extractTuples_FP32(I, J, X, n, A) K2_OVERLAY_TUPLES_T(FP32, float)(I, J, X, n, A)
#undef GrB_Matrix_extractTuples_FP64
#define GrB_Matrix_extractTuples_FP64(I, J, X, n, A) K2_OVERLAY_TUPLES_T(FP64, double)(I, J, X, n, A)

#define K2_OVERLAY_ELEMENT_T(T)                                                              \
  _Generic((A), K2_Matrix: K2_Matrix_extractElement_##T, default: GrB_Matrix_extractElement_##T)
#undef GrB_Matrix_extractElement_BOOL
#define GrB_Matrix_extractElement_BOOL(x, A, i, j) K2_OVERLAY_ELEMENT_T(BOOL)(x, A, i, j)
#undef GrB_Matrix_extractElement_INT32
#define GrB_Matrix_extractElement_INT32(x, A, i, j) K2_OVERLAY_ELEMENT_T(INT32)(x, A, i, j)
#undef GrB_Matrix_extractElement_INT64
#define GrB_Matrix_extractElement_INT64(x, A, i, j) K2_OVERLAY_ELEMENT_T(INT64)(x, A, i, j)
#undef GrB_Matrix_extractElement_FP32
#define GrB_Matrix_extractElement_FP32(x, A, i, j) K2_OVERLAY_ELEMENT_T(FP32)(x, A, i, j)
#undef GrB_Matrix_extractElement_FP64
#define GrB_Matrix_extractElement_FP64(x, A, i, j) K2_OVERLAY_ELEMENT_T(FP64)(x, A, i, j)

// generic names: dispatch on the matrix, then (as GraphBLAS.h does) on the value's type
#undef GrB_Matrix_extractTuples
#define GrB_Matrix_extractTuples(I, J, X, n, A)                                              \
  _Generic((A),                                                                              \
      K2_Matrix: _Generic((X), K2_OVERLAY_CASES(*, K2_Matrix_extractTuples),                 \
                          default: K2_Matrix_extractTuples_UDT),                             \
      default: _Generic((X), GB_CASES(*, GrB, Matrix_extractTuples)))(I, J, X, n, A)
#undef GrB_Matrix_extractElement
#define GrB_Matrix_extractElement(x, A, i, j)                                                \
  _Generic((A),                                                                              \
      K2_Matrix: _Generic((x), K2_OVERLAY_CASES(*, K2_Matrix_extractElement),                \
                          const void *: K2_Matrix_extractElement_UDT,                        \
                          void *: K2_Matrix_extractElement_UDT,                              \
                          default: K2_Matrix_extractElement_Scalar),                         \
      default: _Generic((x), GB_CASES(*, GrB, Matrix_extractElement),                        \
                        default: GrB_Matrix_extractElement_Scalar))(x, A, i, j)
#undef GrB_Matrix_setElement
#define GrB_Matrix_setElement(C, x, i, j)                                                    \
  _Generic((C),                                                                              \
      K2_Matrix: _Generic((x), K2_OVERLAY_CASES(, K2_Matrix_setElement),                     \
                          const void *: K2_Matrix_setElement_UDT,                            \
                          void *: K2_Matrix_setElement_UDT,                                  \
                          default: K2_Matrix_setElement_Scalar),                             \
      default: _Generic((x), GB_CASES(, GrB, Matrix_setElement),                             \
                        default: GrB_Matrix_setElement_Scalar))(C, x, i, j)

#undef GrB_free
#define GrB_free(object)                                                                     \
  _Generic((object),                                                                         \
      K2_Matrix *: K2_Matrix_free,                                                           \
      GrB_Type *: GrB_Type_free, GrB_UnaryOp *: GrB_UnaryOp_free,                            \
      GrB_BinaryOp *: GrB_BinaryOp_free, GxB_SelectOp *: GxB_SelectOp_free,                  \
      GrB_IndexUnaryOp *: GrB_IndexUnaryOp_free, GrB_Monoid *: GrB_Monoid_free,              \
      GrB_Semiring *: GrB_Semiring_free, GrB_Scalar *: GrB_Scalar_free,                      \
      GrB_Vector *: GrB_Vector_free, GrB_Matrix *: GrB_Matrix_free,                          \
      GrB_Descriptor *: GrB_Descriptor_free, GxB_Iterator *: GxB_Iterator_free)(object)

#undef GrB_wait
#define GrB_wait(object, waitmode)                                                           \
  _Generic((object),                                                                         \
      K2_Matrix: K2_Matrix_waitMode,                                                         \
      GrB_Type: GrB_Type_wait, GrB_UnaryOp: GrB_UnaryOp_wait,                                \
      GrB_BinaryOp: GrB_BinaryOp_wait, GxB_SelectOp: GxB_SelectOp_wait,                      \
      GrB_IndexUnaryOp: GrB_IndexUnaryOp_wait, GrB_Monoid: GrB_Monoid_wait,                  \
      GrB_Semiring: GrB_Semiring_wait, GrB_Scalar: GrB_Scalar_wait,                          \
      GrB_Vector: GrB_Vector_wait, GrB_Matrix: GrB_Matrix_wait,                              \
      GrB_Descriptor: GrB_Descriptor_wait)(object, waitmode)

#undef GrB_transpose
#define GrB_transpose(C, Mask, accum, A, desc)                                               \
  _Generic((C),                                                                              \
      K2_Matrix: _Generic((A), K2_Matrix: K2_transpose_K2K2, default: K2_transpose_GrBK2),   \
      default: _Generic((A), K2_Matrix: K2_transpose_fromK2, default: GrB_transpose))(       \
      C, Mask, accum, A, desc)

// GxB_fprint as GraphBLAS.h defines it (the object's name is its source text), plus K2_Matrix.
// GxB_print is GraphBLAS.h's own (GxB_fprint with f NULL), redefined here the same way so that
// it does not depend on the order of the two headers' definitions.
#undef GxB_fprint
#define GxB_fprint(object, pr, f)                                                            \
  _Generic((object),                                                                         \
      K2_Matrix: K2_Matrix_fprint,                                                           \
      const GrB_Type: GxB_Type_fprint, GrB_Type: GxB_Type_fprint,                            \
      const GrB_UnaryOp: GxB_UnaryOp_fprint, GrB_UnaryOp: GxB_UnaryOp_fprint,                \
      const GrB_BinaryOp: GxB_BinaryOp_fprint, GrB_BinaryOp: GxB_BinaryOp_fprint,            \
      const GrB_IndexUnaryOp: GxB_IndexUnaryOp_fprint,                                       \
      GrB_IndexUnaryOp: GxB_IndexUnaryOp_fprint,                                             \
      const GxB_SelectOp: GxB_SelectOp_fprint, GxB_SelectOp: GxB_SelectOp_fprint,            \
      const GrB_Monoid: GxB_Monoid_fprint, GrB_Monoid: GxB_Monoid_fprint,                    \
      const GrB_Semiring: GxB_Semiring_fprint, GrB_Semiring: GxB_Semiring_fprint,            \
      const GrB_Scalar: GxB_Scalar_fprint, GrB_Scalar: GxB_Scalar_fprint,                    \
      const GrB_Vector: GxB_Vector_fprint, GrB_Vector: GxB_Vector_fprint,                    \
      const GrB_Matrix: GxB_Matrix_fprint, GrB_Matrix: GxB_Matrix_fprint,                    \
      const GrB_Descriptor: GxB_Descriptor_fprint,                                           \
      GrB_Descriptor: GxB_Descriptor_fprint)(object, GB_STR(object), pr, f)
#undef GxB_print
#define GxB_print(object, pr) GxB_fprint(object, pr, NULL)

// GrB_reduce: arg4 is the matrix (to a scalar) or the operator (to a vector, the matrix is
// then the fifth argument)
#define K2_OVERLAY_FIRST(a, ...) a
#define K2_OVERLAY_TO_VECTOR(kind, m)                                                        \
  _Generic((m), K2_Matrix: K2_Matrix_reduce_##kind, default: GrB_Matrix_reduce_##kind)
#define K2_OVERLAY_TO_SCALAR(c, op)                                                          \
  _Generic((c), K2_OVERLAY_CASES(*, K2_Matrix_reduce),                                       \
           default: _Generic((op), const GrB_BinaryOp: K2_Matrix_reduce_BinaryOp_Scalar,     \
                             GrB_BinaryOp: K2_Matrix_reduce_BinaryOp_Scalar,                 \
                             default: K2_Matrix_reduce_Monoid_Scalar))
#undef GrB_reduce
#define GrB_reduce(arg1, arg2, arg3, arg4, ...)                                              \
  _Generic((arg4),                                                                           \
      const GrB_Vector: GB_REDUCE_TO_SCALAR(Vector, arg1, arg3),                             \
      GrB_Vector: GB_REDUCE_TO_SCALAR(Vector, arg1, arg3),                                   \
      const GrB_Matrix: GB_REDUCE_TO_SCALAR(Matrix, arg1, arg3),                             \
      GrB_Matrix: GB_REDUCE_TO_SCALAR(Matrix, arg1, arg3),                                   \
      K2_Matrix: K2_OVERLAY_TO_SCALAR(arg1, arg3),                                           \
      const GrB_Monoid: K2_OVERLAY_TO_VECTOR(Monoid, K2_OVERLAY_FIRST(__VA_ARGS__, 0)),      \
      GrB_Monoid: K2_OVERLAY_TO_VECTOR(Monoid, K2_OVERLAY_FIRST(__VA_ARGS__, 0)),            \
      const GrB_BinaryOp: K2_OVERLAY_TO_VECTOR(BinaryOp, K2_OVERLAY_FIRST(__VA_ARGS__, 0)),  \
      GrB_BinaryOp: K2_OVERLAY_TO_VECTOR(BinaryOp, K2_OVERLAY_FIRST(__VA_ARGS__, 0)))(      \
      arg1, arg2, arg3, arg4, __VA_ARGS__)

#endif
