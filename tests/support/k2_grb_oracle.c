// k2_grb_oracle.c: SuiteSparse:GraphBLAS as the oracle of the bridge tests.
// SPDX-License-Identifier: Apache-2.0
#include "k2_grb_oracle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

GrB_Matrix k2_oracle_grb_matrix(GrB_Index nr, GrB_Index nc, const GrB_Index *I, const GrB_Index *J,
                                GrB_Index ne, double weight) {
  GrB_Matrix G = NULL;
  double *X = malloc((ne + 1) * sizeof(double));
  assert_non_null(X);
  for (GrB_Index k = 0; k < ne; k++) X[k] = weight;
  assert_int_equal(GrB_Matrix_new(&G, weight == 1 ? GrB_BOOL : GrB_FP64, nr, nc), GrB_SUCCESS);
  assert_int_equal(GrB_Matrix_build_FP64(G, I, J, X, ne, GrB_FIRST_FP64), GrB_SUCCESS);
  assert_int_equal(GxB_Matrix_Option_set(G, GxB_SPARSITY_CONTROL, GxB_SPARSE + GxB_BITMAP + GxB_FULL),
                   GrB_SUCCESS);
  free(X);
  return G;
}

GrB_Info k2_oracle_grb_product(GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Semiring s,
                               GrB_Matrix G, GrB_Vector u, bool vxm, bool tran, bool replace,
                               bool comp, bool structure) {
  GrB_BinaryOp mult = NULL;
  GrB_Type zt = NULL;
  GrB_Index n = 0;
  assert_int_equal(GxB_Semiring_multiply(&mult, s), GrB_SUCCESS);
  assert_int_equal(GxB_BinaryOp_ztype(&zt, mult), GrB_SUCCESS);
  assert_int_equal(GrB_Vector_size(&n, w), GrB_SUCCESS);
  GrB_Vector T = NULL;
  assert_int_equal(GrB_Vector_new(&T, zt, n), GrB_SUCCESS);
  assert_int_equal(GxB_Vector_Option_set(T, GxB_SPARSITY_CONTROL, GxB_BITMAP), GrB_SUCCESS);
  GrB_Descriptor dt = !tran ? NULL : vxm ? GrB_DESC_T1 : GrB_DESC_T0;
  GrB_Info info = vxm ? GrB_vxm(T, NULL, NULL, s, u, G, dt) : GrB_mxv(T, NULL, NULL, s, G, u, dt);
  if (info == GrB_SUCCESS) {
    GrB_Descriptor d = NULL;
    assert_int_equal(GrB_Descriptor_new(&d), GrB_SUCCESS);
    if (replace) assert_int_equal(GrB_Descriptor_set(d, GrB_OUTP, GrB_REPLACE), GrB_SUCCESS);
    if (comp || structure) {
      assert_int_equal(GxB_Desc_set(d, GrB_MASK, (comp ? GrB_COMP : 0) + (structure ? GrB_STRUCTURE : 0)), GrB_SUCCESS);
    }
    info = GrB_Vector_assign(w, mask, accum, T, GrB_ALL, n, d);
    GrB_Descriptor_free(&d);
  }
  GrB_Vector_free(&T);
  return info;
}

bool k2_close_enough(double a, double b, double tol) {
  if (a == b || (isnan(a) && isnan(b))) return true;
  if (tol == 0) return false;
  double m = fmax(1.0, fmax(fabs(a), fabs(b)));
  return fabs(a - b) <= tol * m;
}

bool k2_same_vector(GrB_Vector a, GrB_Vector b, double tol, k2_value_allowed_fn allowed,
                    void *ctx, char *why, size_t whylen) {
  GrB_Index na, nb;
  assert_int_equal(GrB_Vector_nvals(&na, a), GrB_SUCCESS);
  assert_int_equal(GrB_Vector_nvals(&nb, b), GrB_SUCCESS);
  if (na != nb) {
    snprintf(why, whylen, "nvals %llu (k2) vs %llu (GraphBLAS)", (unsigned long long)na,
             (unsigned long long)nb);
    return false;
  }
  // extractTuples keeps whatever order a vector is in: finished vectors are sorted
  assert_int_equal(GrB_Vector_wait(a, GrB_MATERIALIZE), GrB_SUCCESS);
  assert_int_equal(GrB_Vector_wait(b, GrB_MATERIALIZE), GrB_SUCCESS);
  GrB_Index *Ia = malloc((na + 1) * sizeof(GrB_Index)), *Ib = malloc((na + 1) * sizeof(GrB_Index));
  double *Xa = malloc((na + 1) * sizeof(double)), *Xb = malloc((na + 1) * sizeof(double));
  assert_true(Ia && Ib && Xa && Xb);
  assert_int_equal(GrB_Vector_extractTuples_FP64(Ia, Xa, &na, a), GrB_SUCCESS);
  assert_int_equal(GrB_Vector_extractTuples_FP64(Ib, Xb, &nb, b), GrB_SUCCESS);
  bool ok = true;
  for (GrB_Index k = 0; k < na && ok; k++) {
    if (Ia[k] != Ib[k]) {
      snprintf(why, whylen, "structure differs at entry %llu: index %llu vs %llu",
               (unsigned long long)k, (unsigned long long)Ia[k], (unsigned long long)Ib[k]);
      ok = false;
    } else if (!k2_close_enough(Xa[k], Xb[k], tol) && !(allowed && allowed(ctx, Ia[k], Xa[k]))) {
      snprintf(why, whylen, "value at %llu: %.17g (k2) vs %.17g (GraphBLAS)",
               (unsigned long long)Ia[k], Xa[k], Xb[k]);
      ok = false;
    }
  }
  free(Ia);
  free(Ib);
  free(Xa);
  free(Xb);
  return ok;
}
