// test_accumulate.c: the bridge's own accumulation and masking of a product's result, against
// GraphBLAS on the same matrix. With no mask, a predefined PLUS, MIN or MAX of the semiring's
// type and a full w (iso or not), the bridge updates w's values itself; under a mask with
// replace it drops the masked-out entries of a dense result itself. Every other w (bitmap,
// sparse, another type, another operator such as TIMES or MINUS) goes through GraphBLAS. Each case compares
// the whole w, pattern and values, exactly (integer-valued inputs; integer sums that overflow
// must wrap as GraphBLAS's do).
// SPDX-License-Identifier: Apache-2.0
#include "k2_test.h"
#include "k2_oracle.h"

#include <stdio.h>
#include <string.h>

enum { N = 300 };

static void assert_same(GrB_Vector a, GrB_Vector b, const char *what) {
  GrB_Index na, nb;
  K2_ASSERT_OK(GrB_Vector_nvals(&na, a));
  K2_ASSERT_OK(GrB_Vector_nvals(&nb, b));
  if (na != nb) fail_msg("%s: %llu entries, GraphBLAS %llu", what, (unsigned long long)na, (unsigned long long)nb);
  K2_ASSERT_OK(GrB_Vector_wait(a, GrB_MATERIALIZE));
  K2_ASSERT_OK(GrB_Vector_wait(b, GrB_MATERIALIZE));
  GrB_Index *Ia = malloc((na + 1) * sizeof(GrB_Index)), *Ib = malloc((na + 1) * sizeof(GrB_Index));
  int64_t *Xa = malloc((na + 1) * sizeof(int64_t)), *Xb = malloc((na + 1) * sizeof(int64_t));
  double *Fa = malloc((na + 1) * sizeof(double)), *Fb = malloc((na + 1) * sizeof(double));
  assert_true(Ia && Ib && Xa && Xb && Fa && Fb);
  K2_ASSERT_OK(GrB_Vector_extractTuples_INT64(Ia, Xa, &na, a));
  K2_ASSERT_OK(GrB_Vector_extractTuples_INT64(Ib, Xb, &nb, b));
  for (GrB_Index k = 0; k < na; k++) {
    if (Ia[k] != Ib[k] || Xa[k] != Xb[k])
      fail_msg("%s: entry %llu: (%llu, %lld), GraphBLAS (%llu, %lld)", what, (unsigned long long)k,
               (unsigned long long)Ia[k], (long long)Xa[k], (unsigned long long)Ib[k], (long long)Xb[k]);
  }
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(Ia, Fa, &na, a));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(Ib, Fb, &nb, b));
  for (GrB_Index k = 0; k < na; k++) {
    if (Fa[k] != Fb[k]) fail_msg("%s: entry %llu: %g, GraphBLAS %g", what, (unsigned long long)k, Fa[k], Fb[k]);
  }
  free(Ia), free(Ib), free(Xa), free(Xb), free(Fa), free(Fb);
}

// A random N x N tree and GraphBLAS's own copy of it
static void matrix_pair(uint64_t seed, uint64_t nvals, k2_coo_list *L, K2_Matrix *A, GrB_Matrix *G) {
  k2_rng rng = {seed};
  k2_coo_random(L, N, N, nvals, &rng);
  k2_coo_canonical(L);
  *A = k2_test_matrix(L, NULL);
  *G = NULL;
  K2_ASSERT_OK(K2_Matrix_getGrB(G, *A));
}

// w as a case wants it: full with distinct values, full iso (one scalar assigned to all), or
// bitmap (every other entry)
typedef enum { W_FULL, W_ISO, W_BITMAP, W_KINDS } w_kind;

static GrB_Vector make_w(GrB_Type type, w_kind kind, int64_t big) {
  GrB_Vector w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, type, N));
  if (kind == W_ISO) {
    K2_ASSERT_OK(GrB_Vector_assign_INT64(w, NULL, NULL, big != 0 ? big : 3, GrB_ALL, N, NULL));
  } else {
    for (GrB_Index i = 0; i < N; i++) {
      if (kind == W_BITMAP && i % 2 == 1) continue;
      K2_ASSERT_OK(GrB_Vector_setElement_INT64(w, big != 0 ? big - (int64_t)(i % 5) : (int64_t)(i % 7) - 3, i));
    }
  }
  K2_ASSERT_OK(GrB_Vector_wait(w, GrB_MATERIALIZE));
  return w;
}

