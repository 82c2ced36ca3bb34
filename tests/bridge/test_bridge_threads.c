// test_bridge_threads.c: products on one K2_Matrix from several threads at once.
// SPDX-License-Identifier: Apache-2.0
//
// Each thread runs native (mxv, vxm, masked, mxm) and fallback products on the same matrix
// and compares each result with the one computed beforehand, single-threaded, by SuiteSparse
// on the equivalent GrB_Matrix. The cache of the materialized matrix starts empty, so the
// fallbacks race to create it. Run it under ThreadSanitizer with -DK2_TSAN=ON.
#include "k2_test.h"

#include <pthread.h>
#include <string.h>

#define NT 4
#define ROUNDS 12
#define NN 700

static K2_Matrix A;
static GrB_Matrix G;
static GrB_Vector u_f32, u_bool, mask;
static GrB_Matrix X;          // NN x 3 full
static GrB_Vector expect[4];
static GrB_Matrix expect_mxm;

static bool same(GrB_Vector a, GrB_Vector b) {
  bool eq = false;
  GrB_Vector c = NULL;
  GrB_Index na, nb, nc;
  if (GrB_Vector_nvals(&na, a) || GrB_Vector_nvals(&nb, b) || na != nb) return false;
  GrB_Vector_new(&c, GrB_BOOL, NN);
  GrB_Vector_eWiseMult_BinaryOp(c, NULL, NULL, GrB_EQ_FP64, a, b, NULL);
  GrB_Vector_nvals(&nc, c);
  GrB_Vector_reduce_BOOL(&eq, NULL, GrB_LAND_MONOID_BOOL, c, NULL);
  GrB_Vector_free(&c);
  return nc == na && (na == 0 || eq);
}

// op k: the k-th product of the list, with the K2 matrix (k2 = true) or the GrB one
static GrB_Info product(int k, GrB_Vector w, bool k2) {
  switch (k) {
    case 0: return k2 ? K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u_f32, NULL)
                      : GrB_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, G, u_f32, NULL);
    case 1: return k2 ? K2_vxm(w, mask, NULL, GxB_ANY_PAIR_BOOL, u_bool, A, GrB_DESC_RSC)
                      : GrB_vxm(w, mask, NULL, GxB_ANY_PAIR_BOOL, u_bool, G, GrB_DESC_RSC);
    case 2: return k2 ? K2_mxv(w, NULL, NULL, GrB_MIN_PLUS_SEMIRING_FP64, A, u_f32, GrB_DESC_T0)
                      : GrB_mxv(w, NULL, NULL, GrB_MIN_PLUS_SEMIRING_FP64, G, u_f32, GrB_DESC_T0);
    default:  // not native: SuiteSparse on the cached matrix
      return k2 ? K2_mxv(w, NULL, NULL, GxB_PLUS_MIN_FP32, A, u_f32, NULL)
                : GrB_mxv(w, NULL, NULL, GxB_PLUS_MIN_FP32, G, u_f32, NULL);
  }
}

static void *worker(void *arg) {
  intptr_t id = (intptr_t)arg;
  long bad = 0;
  for (int r = 0; r < ROUNDS; r++) {
    int k = (int)((id + r) % 5);
    if (k < 4) {
      GrB_Vector w = NULL;
      GrB_Vector_new(&w, k == 1 ? GrB_BOOL : GrB_FP64, NN);
      if (product(k, w, true) != GrB_SUCCESS || !same(w, expect[k])) bad++;
      GrB_Vector_free(&w);
    } else {
      GrB_Matrix C = NULL;
      bool eq = false;
      GrB_Matrix_new(&C, GrB_FP32, NN, 3);
      if (K2_mxm(C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, X, NULL) != GrB_SUCCESS) bad++;
      GrB_Index n1, n2;
      GrB_Matrix_nvals(&n1, C);
      GrB_Matrix_nvals(&n2, expect_mxm);
      GrB_Matrix D = NULL;
      GrB_Matrix_new(&D, GrB_BOOL, NN, 3);
      GrB_Matrix_eWiseMult_BinaryOp(D, NULL, NULL, GrB_EQ_FP32, C, expect_mxm, NULL);
      GrB_Matrix_reduce_BOOL(&eq, NULL, GrB_LAND_MONOID_BOOL, D, NULL);
      GrB_Index nd;
      GrB_Matrix_nvals(&nd, D);
      if (n1 != n2 || nd != n1 || !eq) bad++;
      GrB_Matrix_free(&D);
      GrB_Matrix_free(&C);
    }
  }
  return (void *)bad;
}

