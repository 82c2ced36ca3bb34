// test_bridge_edges.c: the edges of the GraphBLAS front end, one test per defect a library in
// front of SuiteSparse:GraphBLAS 7.4 can have there. Each compares with GraphBLAS on a matrix
// GraphBLAS built itself, and runs under a time limit (a hang ends the program, naming it).
//
// - positional multiplies on a hypersparse-shaped matrix (SuiteSparse computes them wrongly on
//   hypersparse storage: the bridge must not hand it that);
// - a dense matrix with a valued mask and a transpose, and a product with a caller's B held as
//   sparse storage at a bitmap's density: SuiteSparse 7.4 never returns on some storage that it
//   would not choose itself;
// - zero-width results, user-defined types for a structural mask and for u with an empty inner
//   dimension: the codes the GraphBLAS C API gives;
// - a failed call's message is its own, never an earlier call's.
// SPDX-License-Identifier: Apache-2.0
#include "k2_test.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *current_test = "";

static void on_timeout(int sig) {
  (void)sig;
  const char *a = "test_bridge_edges: ", *b = " exceeded its time limit (a hang)\n";
  if (write(2, a, strlen(a)) < 0 || write(2, current_test, strlen(current_test)) < 0 ||
      write(2, b, strlen(b)) < 0) {
    _exit(3);
  }
  _exit(3);
}

// Each test gets 120 s (the sanitizer build is slow); the calls under test take milliseconds.
static void limit(const char *name) {
  current_test = name;
  signal(SIGALRM, on_timeout);
  alarm(120);
}

// Equal vectors: same pattern, same values (exact: every case here is integer-valued).
static void assert_same_vector(GrB_Vector a, GrB_Vector b) {
  GrB_Index na, nb;
  K2_ASSERT_OK(GrB_Vector_nvals(&na, a));
  K2_ASSERT_OK(GrB_Vector_nvals(&nb, b));
  assert_int_equal(na, nb);
  K2_ASSERT_OK(GrB_Vector_wait(a, GrB_MATERIALIZE));  // extractTuples then gives sorted indices
  K2_ASSERT_OK(GrB_Vector_wait(b, GrB_MATERIALIZE));
  GrB_Index *Ia = malloc((na + 1) * sizeof(GrB_Index)), *Ib = malloc((na + 1) * sizeof(GrB_Index));
  double *Xa = malloc((na + 1) * sizeof(double)), *Xb = malloc((na + 1) * sizeof(double));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(Ia, Xa, &na, a));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(Ib, Xb, &nb, b));
  for (GrB_Index k = 0; k < na; k++) {
    assert_int_equal(Ia[k], Ib[k]);
    assert_true(Xa[k] == Xb[k]);
  }
  free(Ia);
  free(Ib);
  free(Xa);
  free(Xb);
}

static void assert_same_matrix(GrB_Matrix a, GrB_Matrix b) {
  GrB_Index na, nb;
  K2_ASSERT_OK(GrB_Matrix_nvals(&na, a));
  K2_ASSERT_OK(GrB_Matrix_nvals(&nb, b));
  assert_int_equal(na, nb);
  GrB_Matrix ca = NULL, cb = NULL;
  K2_ASSERT_OK(GrB_Matrix_dup(&ca, a));
  K2_ASSERT_OK(GrB_Matrix_dup(&cb, b));
  K2_ASSERT_OK(GxB_Matrix_Option_set(ca, GxB_FORMAT, GxB_BY_ROW));
  K2_ASSERT_OK(GxB_Matrix_Option_set(cb, GxB_FORMAT, GxB_BY_ROW));
  K2_ASSERT_OK(GrB_Matrix_wait(ca, GrB_MATERIALIZE));
  K2_ASSERT_OK(GrB_Matrix_wait(cb, GrB_MATERIALIZE));
  GrB_Index *I = malloc(4 * (na + 1) * sizeof(GrB_Index));
  double *X = malloc(2 * (na + 1) * sizeof(double));
  K2_ASSERT_OK(GrB_Matrix_extractTuples_FP64(I, I + (na + 1), X, &na, ca));
  K2_ASSERT_OK(GrB_Matrix_extractTuples_FP64(I + 2 * (na + 1), I + 3 * (na + 1), X + na + 1, &nb, cb));
  for (GrB_Index k = 0; k < na; k++) {
    assert_int_equal(I[k], I[2 * (na + 1) + k]);
    assert_int_equal(I[(na + 1) + k], I[3 * (na + 1) + k]);
    assert_true(X[k] == X[na + 1 + k]);
  }
  free(I);
  free(X);
  GrB_Matrix_free(&ca);
  GrB_Matrix_free(&cb);
}