static void test_accumulators(void **state) {
  (void)state;
  k2_coo_list L;
  K2_Matrix A;
  GrB_Matrix G;
  matrix_pair(2024, 2400, &L, &A, &G);
  struct {
    GrB_Type type;
    GrB_Semiring semiring;
    GrB_BinaryOp ops[4];
    int64_t big;  // w's values near the type's top, so that sums wrap (0: small values)
  } cases[] = {
      {GrB_FP32, GrB_PLUS_TIMES_SEMIRING_FP32, {GrB_PLUS_FP32, GrB_TIMES_FP32, GrB_MIN_FP32, GrB_MAX_FP32}, 0},
      {GrB_FP64, GrB_PLUS_TIMES_SEMIRING_FP64, {GrB_PLUS_FP64, GrB_TIMES_FP64, GrB_MIN_FP64, GrB_MAX_FP64}, 0},
      {GrB_INT32, GrB_PLUS_TIMES_SEMIRING_INT32, {GrB_PLUS_INT32, GrB_TIMES_INT32, GrB_MIN_INT32, GrB_MAX_INT32}, 0},
      {GrB_INT64, GrB_PLUS_TIMES_SEMIRING_INT64, {GrB_PLUS_INT64, GrB_TIMES_INT64, GrB_MIN_INT64, GrB_MAX_INT64}, 0},
      {GrB_INT32, GrB_PLUS_TIMES_SEMIRING_INT32, {GrB_PLUS_INT32, GrB_TIMES_INT32, GrB_MIN_INT32, GrB_MAX_INT32},
       INT32_MAX},
      {GrB_INT64, GrB_PLUS_TIMES_SEMIRING_INT64, {GrB_PLUS_INT64, GrB_TIMES_INT64, GrB_MIN_INT64, GrB_MAX_INT64},
       INT64_MAX},
      {GrB_INT64, GrB_MIN_PLUS_SEMIRING_INT64, {GrB_PLUS_INT64, GrB_MIN_INT64, GrB_MAX_INT64, GrB_MINUS_INT64}, 0},
  };
  int compared = 0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    for (int dense_u = 0; dense_u < 2; dense_u++) {
      // u: every entry (a dense result) or 3 entries (a listed, sparse result)
      GrB_Vector u = NULL;
      K2_ASSERT_OK(GrB_Vector_new(&u, cases[c].type, N));
      for (GrB_Index i = 0; i < N; i++) {
        if (dense_u || i % 101 == 7) K2_ASSERT_OK(GrB_Vector_setElement_INT64(u, (int64_t)(i % 3) + 1, i));
      }
      for (int o = 0; o < 4; o++) {
        for (int k = 0; k < W_KINDS; k++) {
          for (int vxm = 0; vxm < 2; vxm++) {
            GrB_Vector w1 = make_w(cases[c].type, (w_kind)k, cases[c].big);
            GrB_Vector w2 = make_w(cases[c].type, (w_kind)k, cases[c].big);
            if (vxm) {
              K2_ASSERT_OK(K2_vxm(w1, NULL, cases[c].ops[o], cases[c].semiring, u, A, NULL));
              K2_ASSERT_OK(GrB_vxm(w2, NULL, cases[c].ops[o], cases[c].semiring, u, G, NULL));
            } else {
              K2_ASSERT_OK(K2_mxv(w1, NULL, cases[c].ops[o], cases[c].semiring, A, u, NULL));
              K2_ASSERT_OK(GrB_mxv(w2, NULL, cases[c].ops[o], cases[c].semiring, G, u, NULL));
            }
            char what[128];
            snprintf(what, sizeof what, "case %zu, operator %d, w kind %d, %s, u %s", c, o, k, vxm ? "vxm" : "mxv",
                     dense_u ? "dense" : "sparse");
            assert_same(w1, w2, what);
            compared++;
            GrB_free(&w1);
            GrB_free(&w2);
          }
        }
      }
      GrB_free(&u);
    }
  }
  print_message("%d accumulated products equal GraphBLAS's\n", compared);
  GrB_free(&G);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);
}

// w<mask, replace> = A u with a dense result: every mask kind, w aliased with u or the mask
static void test_masked_replace(void **state) {
  (void)state;
  k2_coo_list L;
  K2_Matrix A;
  GrB_Matrix G;
  matrix_pair(77, 3000, &L, &A, &G);
  const GrB_Descriptor descs[] = {GrB_DESC_R, GrB_DESC_RC, GrB_DESC_RS, GrB_DESC_RSC};
  int compared = 0;
  for (int d = 0; d < 4; d++) {
    for (int alias = 0; alias < 3; alias++) {  // none, w = u, w = mask
      GrB_Vector m1 = NULL, m2 = NULL, u1 = NULL, u2 = NULL, w1 = NULL, w2 = NULL;
      K2_ASSERT_OK(GrB_Vector_new(&m1, GrB_FP64, N));
      K2_ASSERT_OK(GrB_Vector_new(&u1, GrB_FP64, N));
      for (GrB_Index i = 0; i < N; i++) {
        if (i % 3 != 0) K2_ASSERT_OK(GrB_Vector_setElement_FP64(m1, (double)(i % 4 == 1 ? 0 : 1), i));
        K2_ASSERT_OK(GrB_Vector_setElement_FP64(u1, (double)(i % 5) - 1, i));
      }
      K2_ASSERT_OK(GrB_Vector_dup(&m2, m1));
      K2_ASSERT_OK(GrB_Vector_dup(&u2, u1));
      if (alias == 0) {
        K2_ASSERT_OK(GrB_Vector_new(&w1, GrB_FP64, N));
        K2_ASSERT_OK(GrB_Vector_new(&w2, GrB_FP64, N));
        K2_ASSERT_OK(GrB_Vector_setElement_FP64(w1, 42, 5));
        K2_ASSERT_OK(GrB_Vector_setElement_FP64(w2, 42, 5));
      }
      GrB_Vector a1 = alias == 0 ? w1 : alias == 1 ? u1 : m1, a2 = alias == 0 ? w2 : alias == 1 ? u2 : m2;
      K2_ASSERT_OK(K2_mxv(a1, m1, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u1, descs[d]));
      K2_ASSERT_OK(GrB_mxv(a2, m2, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, G, u2, descs[d]));
      char what[96];
      snprintf(what, sizeof what, "descriptor %d, alias %d", d, alias);
      assert_same(a1, a2, what);
      compared++;
      GrB_free(&m1), GrB_free(&m2), GrB_free(&u1), GrB_free(&u2), GrB_free(&w1), GrB_free(&w2);
    }
  }
  print_message("%d masked products with replace equal GraphBLAS's\n", compared);
  GrB_free(&G);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_accumulators),
      cmocka_unit_test(test_masked_replace),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
