// test_profile.c: the products' per-step profile (K2_Profile, include/k2grb/experimental.h) on
// the CPU engines.
// SPDX-License-Identifier: Apache-2.0
//
// test_counts: a known mix of products (dense K2_mxv; with an accumulator; with a valued mask; a
// sparse K2_vxm; a fallback; K2_dense_mxv; a call that fails its checks) on the OpenMP and the
// reference engine: each step counts exactly the calls whose path goes through it, no GPU step is
// counted, every time is >= 0 and the steps add up to the total. test_off: with profiling off
// nothing is recorded, and reset empties the sums. test_threads: calls from several threads all
// land in the sums. test_print: the table and the step names.
#include "k2_test.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define N 3000

static K2_Matrix A;
static GrB_Vector u_full, u_sparse, u_short, mask;

static int setup(void **state) {
  if (k2_test_setup(state) != 0) return -1;
  k2_rng r = {12345};
  enum { M = 8 * N };
  static uint32_t I[M], J[M];
  for (int e = 0; e < M; e++) {
    I[e] = (uint32_t)k2_rng_below(&r, N);
    J[e] = (uint32_t)k2_rng_below(&r, N);
  }
  if (K2_Matrix_new(&A, N, N) != GrB_SUCCESS || K2_Matrix_build_32(A, I, J, M) != GrB_SUCCESS) return -1;
  GrB_Vector_new(&u_full, GrB_FP32, N);
  GrB_Vector_new(&u_sparse, GrB_FP32, N);
  GrB_Vector_new(&u_short, GrB_FP32, N - 1);
  GrB_Vector_new(&mask, GrB_BOOL, N);
  GrB_Vector_assign_FP32(u_full, NULL, NULL, 0.5f, GrB_ALL, N, NULL);
  for (GrB_Index i = 0; i < N; i += 97) GrB_Vector_setElement_FP32(u_sparse, 1.0f, i);
  // a valued mask that lets half the outputs through: the dense path, mask read into skip bytes
  for (GrB_Index i = 0; i < N; i++) GrB_Vector_setElement_BOOL(mask, i % 2 == 0, i);
  GrB_Vector_wait(u_sparse, GrB_MATERIALIZE);
  GrB_Vector_wait(mask, GrB_MATERIALIZE);
  return 0;
}

static int teardown(void **state) {
  GrB_Vector_free(&u_full);
  GrB_Vector_free(&u_sparse);
  GrB_Vector_free(&u_short);
  GrB_Vector_free(&mask);
  K2_Matrix_free(&A);
  return k2_test_teardown(state);
}

static void check_sums(const K2_Profile *p) {
  double steps = 0;
  for (int s = 0; s < K2_PROFILE_STEPS; s++) {
    assert_true(p->seconds[s] >= 0);
    steps += p->seconds[s];
  }
  assert_true(p->total > 0);
  if (fabs(steps - p->total) > 1e-9 * (1 + p->total)) {
    print_error("the steps add up to %.12g s, the total is %.12g s\n", steps, p->total);
    fail();
  }
}

// The mix of products; the counts it must give are in test_counts.
static void run_mix(GrB_Vector w, float *x, float *y) {
  GrB_Semiring plus_min = GxB_PLUS_MIN_FP32;  // not native: SuiteSparse runs it
  for (int k = 0; k < 3; k++) K2_ASSERT_OK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u_full, NULL));
  for (int k = 0; k < 2; k++) K2_ASSERT_OK(K2_mxv(w, NULL, GrB_PLUS_FP32, GrB_PLUS_TIMES_SEMIRING_FP32, A, u_full, NULL));
  for (int k = 0; k < 2; k++) K2_ASSERT_OK(K2_mxv(w, mask, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u_full, NULL));
  for (int k = 0; k < 2; k++) K2_ASSERT_OK(K2_vxm(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, u_sparse, A, NULL));
  K2_ASSERT_OK(K2_mxv(w, NULL, NULL, plus_min, A, u_full, NULL));
  assert_int_equal(K2_last_path(), K2_PATH_FALLBACK);
  for (int k = 0; k < 2; k++) K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32));
  assert_int_equal(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u_short, NULL),
                   GrB_DIMENSION_MISMATCH);
}