// A and the same pattern as GraphBLAS builds it (its own storage choice), every entry `weight`.
static void build_pair(K2_Matrix *A, GrB_Matrix *G, GrB_Index nr, GrB_Index nc,
                       const GrB_Index *I, const GrB_Index *J, GrB_Index ne, double weight) {
  K2_ASSERT_OK(K2_Matrix_new(A, nr, nc));
  K2_ASSERT_OK(K2_Matrix_build(*A, I, J, ne));
  K2_ASSERT_OK(K2_Matrix_setEdgeWeight(*A, weight));
  double *X = malloc((ne + 1) * sizeof(double));
  for (GrB_Index k = 0; k < ne; k++) X[k] = weight;
  K2_ASSERT_OK(GrB_Matrix_new(G, weight == 1 ? GrB_BOOL : GrB_FP64, nr, nc));
  K2_ASSERT_OK(GrB_Matrix_build_FP64(*G, I, J, X, ne, GrB_FIRST_FP64));
  free(X);
}

// MIN_FIRSTI on a 2000 x 2000 matrix whose entries are all in rows 100-109: w(i) = i for each
// row that reaches u. The answer the C API defines, not the one SuiteSparse 7.4 gives on
// hypersparse storage (0, the position of the row in its list of rows).
static void test_positional_hypersparse(void **state) {
  (void)state;
  limit("test_positional_hypersparse");
  const GrB_Index n = 2000;
  GrB_Index I[100], J[100], ne = 0;
  for (GrB_Index i = 100; i < 110; i++)
    for (GrB_Index j = 0; j < 10; j++) {
      I[ne] = i;
      J[ne++] = j;
    }
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, n, n));
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, ne));
  GrB_Vector u = NULL, w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_INT64, n));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_INT64, n));
  K2_ASSERT_OK(GrB_Vector_setElement_INT64(u, 1, 6));
  GrB_Semiring S[] = {GxB_MIN_FIRSTI_INT64, GxB_ANY_FIRSTI_INT64, GxB_ANY_FIRSTI1_INT64,
                      GxB_PLUS_FIRSTI_INT64};
  for (int s = 0; s < 4; s++) {
    K2_ASSERT_OK(K2_mxv(w, NULL, NULL, S[s], A, u, GrB_DESC_R));
    GrB_Index nv;
    K2_ASSERT_OK(GrB_Vector_nvals(&nv, w));
    assert_int_equal(nv, 10);
    for (GrB_Index i = 100; i < 110; i++) {
      int64_t x = -1;
      K2_ASSERT_OK(GrB_Vector_extractElement_INT64(&x, w, i));
      assert_int_equal(x, (int64_t)i + (s == 2));
    }
  }
  // u' A' with SECONDJ: the output index is A's row again
  K2_ASSERT_OK(K2_vxm(w, NULL, NULL, GxB_MIN_SECONDJ_INT64, u, A, GrB_DESC_RT1));
  for (GrB_Index i = 100; i < 110; i++) {
    int64_t x = -1;
    K2_ASSERT_OK(GrB_Vector_extractElement_INT64(&x, w, i));
    assert_int_equal(x, (int64_t)i);
  }
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  K2_Matrix_free(&A);
}

