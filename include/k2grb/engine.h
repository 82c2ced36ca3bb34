// k2grb/engine.h: engine selection and the dense products.
// SPDX-License-Identifier: Apache-2.0
//
// Dense products take plain arrays: y = A (+).(x) x (right), y' = x' (+).(x) A (left) and the
// batched Y = A X with X row-major (ncols x B). Every y entry is written; an entry to which no
// edge contributes holds the monoid's identity. The GraphBLAS-semantics products (sparse
// vectors, masks, accumulators) are K2_mxv / K2_vxm / K2_mxm in ops.h.
#ifndef K2GRB_ENGINE_H
#define K2GRB_ENGINE_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

typedef enum {
  K2_ENGINE_AUTO = 0,   // the GPU when present and the product is native, else OpenMP
  K2_ENGINE_REFERENCE,  // sequential reference engine (the oracle)
  K2_ENGINE_OPENMP,     // OpenMP CPU engine
  K2_ENGINE_CUDA        // the CUDA engine
} K2_Engine;

// Global engine choice (default AUTO; the environment variable K2GRB_ENGINE=auto|reference|
// openmp|cuda sets it at K2_init, K2GRB_STRICT=1 strict mode). In strict mode an engine that declines is an error
// (GrB_NOT_IMPLEMENTED) instead of a silent fall back: tests use it to prove an engine ran.
GrB_Info K2_set_engine(K2_Engine engine);
GrB_Info K2_get_engine(K2_Engine *engine);
GrB_Info K2_set_strict(bool strict);
GrB_Info K2_get_strict(bool *strict);
// Which engine ran the last product of this thread.
K2_Engine K2_last_engine(void);
const char *K2_engine_name(K2_Engine engine);

// The dense semirings of the core (the bridge recognises many more, see ops.h).
typedef enum {
  K2_PLUS_TIMES = 0,  // y_i = sum_j A_ij * w * x_j           (FP32, FP64, INT32, INT64)
  K2_LOR_LAND,        // y_i = OR_j  A_ij AND x_j             (BOOL)
  K2_MIN_PLUS         // y_i = min_j A_ij (w + x_j), +inf/max (FP32, FP64, INT32, INT64)
} K2_DenseSemiring;

// type: GrB_BOOL, GrB_INT32, GrB_INT64, GrB_FP32 or GrB_FP64 (x and y both of this type).
GrB_Info K2_dense_mxv(void *y, K2_Matrix A, const void *x, K2_DenseSemiring semiring,
                      GrB_Type type);
GrB_Info K2_dense_vxm(void *y, const void *x, K2_Matrix A, K2_DenseSemiring semiring,
                      GrB_Type type);
// Y (nrows x B, row-major) = A X (ncols x B, row-major); transpose = true: Y = A' X.
GrB_Info K2_dense_mxm(void *Y, K2_Matrix A, const void *X, GrB_Index B, bool transpose,
                      K2_DenseSemiring semiring, GrB_Type type);

#endif
