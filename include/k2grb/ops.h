// k2grb/ops.h: GraphBLAS-semantics products on a K2_Matrix, and the SuiteSparse bridge.
// SPDX-License-Identifier: Apache-2.0
//
// K2_mxv, K2_vxm and K2_mxm have the signatures and exact semantics of GrB_mxv, GrB_vxm and
// GrB_mxm (GraphBLAS C API 2.0 as implemented by SuiteSparse:GraphBLAS 7.4) with the matrix
// A a K2_Matrix: masks (valued or structural, complemented or not), accumulator, replace,
// GrB_INP0 / GrB_INP1 transpose, typecasting, aliasing of w with u and the mask. On error w
// is left as it was. A K2_Matrix behaves as the GrB_Matrix of its pattern whose entries all
// hold the edge weight: type GrB_BOOL when the weight is 1, else GrB_FP64 (iso).
//
// Products whose semiring the engines run natively (docs/graphblas.md has the table) run on
// the tree; every other one runs in SuiteSparse on a GrB_Matrix materialized from the tree and
// cached in the K2_Matrix until it changes or is freed ("fallback").
#ifndef K2GRB_OPS_H
#define K2GRB_OPS_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

// w<mask> = accum (w, A*u)       (A' * u with GrB_INP0 = GrB_TRAN)
GrB_Info K2_mxv(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const K2_Matrix A, const GrB_Vector u,
                const GrB_Descriptor desc);
// w'<mask> = accum (w, u'*A)     (u' * A' with GrB_INP1 = GrB_TRAN)
GrB_Info K2_vxm(GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const GrB_Vector u, const K2_Matrix A,
                const GrB_Descriptor desc);
// C<M> = accum (C, A*B): native (one batched product) when B is full (every entry present)
// and the semiring is native; any other case runs in SuiteSparse.
GrB_Info K2_mxm(GrB_Matrix C, const GrB_Matrix M, const GrB_BinaryOp accum,
                const GrB_Semiring semiring, const K2_Matrix A, const GrB_Matrix B,
                const GrB_Descriptor desc);
// C<M> = accum (C, B*A) with the K2_Matrix second: native when B is full.
GrB_Info K2_mxm_right(GrB_Matrix C, const GrB_Matrix M, const GrB_BinaryOp accum,
                      const GrB_Semiring semiring, const GrB_Matrix B, const K2_Matrix A,
                      const GrB_Descriptor desc);

//==============================================================================================
// the materialized GrB_Matrix
//==============================================================================================

// The GrB_Matrix equal to A (see above), built on first use and cached in A until A changes
// or is freed. It belongs to A: do not free or modify it; it is valid until the next change
// of A. Any GraphBLAS operation may read it.
GrB_Info K2_Matrix_getGrB(GrB_Matrix *G, K2_Matrix A);

// Fallback products cache the materialized matrix (default true). false: each fallback
// builds a temporary GrB_Matrix and frees it (saves memory, costs a conversion per call).
// K2_Matrix_getGrB caches regardless.
GrB_Info K2_set_grb_cache(bool enable);
GrB_Info K2_get_grb_cache(bool *enable);

//==============================================================================================
// which path a product took
//==============================================================================================

typedef enum {
  K2_PATH_NONE = 0,      // no product ran (error before it)
  K2_PATH_NATIVE_CPU,    // the tree, CPU engine
  K2_PATH_NATIVE_GPU,    // the tree, CUDA engine
  K2_PATH_FALLBACK       // SuiteSparse on the materialized GrB_Matrix
} K2_Path;

// The path of the calling thread's last K2_mxv / K2_vxm / K2_mxm.
K2_Path K2_last_path(void);
const char *K2_path_name(K2_Path path);

// Burble: print one line per product to stderr saying which path it took and why. On when
// K2_set_burble(true) was called, or (default) the environment variable K2GRB_BURBLE is 1 (read
// at the first product), or GraphBLAS's own burble is on: GxB_set (GxB_BURBLE, true) turns on
// both libraries' lines (SuiteSparse's on stdout, k2grb's on stderr), GxB_set (GxB_BURBLE,
// false) turns off what it turned on. K2_get_burble says whether products burble now.
GrB_Info K2_set_burble(bool enable);
GrB_Info K2_get_burble(bool *enable);

// Force every product to the fallback path (for comparisons and debugging; default false).
GrB_Info K2_set_force_fallback(bool enable);

#endif