// 460 x 460 at density 0.71, MAX_TIMES_INT64, a valued INT32 mask, an accumulator and A'.
// SuiteSparse 7.4 does not return on this matrix held as sparse storage (which it would hold
// as a bitmap itself); the bridge must hand it a matrix it handles.
static void test_dense_masked_transposed(void **state) {
  (void)state;
  limit("test_dense_masked_transposed");
  k2_rng rng = {1}, *r = &rng;
  const GrB_Index n = 460;
  GrB_Index *I = malloc(n * n * sizeof(GrB_Index)), *J = malloc(n * n * sizeof(GrB_Index)), ne = 0;
  for (GrB_Index i = 0; i < n; i++)
    for (GrB_Index j = 0; j < n; j++)
      if (k2_rng_unit(r) < 0.71) {
        I[ne] = i;
        J[ne++] = j;
      }
  K2_Matrix A = NULL;
  GrB_Matrix G = NULL;
  build_pair(&A, &G, n, n, I, J, ne, -0.5);
  GrB_Vector u = NULL, w1 = NULL, w2 = NULL, m = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, n));
  K2_ASSERT_OK(GrB_Vector_new(&w1, GrB_INT64, n));
  K2_ASSERT_OK(GrB_Vector_new(&m, GrB_INT32, n));
  double du = k2_rng_unit(r) * 0.1, dw = k2_rng_unit(r), dm = k2_rng_unit(r);
  for (GrB_Index i = 0; i < n; i++) {
    if (k2_rng_unit(r) < du) K2_ASSERT_OK(GrB_Vector_setElement_FP32(u, (float)k2_rng_below(r, 5) - 2, i));
    if (k2_rng_unit(r) < dw) K2_ASSERT_OK(GrB_Vector_setElement_INT64(w1, (int64_t)k2_rng_below(r, 5) - 2, i));
    if (k2_rng_unit(r) < dm) K2_ASSERT_OK(GrB_Vector_setElement_INT32(m, (int32_t)k2_rng_below(r, 2), i));
  }
  K2_ASSERT_OK(GxB_Vector_Option_set(m, GxB_SPARSITY_CONTROL, GxB_BITMAP));
  K2_ASSERT_OK(GrB_Vector_dup(&w2, w1));
  K2_ASSERT_OK(K2_mxv(w1, m, GrB_PLUS_INT64, GrB_MAX_TIMES_SEMIRING_INT64, A, u, GrB_DESC_T0));
  assert_int_equal(K2_last_path(), K2_PATH_FALLBACK);
  K2_ASSERT_OK(GrB_mxv(w2, m, GrB_PLUS_INT64, GrB_MAX_TIMES_SEMIRING_INT64, G, u, GrB_DESC_T0));
  assert_same_vector(w1, w2);
  GrB_Vector_free(&u);
  GrB_Vector_free(&w1);
  GrB_Vector_free(&w2);
  GrB_Vector_free(&m);
  GrB_Matrix_free(&G);
  K2_Matrix_free(&A);
  free(I);
  free(J);
}