static void test_counts(void **state) {
  (void)state;
  static float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = 0.5f;
  GrB_Vector w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, N));
  const K2_Engine engines[] = {K2_ENGINE_OPENMP, K2_ENGINE_REFERENCE};
  for (size_t e = 0; e < sizeof engines / sizeof engines[0]; e++) {
    K2_ASSERT_OK(K2_set_engine(engines[e]));
    K2_ASSERT_OK(K2_Profile_enable(true));
    K2_ASSERT_OK(K2_Profile_reset());
    run_mix(w, x, y);
    K2_ASSERT_OK(K2_Profile_enable(false));
    assert_int_equal(K2_last_engine(), engines[e]);
    K2_Profile p;
    K2_ASSERT_OK(K2_Profile_get(&p));
    // 3 dense, 2 accum, 2 masked, 2 sparse vxm, 1 fallback, 2 K2_dense_mxv, 1 failed
    const uint64_t native = 3 + 2 + 2 + 2, dense = 2;
    assert_int_equal(p.calls, native + 1 + dense + 1);
    assert_int_equal(p.count[K2_PROFILE_VALIDATE], native + 1 + dense);  // not the failed call
    assert_int_equal(p.count[K2_PROFILE_INPUT], native);
    assert_int_equal(p.count[K2_PROFILE_MASK], 2);
    assert_int_equal(p.count[K2_PROFILE_PLAN], native + dense);
    assert_int_equal(p.count[K2_PROFILE_KERNEL], native + dense);
    assert_int_equal(p.count[K2_PROFILE_H2D], 0);
    assert_int_equal(p.count[K2_PROFILE_D2H], 0);
    assert_int_equal(p.count[K2_PROFILE_PACK], native);
    assert_int_equal(p.count[K2_PROFILE_APPLY], 2 + 2);  // accumulator, mask
    assert_int_equal(p.count[K2_PROFILE_FALLBACK], 1);
    assert_int_equal(p.count[K2_PROFILE_OTHER], p.calls);
    assert_true(p.seconds[K2_PROFILE_H2D] == 0 && p.seconds[K2_PROFILE_D2H] == 0);
    assert_true(p.seconds[K2_PROFILE_KERNEL] > 0);
    assert_true(p.kernel_device == 0);
    assert_int_equal(p.device_calls, 0);
    check_sums(&p);
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  GrB_Vector_free(&w);
}

static void test_off(void **state) {
  (void)state;
  static float x[N], y[N];
  GrB_Vector w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, N));
  K2_ASSERT_OK(K2_Profile_enable(true));
  K2_ASSERT_OK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u_full, NULL));
  K2_Profile p;
  K2_ASSERT_OK(K2_Profile_get(&p));
  assert_true(p.calls >= 1);
  K2_ASSERT_OK(K2_Profile_reset());
  K2_ASSERT_OK(K2_Profile_enable(false));
  bool on = true;
  K2_ASSERT_OK(K2_Profile_enabled(&on));
  assert_false(on);
  run_mix(w, x, y);
  K2_ASSERT_OK(K2_Profile_get(&p));
  const K2_Profile zero = {0};
  assert_memory_equal(&p, &zero, sizeof p);
  GrB_Vector_free(&w);
}

#define THREADS 4
#define PER_THREAD 5

static void *worker(void *arg) {
  (void)arg;
  GrB_Vector w = NULL;
  if (GrB_Vector_new(&w, GrB_FP32, N) != GrB_SUCCESS) return (void *)1;
  intptr_t bad = 0;
  for (int k = 0; k < PER_THREAD; k++) {
    bad |= K2_mxv(w, mask, GrB_PLUS_FP32, GrB_PLUS_TIMES_SEMIRING_FP32, A, u_full, NULL) != GrB_SUCCESS;
  }
  GrB_Vector_free(&w);
  return (void *)bad;
}

static void test_threads(void **state) {
  (void)state;
  K2_ASSERT_OK(K2_Profile_reset());
  K2_ASSERT_OK(K2_Profile_enable(true));
  pthread_t th[THREADS];
  for (intptr_t t = 0; t < THREADS; t++) assert_int_equal(pthread_create(&th[t], NULL, worker, NULL), 0);
  for (int t = 0; t < THREADS; t++) {
    void *ret = NULL;
    pthread_join(th[t], &ret);
    assert_null(ret);
  }
  K2_ASSERT_OK(K2_Profile_enable(false));
  K2_Profile p;
  K2_ASSERT_OK(K2_Profile_get(&p));
  assert_int_equal(p.calls, THREADS * PER_THREAD);
  assert_int_equal(p.count[K2_PROFILE_MASK], THREADS * PER_THREAD);
  assert_int_equal(p.count[K2_PROFILE_APPLY], THREADS * PER_THREAD);
  check_sums(&p);
}

static void test_print(void **state) {
  (void)state;
  assert_string_equal(K2_Profile_stepName(K2_PROFILE_VALIDATE), "validate");
  assert_string_equal(K2_Profile_stepName(K2_PROFILE_OTHER), "other");
  assert_null(K2_Profile_stepName(K2_PROFILE_STEPS));
  assert_null(K2_Profile_stepName((K2_ProfileStep)-1));
  K2_Profile p = {0};
  p.calls = 2;
  p.total = 4e-3;
  p.seconds[K2_PROFILE_KERNEL] = 3e-3;
  p.seconds[K2_PROFILE_OTHER] = 1e-3;
  p.count[K2_PROFILE_KERNEL] = p.count[K2_PROFILE_OTHER] = 2;
  FILE *f = tmpfile();
  assert_non_null(f);
  K2_ASSERT_OK(K2_Profile_print(f, &p));
  rewind(f);
  char text[4096];
  const size_t len = fread(text, 1, sizeof text - 1, f);
  text[len] = '\0';
  fclose(f);
  for (int s = 0; s < K2_PROFILE_STEPS; s++) assert_non_null(strstr(text, K2_Profile_stepName((K2_ProfileStep)s)));
  assert_non_null(strstr(text, "1500.00"));  // kernel: 3 ms over 2 calls
  assert_non_null(strstr(text, "75.0%"));
  assert_int_equal(K2_Profile_print(NULL, &p), GrB_NULL_POINTER);
  assert_int_equal(K2_Profile_get(NULL), GrB_NULL_POINTER);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_counts),
      cmocka_unit_test(test_off),
      cmocka_unit_test(test_threads),
      cmocka_unit_test(test_print),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