static void test_threads(void **state) {
  (void)state;
  // SuiteSparse recycles small blocks through its own free pool, guarded by OpenMP critical
  // sections that ThreadSanitizer cannot see (libgraphblas is not instrumented): without the
  // pool every block comes from malloc, so TSan reports only races of k2grb's own making.
  int64_t no_pool[64] = {0};
  K2_ASSERT_OK(GxB_Global_Option_set(GxB_MEMORY_POOL, no_pool));
  k2_rng rng = {7};
  GrB_Index cap = NN * 8, ne = 0;
  GrB_Index *I = malloc(cap * sizeof(GrB_Index)), *J = malloc(cap * sizeof(GrB_Index));
  bool *B = malloc(cap);
  for (GrB_Index i = 0; i < NN; i++)
    for (int e = 0; e < 6; e++) {
      I[ne] = i;
      J[ne] = k2_rng_below(&rng, NN);
      B[ne++] = true;
    }
  // bottom codes cached: the threads' first plus product also races to build the decoded bottom level
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = true;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, NN, NN, &fmt));
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, ne));
  K2_ASSERT_OK(GrB_Matrix_new(&G, GrB_BOOL, NN, NN));
  K2_ASSERT_OK(GrB_Matrix_build_BOOL(G, I, J, B, ne, GrB_LOR));
  K2_ASSERT_OK(GrB_Vector_new(&u_f32, GrB_FP32, NN));
  K2_ASSERT_OK(GrB_Vector_new(&u_bool, GrB_BOOL, NN));
  K2_ASSERT_OK(GrB_Vector_new(&mask, GrB_INT32, NN));
  for (GrB_Index i = 0; i < NN; i++) {
    K2_ASSERT_OK(GrB_Vector_setElement_FP32(u_f32, (float)(i % 13) / 4.0f, i));
    if (i % 9 == 0) K2_ASSERT_OK(GrB_Vector_setElement_BOOL(u_bool, true, i));
    if (i % 5 == 0) K2_ASSERT_OK(GrB_Vector_setElement_INT32(mask, 1, i));
  }
  K2_ASSERT_OK(GrB_Matrix_new(&X, GrB_FP32, NN, 3));
  K2_ASSERT_OK(GrB_Matrix_assign_FP32(X, NULL, NULL, 0.5f, GrB_ALL, NN, GrB_ALL, 3, NULL));
  K2_ASSERT_OK(GrB_Matrix_setElement_FP32(X, 2.0f, 3, 1));
  GrB_Vector_wait(u_f32, GrB_MATERIALIZE);
  GrB_Vector_wait(u_bool, GrB_MATERIALIZE);
  GrB_Vector_wait(mask, GrB_MATERIALIZE);
  GrB_Matrix_wait(X, GrB_MATERIALIZE);
  for (int k = 0; k < 4; k++) {
    K2_ASSERT_OK(GrB_Vector_new(&expect[k], k == 1 ? GrB_BOOL : GrB_FP64, NN));
    K2_ASSERT_OK(product(k, expect[k], false));
    GrB_Vector_wait(expect[k], GrB_MATERIALIZE);
  }
  K2_ASSERT_OK(GrB_Matrix_new(&expect_mxm, GrB_FP32, NN, 3));
  K2_ASSERT_OK(GrB_mxm(expect_mxm, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, G, X, NULL));
  GrB_Matrix_wait(expect_mxm, GrB_MATERIALIZE);

  pthread_t th[NT];
  for (intptr_t t = 0; t < NT; t++) assert_int_equal(pthread_create(&th[t], NULL, worker, (void *)t), 0);
  long bad = 0;
  for (int t = 0; t < NT; t++) {
    void *ret;
    pthread_join(th[t], &ret);
    bad += (long)(intptr_t)ret;
  }
  assert_int_equal(bad, 0);

  for (int k = 0; k < 4; k++) GrB_Vector_free(&expect[k]);
  GrB_Matrix_free(&expect_mxm);
  GrB_Matrix_free(&X);
  GrB_Vector_free(&u_f32);
  GrB_Vector_free(&u_bool);
  GrB_Vector_free(&mask);
  GrB_Matrix_free(&G);
  K2_Matrix_free(&A);
  free(I);
  free(J);
  free(B);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_threads)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