// C<M, struct> += B * A with a 31 x 1826 block of A inside 2323 x 2323 (hypersparse-shaped)
// and B a 1 x 2323 UINT8 matrix at density 0.07 that the caller asked to keep hypersparse: a
// matrix of one row cannot be, so SuiteSparse holds it as sparse storage, on which 7.4 does not
// return from this product; in the storage it would choose itself (a bitmap) it answers at
// once. The bridge hands it that.
static void test_sparse_held_operand(void **state) {
  (void)state;
  limit("test_sparse_held_operand");
  k2_rng rng = {52}, *r = &rng;
  const GrB_Index n = 2323, br = 31, bc = 1826;
  GrB_Index r0 = k2_rng_below(r, n - br), c0 = k2_rng_below(r, n - bc);
  GrB_Index *I = malloc(br * bc * sizeof(GrB_Index)), *J = malloc(br * bc * sizeof(GrB_Index)), ne = 0;
  for (GrB_Index i = 0; i < br; i++)
    for (GrB_Index j = 0; j < bc; j++) {
      I[ne] = r0 + i;
      J[ne++] = c0 + j;
    }
  K2_Matrix A = NULL;
  GrB_Matrix G = NULL;
  build_pair(&A, &G, n, n, I, J, ne, 1);
  GrB_Matrix B = NULL, C1 = NULL, M = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&B, GrB_UINT8, 1, n));
  K2_ASSERT_OK(GrB_Matrix_new(&C1, GrB_FP32, 1, n));
  K2_ASSERT_OK(GrB_Matrix_new(&M, GrB_UINT8, 1, n));
  double db = 0.07, dc = 0.1, dm = 0.94;
  for (GrB_Index j = 0; j < n; j++) {
    if (k2_rng_unit(r) < db) K2_ASSERT_OK(GrB_Matrix_setElement_INT64(B, (int64_t)k2_rng_below(r, 5) - 2, 0, j));
    if (k2_rng_unit(r) < dc) K2_ASSERT_OK(GrB_Matrix_setElement_INT64(C1, (int64_t)k2_rng_below(r, 5) - 2, 0, j));
    if (k2_rng_unit(r) < dm) K2_ASSERT_OK(GrB_Matrix_setElement_INT64(M, (int64_t)k2_rng_below(r, 2), 0, j));
  }
  K2_ASSERT_OK(GxB_Matrix_Option_set(B, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE));
  K2_ASSERT_OK(GxB_Matrix_Option_set(C1, GxB_SPARSITY_CONTROL, GxB_BITMAP));
  K2_ASSERT_OK(GxB_Matrix_Option_set(M, GxB_SPARSITY_CONTROL, GxB_FULL));
  GrB_Matrix C2 = NULL, B2 = NULL;
  K2_ASSERT_OK(GrB_Matrix_dup(&C2, C1));
  K2_ASSERT_OK(GrB_Matrix_dup(&B2, B));
  K2_ASSERT_OK(GxB_Matrix_Option_set(B2, GxB_SPARSITY_CONTROL, GxB_AUTO_SPARSITY));
 K2_ASSERT_OK(K2_mxm_right(C1, M, GrB_PLUS_INT64, GrB_PLUS_TIMES_SEMIRING_UINT8, B, A, GrB_DESC_S));
  K2_ASSERT_OK(GrB_mxm(C2, M, GrB_PLUS_INT64, GrB_PLUS_TIMES_SEMIRING_UINT8, B2, G, GrB_DESC_S));
  assert_same_matrix(C1, C2);
  GrB_Matrix_free(&B);
  GrB_Matrix_free(&B2);
  GrB_Matrix_free(&C1);
  GrB_Matrix_free(&C2);
  GrB_Matrix_free(&M);
  GrB_Matrix_free(&G);
  K2_Matrix_free(&A);
  free(I);
  free(J);
}

// Zero-width results are successes (C API and SuiteSparse): B of 0 columns, B of 0 rows for
// the K2_Matrix second, w of size 0; with and without a mask and an accumulator.
static void test_zero_width(void **state) {
  (void)state;
  limit("test_zero_width");
  GrB_Index I[] = {0, 1, 2}, J[] = {1, 2, 0};
  K2_Matrix A = NULL, Z = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 3, 3));
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, 3));
  K2_ASSERT_OK(K2_Matrix_new(&Z, 0, 3));
  GrB_Matrix B = NULL, C = NULL, M = NULL, Bt = NULL, Ct = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&B, GrB_FP32, 3, 0));
  K2_ASSERT_OK(GrB_Matrix_new(&C, GrB_FP32, 3, 0));
  K2_ASSERT_OK(GrB_Matrix_new(&M, GrB_BOOL, 3, 0));
  K2_ASSERT_OK(GrB_Matrix_new(&Bt, GrB_FP32, 0, 3));
  K2_ASSERT_OK(GrB_Matrix_new(&Ct, GrB_FP32, 0, 3));
  GrB_Semiring S[] = {GrB_PLUS_TIMES_SEMIRING_FP32, GrB_MAX_TIMES_SEMIRING_FP64};  // native, not
  for (int s = 0; s < 2; s++) {
    K2_ASSERT_OK(K2_mxm(C, NULL, NULL, S[s], A, B, NULL));
    K2_ASSERT_OK(K2_mxm(C, M, GrB_PLUS_FP32, S[s], A, B, GrB_DESC_R));
    K2_ASSERT_OK(K2_mxm_right(Ct, NULL, NULL, S[s], Bt, A, NULL));
    K2_ASSERT_OK(K2_mxm_right(Ct, NULL, GrB_PLUS_FP32, S[s], Bt, A, GrB_DESC_T1));
    GrB_Vector w = NULL, u = NULL, m = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, 0));
    K2_ASSERT_OK(GrB_Vector_new(&m, GrB_FP32, 0));
    K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, 3));
    K2_ASSERT_OK(GrB_Vector_assign_FP32(u, NULL, NULL, 1.0f, GrB_ALL, 3, NULL));
    K2_ASSERT_OK(K2_mxv(w, NULL, NULL, S[s], Z, u, NULL));
    K2_ASSERT_OK(K2_mxv(w, m, GrB_PLUS_FP32, S[s], Z, u, GrB_DESC_RC));
    GrB_Vector_free(&w);
    GrB_Vector_free(&u);
    GrB_Vector_free(&m);
  }
  GrB_Index nv = 1;
  K2_ASSERT_OK(GrB_Matrix_nvals(&nv, C));
  assert_int_equal(nv, 0);
  GrB_Matrix_free(&B);
  GrB_Matrix_free(&C);
  GrB_Matrix_free(&M);
  GrB_Matrix_free(&Bt);
  GrB_Matrix_free(&Ct);
  K2_Matrix_free(&A);
  K2_Matrix_free(&Z);
}

