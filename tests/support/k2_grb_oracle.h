// k2_grb_oracle.h: SuiteSparse:GraphBLAS as the oracle of the bridge tests (test_differential,
// test_sparse_products): the matrix built independently from an edge list, the product with
// GraphBLAS's semantics, and the comparison of two vectors.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_GRB_ORACLE_H
#define K2_GRB_ORACLE_H

#include "k2_test.h"

// The matrix as GraphBLAS builds it from the ne pairs (I[k], J[k]) (duplicates merged), every
// entry `weight` (GrB_BOOL for weight 1, else GrB_FP64, as a K2_Matrix materializes), held as
// sparse or bitmap storage, never hypersparse: there SuiteSparse 7.4 computes positional
// multiplies wrongly and crashes on some products with a full valued mask.
GrB_Matrix k2_oracle_grb_matrix(GrB_Index nr, GrB_Index nc, const GrB_Index *I, const GrB_Index *J,
                                GrB_Index ne, double weight);

// The oracle's w<mask> = accum (w, A*u) (u'*A with vxm; A' with tran), as the C API defines it:
// T = A*u by GraphBLAS without the mask, then w<mask> = accum (w, T) by GrB_Vector_assign with T
// a bitmap. Not GrB_mxv with the mask: some of SuiteSparse 7.4's masked product kernels never
// return or crash (an iso u with a bitmap mask, a full valued mask), and the tests are after
// k2grb's faults, not those. u may be w (T is formed before w is written).
GrB_Info k2_oracle_grb_product(GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Semiring s,
                               GrB_Matrix G, GrB_Vector u, bool vxm, bool tran, bool replace,
                               bool comp, bool structure);

// a == b, or within tol relative to max(1, |a|, |b|) (tol 0: exactly; NaN equals NaN).
bool k2_close_enough(double a, double b, double tol);

// Whether value is acceptable at index i although it differs from the oracle's (an ANY monoid:
// one of the contributions).
typedef bool (*k2_value_allowed_fn)(void *ctx, GrB_Index i, double value);

// Same structure and values (as FP64, k2_close_enough with tol, or allowed). On a difference,
// false with the first one in why: "nvals ...", "structure differs at entry k: index i vs j"
// or "value at i: a (k2) vs b (GraphBLAS)".
bool k2_same_vector(GrB_Vector a, GrB_Vector b, double tol, k2_value_allowed_fn allowed,
                    void *ctx, char *why, size_t whylen);

#endif