typedef struct { int64_t a, b; } pair_t;

// A structural mask only needs a pattern: any type, user-defined ones included (the C API
// asks bool-castability of valued masks only). A valued mask of that type is a domain error.
static void test_user_typed_masks(void **state) {
  (void)state;
  limit("test_user_typed_masks");
  GrB_Type P = NULL;
  K2_ASSERT_OK(GrB_Type_new(&P, sizeof(pair_t)));
  const GrB_Index n = 8;
  GrB_Index I[] = {0, 1, 2, 3, 4, 5, 6, 7, 0}, J[] = {1, 2, 3, 4, 5, 6, 7, 0, 4};
  K2_Matrix A = NULL;
  GrB_Matrix G = NULL;
  build_pair(&A, &G, n, n, I, J, 9, 1);
  GrB_Vector u = NULL, m = NULL, w1 = NULL, w2 = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, n));
  K2_ASSERT_OK(GrB_Vector_assign_FP32(u, NULL, NULL, 2.0f, GrB_ALL, n, NULL));
  K2_ASSERT_OK(GrB_Vector_new(&m, P, n));
  pair_t v = {1, 2};
  for (GrB_Index i = 0; i < n; i += 3) K2_ASSERT_OK(GrB_Vector_setElement_UDT(m, &v, i));
  GrB_Descriptor descs[] = {GrB_DESC_S, GrB_DESC_SC, GrB_DESC_RS, GrB_DESC_RSC};
  for (int d = 0; d < 4; d++) {
    for (int vxm = 0; vxm < 2; vxm++) {
      K2_ASSERT_OK(GrB_Vector_new(&w1, GrB_FP32, n));
      K2_ASSERT_OK(GrB_Vector_setElement_FP32(w1, 5.0f, 1));
      K2_ASSERT_OK(GrB_Vector_dup(&w2, w1));
      if (vxm) {
        K2_ASSERT_OK(K2_vxm(w1, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, u, A, descs[d]));
        K2_ASSERT_OK(GrB_vxm(w2, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, u, G, descs[d]));
      } else {
        K2_ASSERT_OK(K2_mxv(w1, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, descs[d]));
        K2_ASSERT_OK(GrB_mxv(w2, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, G, u, descs[d]));
      }
      assert_int_not_equal(K2_last_path(), K2_PATH_FALLBACK);  // the native path reads it
      assert_same_vector(w1, w2);
      GrB_Vector_free(&w1);
      GrB_Vector_free(&w2);
    }
  }
  // the valued form: GraphBLAS's domain error, w untouched
  K2_ASSERT_OK(GrB_Vector_new(&w1, GrB_FP32, n));
  K2_ASSERT_OK(GrB_Vector_new(&w2, GrB_FP32, n));
  assert_int_equal(K2_mxv(w1, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL),
                   GrB_mxv(w2, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, G, u, NULL));
  assert_int_equal(K2_mxv(w1, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL), GrB_DOMAIN_MISMATCH);
  assert_true(strstr(K2_error_string(), "K2_mxv") != NULL);
  GrB_Vector_free(&w1);
  GrB_Vector_free(&w2);

  // mxm with a full B (the native path) and the same structural mask as a matrix
  GrB_Matrix B = NULL, M = NULL, C1 = NULL, C2 = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&B, GrB_FP32, n, 2));
  K2_ASSERT_OK(GrB_Matrix_assign_FP32(B, NULL, NULL, 1.5f, GrB_ALL, n, GrB_ALL, 2, NULL));
  K2_ASSERT_OK(GrB_Matrix_new(&M, P, n, 2));
  for (GrB_Index i = 0; i < n; i += 2) K2_ASSERT_OK(GrB_Matrix_setElement_UDT(M, &v, i, i % 4 == 0));
  K2_ASSERT_OK(GrB_Matrix_new(&C1, GrB_FP32, n, 2));
  K2_ASSERT_OK(GrB_Matrix_new(&C2, GrB_FP32, n, 2));
  K2_ASSERT_OK(K2_mxm(C1, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, B, GrB_DESC_S));
  assert_int_not_equal(K2_last_path(), K2_PATH_FALLBACK);
  K2_ASSERT_OK(GrB_mxm(C2, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, G, B, GrB_DESC_S));
  assert_same_matrix(C1, C2);
  GrB_Matrix_free(&B);
  GrB_Matrix_free(&M);
  GrB_Matrix_free(&C1);
  GrB_Matrix_free(&C2);
  GrB_Vector_free(&u);
  GrB_Vector_free(&m);
  GrB_Matrix_free(&G);
  K2_Matrix_free(&A);
  GrB_Type_free(&P);
}

// An empty inner dimension still has domains: u of a user-defined type cannot meet PLUS_TIMES
// (DOMAIN_MISMATCH, as GrB_mxv says on objects of the same types), a structural mask of that
// type can; w is left as it was on the error.
static void test_empty_inner_domains(void **state) {
  (void)state;
  limit("test_empty_inner_domains");
  GrB_Type P = NULL;
  K2_ASSERT_OK(GrB_Type_new(&P, sizeof(pair_t)));
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 4, 0));
  GrB_Vector u = NULL, w = NULL, m = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, P, 0));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP64, 4));
  K2_ASSERT_OK(GrB_Vector_setElement_FP64(w, 3.0, 2));
  K2_ASSERT_OK(GrB_Vector_new(&m, P, 4));
  assert_int_equal(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL), GrB_DOMAIN_MISMATCH);
  assert_true(strstr(K2_error_string(), "K2_mxv") != NULL);
  double x = 0;
  K2_ASSERT_OK(GrB_Vector_extractElement_FP64(&x, w, 2));
  assert_true(x == 3.0);
  GrB_Vector_free(&u);
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP64, 0));
  K2_ASSERT_OK(K2_mxv(w, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, GrB_DESC_RS));
  GrB_Index nv = 9;
  K2_ASSERT_OK(GrB_Vector_nvals(&nv, w));
  assert_int_equal(nv, 0);  // replace, empty mask: w cleared
  assert_int_equal(K2_mxv(w, m, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL), GrB_DOMAIN_MISMATCH);
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  GrB_Vector_free(&m);
  K2_Matrix_free(&A);
  GrB_Type_free(&P);
}

// After an error the message is the failed call's own.
static void test_message_is_fresh(void **state) {
  (void)state;
  limit("test_message_is_fresh");
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, 4, 4));
  GrB_Matrix B = NULL, C = NULL;
  GrB_Vector u = NULL, w = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&B, GrB_FP32, 4, 2));
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, 5));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, 4));
  assert_int_equal(K2_mxm(C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, B, NULL), GrB_NULL_POINTER);
  assert_string_equal(K2_error_string(), "K2_mxm: C is NULL");
  assert_int_equal(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL),
                   GrB_DIMENSION_MISMATCH);
  assert_true(strncmp(K2_error_string(), "K2_mxv: ", 8) == 0);
  assert_null(strstr(K2_error_string(), ".c:"));  // no source location in a user's message
  assert_int_equal(K2_vxm(w, NULL, NULL, NULL, u, A, NULL), GrB_NULL_POINTER);
  assert_true(strncmp(K2_error_string(), "K2_vxm: ", 8) == 0 ||
              strstr(K2_error_string(), "semiring") != NULL);
  GrB_Matrix_free(&B);
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  K2_Matrix_free(&A);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_positional_hypersparse),
      cmocka_unit_test(test_dense_masked_transposed),
      cmocka_unit_test(test_sparse_held_operand),
      cmocka_unit_test(test_zero_width),
      cmocka_unit_test(test_user_typed_masks),
      cmocka_unit_test(test_empty_inner_domains),
      cmocka_unit_test(test_message_is_fresh),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
