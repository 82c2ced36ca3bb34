// test_engines.c: both CPU engines against SuiteSparse:GraphBLAS on the same matrices.
// SPDX-License-Identifier: Apache-2.0
//
// Dense products of the reference and OpenMP engines (right, left, batched; plus-times FP32 and
// FP64, lor-land, min-plus FP64 and INT64) against GrB_mxv / GrB_vxm on a GrB_Matrix holding the
// same pattern, on random matrices and on the real graphs of the data folder, each also with its
// bottom codes cached (the OpenMP engine's k²+B path). x holds small
// multiples of 1/8, so every sum is exact in FP32 and FP64 whatever the order: all comparisons
// are exact. One more FP32 run with arbitrary x checks the 1e-6 relative tolerance.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k2_grb_oracle.h"
#include "k2_oracle.h"

typedef enum { SR_PLUS_F32, SR_PLUS_F64, SR_LOR, SR_MIN_F64, SR_MIN_I64, SR_COUNT } sr_kind;

static GrB_Type sr_type(sr_kind k) {
  switch (k) {
    case SR_PLUS_F32: return GrB_FP32;
    case SR_PLUS_F64: case SR_MIN_F64: return GrB_FP64;
    case SR_LOR: return GrB_BOOL;
    default: return GrB_INT64;
  }
}

static K2_DenseSemiring sr_dense(sr_kind k) {
  return k == SR_LOR ? K2_LOR_LAND : (k == SR_MIN_F64 || k == SR_MIN_I64) ? K2_MIN_PLUS : K2_PLUS_TIMES;
}

// SuiteSparse's semiring for A (Boolean, entries = 1) times x: the value of x (SECOND in mxv,
// FIRST in vxm), or 1 + x for min-plus (A cast to the type).
static GrB_Semiring sr_grb(sr_kind k, bool left) {
  switch (k) {
    case SR_PLUS_F32: return left ? GxB_PLUS_FIRST_FP32 : GxB_PLUS_SECOND_FP32;
    case SR_PLUS_F64: return left ? GxB_PLUS_FIRST_FP64 : GxB_PLUS_SECOND_FP64;
    case SR_LOR: return left ? GxB_LOR_FIRST_BOOL : GxB_LOR_SECOND_BOOL;
    case SR_MIN_F64: return GrB_MIN_PLUS_SEMIRING_FP64;
    default: return GrB_MIN_PLUS_SEMIRING_INT64;
  }
}

static double x_value(uint64_t i, uint64_t salt) { return (double)((i * 2654435761u + salt) % 97) / 8.0; }

// Compare one engine's dense product (right or left, batch B) with SuiteSparse, column by column.
static void check_product(K2_Matrix A, GrB_Matrix G, sr_kind k, bool left, uint32_t B, K2_Engine e,
                          const char *name) {
  GrB_Index nrows, ncols;
  K2_ASSERT_OK(K2_Matrix_nrows(&nrows, A));
  K2_ASSERT_OK(K2_Matrix_ncols(&ncols, A));
  uint64_t nx = left ? nrows : ncols, ny = left ? ncols : nrows;
  size_t sz = k == SR_PLUS_F32 ? 4 : k == SR_LOR ? 1 : 8;
  char *X = malloc((nx * B + 1) * sz), *Y = malloc((ny * B + 1) * sz);
  assert_non_null(X);
  assert_non_null(Y);
  for (uint64_t i = 0; i < nx; i++)
    for (uint32_t b = 0; b < B; b++) {
      double v = x_value(i, b);
      uint64_t at = i * B + b;
      switch (k) {
        case SR_PLUS_F32: ((float *)X)[at] = (float)v; break;
        case SR_LOR: ((uint8_t *)X)[at] = (uint8_t)((i + b) % 3 == 0); break;
        case SR_MIN_I64: ((int64_t *)X)[at] = (int64_t)(v * 8); break;
        default: ((double *)X)[at] = v; break;
      }
    }
  K2_ASSERT_OK(K2_set_engine(e));
  if (B == 1 && left) K2_ASSERT_OK(K2_dense_vxm(Y, X, A, sr_dense(k), sr_type(k)));
  else if (B == 1) K2_ASSERT_OK(K2_dense_mxv(Y, A, X, sr_dense(k), sr_type(k)));
  else K2_ASSERT_OK(K2_dense_mxm(Y, A, X, B, left, sr_dense(k), sr_type(k)));
  assert_int_equal(K2_last_engine(), e);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  // SuiteSparse, one vector at a time
  for (uint32_t b = 0; b < B; b++) {
    GrB_Vector u = NULL, w = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&u, sr_type(k), nx));
    K2_ASSERT_OK(GrB_Vector_new(&w, sr_type(k), ny));
    for (uint64_t i = 0; i < nx; i++) {
      uint64_t at = i * B + b;
      switch (k) {
        case SR_PLUS_F32: K2_ASSERT_OK(GrB_Vector_setElement_FP32(u, ((float *)X)[at], i)); break;
        case SR_LOR: K2_ASSERT_OK(GrB_Vector_setElement_BOOL(u, ((uint8_t *)X)[at], i)); break;
        case SR_MIN_I64: K2_ASSERT_OK(GrB_Vector_setElement_INT64(u, ((int64_t *)X)[at], i)); break;
        default: K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, ((double *)X)[at], i)); break;
      }
    }
    if (left) K2_ASSERT_OK(GrB_vxm(w, NULL, NULL, sr_grb(k, true), u, G, NULL));
    else K2_ASSERT_OK(GrB_mxv(w, NULL, NULL, sr_grb(k, false), G, u, NULL));
    for (uint64_t i = 0; i < ny; i++) {
      uint64_t at = i * B + b;
      bool ok;
      double got = 0, want = 0;
      switch (k) {
        case SR_PLUS_F32: {
          float v = 0;
          if (GrB_Vector_extractElement_FP32(&v, w, i) != GrB_SUCCESS) v = 0;
          got = ((float *)Y)[at];
          want = v;
          ok = got == want;
          break;
        }
        case SR_LOR: {
          bool v = false;
          if (GrB_Vector_extractElement_BOOL(&v, w, i) != GrB_SUCCESS) v = false;
          got = ((uint8_t *)Y)[at];
          want = v;
          ok = got == want;
          break;
        }
        case SR_MIN_I64: {
          int64_t v = INT64_MAX;
          if (GrB_Vector_extractElement_INT64(&v, w, i) != GrB_SUCCESS) v = INT64_MAX;
          ok = ((int64_t *)Y)[at] == v;
          got = (double)((int64_t *)Y)[at];
          want = (double)v;
          break;
        }
        default: {
          double v = k == SR_MIN_F64 ? INFINITY : 0;
          if (GrB_Vector_extractElement_FP64(&v, w, i) != GrB_SUCCESS) v = k == SR_MIN_F64 ? INFINITY : 0;
          got = ((double *)Y)[at];
          want = v;
          ok = got == want;
          break;
        }
      }
      if (!ok) {
        print_error("%s: engine %s, semiring %d, %s, B=%u: y[%llu] (vector %u) = %.17g, SuiteSparse %.17g\n",
                    name, K2_engine_name(e), (int)k, left ? "left" : "right", B,
                    (unsigned long long)i, b, got, want);
        fail();
      }
    }
    GrB_Vector_free(&u);
    GrB_Vector_free(&w);
  }
  free(X);
  free(Y);
}

static GrB_Matrix grb_of(const uint32_t *I, const uint32_t *J, uint64_t nv, uint64_t nrows, uint64_t ncols) {
  GrB_Matrix G = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&G, GrB_BOOL, nrows, ncols));
  GrB_Index *gi = malloc((nv + 1) * sizeof(GrB_Index)), *gj = malloc((nv + 1) * sizeof(GrB_Index));
  bool *gx = malloc(nv + 1);
  for (uint64_t k = 0; k < nv; k++) {
    gi[k] = I[k];
    gj[k] = J[k];
    gx[k] = true;
  }
  K2_ASSERT_OK(GrB_Matrix_build_BOOL(G, gi, gj, gx, nv, GrB_LOR));
  free(gi);
  free(gj);
  free(gx);
  return G;
}

static void check_all(K2_Matrix A, GrB_Matrix G, const char *name, bool full_ref) {
  K2_Engine engines[2] = {K2_ENGINE_OPENMP, K2_ENGINE_REFERENCE};
  for (int e = 0; e < 2; e++)
    for (int k = 0; k < SR_COUNT; k++) {
      // the reference engine is slow: on large graphs it checks plus-times only
      if (engines[e] == K2_ENGINE_REFERENCE && !full_ref && k != SR_PLUS_F64) continue;
      for (int left = 0; left < 2; left++) {
        check_product(A, G, (sr_kind)k, left, 1, engines[e], name);
        if (full_ref || k == SR_PLUS_F32) check_product(A, G, (sr_kind)k, left, 3, engines[e], name);
      }
    }
}

static void test_random_matrices(void **state) {
  (void)state;
  uint64_t shapes[][3] = {{1, 1, 1}, {7, 300, 500}, {300, 7, 500}, {513, 1025, 20000}, {2000, 2000, 3000}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    k2_rng rng = {100 + s};
    k2_coo_list L;
    k2_coo_random(&L, shapes[s][0], shapes[s][1], shapes[s][2], &rng);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    GrB_Matrix G = grb_of(L.I, L.J, L.nvals, L.nrows, L.ncols);
    char name[64];
    snprintf(name, sizeof name, "random %llux%llu", (unsigned long long)L.nrows, (unsigned long long)L.ncols);
    check_all(A, G, name, true);
    // the same matrix with its bottom codes cached: the OpenMP engine then starts from the codes
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.cache_bottom_codes = true;
    K2_Matrix Af = k2_test_matrix(&L, &fmt);
    snprintf(name, sizeof name, "random %llux%llu, k2+F", (unsigned long long)L.nrows, (unsigned long long)L.ncols);
    check_all(Af, G, name, false);
    K2_Matrix_free(&Af);
    // the same matrix asking for its last level decoded: the OpenMP engine decodes it by a
    // descent and reads it
    K2_Matrix Ad = k2_test_matrix(&L, NULL);
    K2_ASSERT_OK(K2_Matrix_setDecodedLevel(Ad, true));
    snprintf(name, sizeof name, "random %llux%llu, decoded", (unsigned long long)L.nrows, (unsigned long long)L.ncols);
    check_all(Ad, G, name, false);
    K2_Matrix_free(&Ad);
    GrB_Matrix_free(&G);
    K2_Matrix_free(&A);
    k2_coo_free(&L);
  }
}

// w = the product of a full u by SuiteSparse on G and by the bridge on A: equal entry for entry.
static void assert_same_product(K2_Matrix A, GrB_Matrix G, GrB_Semiring sr, GrB_Type t, bool vxm,
                                const char *what) {
  GrB_Index nr = 0, nc = 0;
  K2_ASSERT_OK(GrB_Matrix_nrows(&nr, G));
  K2_ASSERT_OK(GrB_Matrix_ncols(&nc, G));
  const GrB_Index nu = vxm ? nr : nc, nw = vxm ? nc : nr;
  GrB_Vector u = NULL, w = NULL, e = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, t, nu));
  K2_ASSERT_OK(GrB_Vector_new(&w, t, nw));
  K2_ASSERT_OK(GrB_Vector_new(&e, t, nw));
  for (GrB_Index i = 0; i < nu; i++)
    K2_ASSERT_OK(GrB_Vector_setElement_INT64(u, (int64_t)((i * 2654435761u) % 1000) - 500, i));
  if (vxm) {
    K2_ASSERT_OK(K2_vxm(w, NULL, NULL, sr, u, A, NULL));
    K2_ASSERT_OK(GrB_vxm(e, NULL, NULL, sr, u, G, NULL));
  } else {
    K2_ASSERT_OK(K2_mxv(w, NULL, NULL, sr, A, u, NULL));
    K2_ASSERT_OK(GrB_mxv(e, NULL, NULL, sr, G, u, NULL));
  }
  // (integers of at most a few thousand: exact as FP64)
  char why[160];
  const bool same = k2_same_vector(w, e, 0, NULL, NULL, why, sizeof why);
  if (!same) print_error("%s: %s\n", what, why);
  assert_true(same);
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  GrB_Vector_free(&e);
}

// The integer MIN and MAX kernels read the decoded last level of a tree with its bottom codes, or
// of one whose matrix asks for it, as the plus kernel does: a first MIN product caches as much engine state as a first plus
// product on a twin (the plan and the decoded level), and the products of every multiply, both
// directions, INT32 and INT64, equal SuiteSparse's (sides not multiples of 4: the edge blocks).
static void test_decoded_min_max(void **state) {
  (void)state;
  k2_rng rng = {77};
  k2_coo_list L;
  k2_coo_random(&L, 513, 1025, 20000, &rng);
  GrB_Matrix G = grb_of(L.I, L.J, L.nvals, L.nrows, L.ncols);
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = true;
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  // the level decoded from the bottom codes (k2+B), and by a descent on a matrix that asks for it
  for (int how = 0; how < 4; how++) {
    const bool left = how & 1, asked = how >= 2;
    K2_Matrix A = k2_test_matrix(&L, asked ? NULL : &fmt), T = k2_test_matrix(&L, asked ? NULL : &fmt);
    if (asked) {
      K2_ASSERT_OK(K2_Matrix_setDecodedLevel(A, true));
      K2_ASSERT_OK(K2_Matrix_setDecodedLevel(T, true));
    }
    K2_MemoryUsage a0, a1, t0, t1;
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&a0, A));
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&t0, T));
    const uint64_t m = L.nrows > L.ncols ? L.nrows : L.ncols;
    int64_t *xi = calloc(m, sizeof *xi), *yi = calloc(m, sizeof *yi);
    double *xd = calloc(m, sizeof *xd), *yd = calloc(m, sizeof *yd);
    assert_true(xi && yi && xd && yd);
    if (left) {
      K2_ASSERT_OK(K2_dense_vxm(yi, xi, A, K2_MIN_PLUS, GrB_INT64));
      K2_ASSERT_OK(K2_dense_vxm(yd, xd, T, K2_PLUS_TIMES, GrB_FP64));
    } else {
      K2_ASSERT_OK(K2_dense_mxv(yi, A, xi, K2_MIN_PLUS, GrB_INT64));
      K2_ASSERT_OK(K2_dense_mxv(yd, T, xd, K2_PLUS_TIMES, GrB_FP64));
    }
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&a1, A));
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&t1, T));
    assert_true(t1.cache > t0.cache);
    assert_int_equal(a1.cache - a0.cache, t1.cache - t0.cache);
    free(xi), free(yi), free(xd), free(yd);
    K2_Matrix_free(&T);
    const struct {
      GrB_Semiring sr;
      GrB_Type t;
      const char *name;
    } cases[] = {
        {GrB_MIN_SECOND_SEMIRING_INT64, GrB_INT64, "MIN_SECOND_INT64"},
        {GrB_MIN_FIRST_SEMIRING_INT64, GrB_INT64, "MIN_FIRST_INT64"},
        {GrB_MAX_SECOND_SEMIRING_INT64, GrB_INT64, "MAX_SECOND_INT64"},
        {GrB_MAX_FIRST_SEMIRING_INT64, GrB_INT64, "MAX_FIRST_INT64"},
        {GrB_MIN_PLUS_SEMIRING_INT64, GrB_INT64, "MIN_PLUS_INT64"},
        {GrB_MAX_TIMES_SEMIRING_INT64, GrB_INT64, "MAX_TIMES_INT64"},
        {GrB_MIN_SECOND_SEMIRING_INT32, GrB_INT32, "MIN_SECOND_INT32"},
        {GrB_MAX_FIRST_SEMIRING_INT32, GrB_INT32, "MAX_FIRST_INT32"},
        {GrB_MAX_PLUS_SEMIRING_INT32, GrB_INT32, "MAX_PLUS_INT32"},
        {GrB_MIN_TIMES_SEMIRING_INT32, GrB_INT32, "MIN_TIMES_INT32"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      char what[96];
      snprintf(what, sizeof what, "%s, %s, %s", cases[c].name, left ? "vxm" : "mxv", asked ? "decoded" : "k2+B");
      assert_same_product(A, G, cases[c].sr, cases[c].t, left, what);
    }
    K2_Matrix_free(&A);
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  GrB_Matrix_free(&G);
  k2_coo_free(&L);
}

// Arbitrary FP32 values: relative error <= 1e-6 against SuiteSparse.
static void test_fp32_tolerance(void **state) {
  (void)state;
  k2_rng rng = {7};
  k2_coo_list L;
  k2_coo_random(&L, 3000, 3000, 60000, &rng);
  K2_Matrix A = k2_test_matrix(&L, NULL);
  GrB_Matrix G = grb_of(L.I, L.J, L.nvals, L.nrows, L.ncols);
  float *x = malloc(3000 * sizeof(float)), *y = malloc(3000 * sizeof(float));
  GrB_Vector u = NULL, w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, 3000));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, 3000));
  for (int i = 0; i < 3000; i++) {
    x[i] = (float)k2_rng_unit(&rng);
    K2_ASSERT_OK(GrB_Vector_setElement_FP32(u, x[i], (GrB_Index)i));
  }
  K2_ASSERT_OK(GrB_mxv(w, NULL, NULL, GxB_PLUS_SECOND_FP32, G, u, NULL));
  K2_Engine engines[2] = {K2_ENGINE_OPENMP, K2_ENGINE_REFERENCE};
  for (int e = 0; e < 2; e++) {
    K2_ASSERT_OK(K2_set_engine(engines[e]));
    K2_ASSERT_OK(K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32));
    for (GrB_Index i = 0; i < 3000; i++) {
      float v = 0;
      if (GrB_Vector_extractElement_FP32(&v, w, i) != GrB_SUCCESS) v = 0;
      assert_true(fabs((double)y[i] - (double)v) <= 1e-6 * fmax(fabs((double)v), 1e-30));
    }
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  free(x);
  free(y);
  GrB_Matrix_free(&G);
  K2_Matrix_free(&A);
  k2_coo_free(&L);
}

static void test_real_graphs(void **state) {
  (void)state;
  const char *graphs[] = {"cnr-2000/cnr-2000", "uk-2007-05@100000/uk-2007-05@100000",
                          "wb-cs.stanford/wb-cs.stanford", "harvard500/harvard500",
                          "snap-wiki-Vote/wiki-Vote.txt", "lagraph/west0067.mtx",
                          "snap-email-Eu-core/email-Eu-core.txt"};
  int found = 0;
  for (size_t g = 0; g < sizeof graphs / sizeof graphs[0]; g++) {
    char base[4096];
    const char *dir = k2_test_data_path("");
    if (dir == NULL) break;
    snprintf(base, sizeof base, "%s%s", dir, graphs[g]);
    K2_Edges E;
    if (K2_Edges_read(&E, base, NULL) != GrB_SUCCESS) {
      print_message("skipping %s: %s\n", graphs[g], K2_error_string());
      continue;
    }
    found++;
    print_message("%s: %llu x %llu, %llu pairs\n", graphs[g], (unsigned long long)E.nrows,
                  (unsigned long long)E.ncols, (unsigned long long)E.nvals);
    K2_Matrix A = NULL;
    K2_ASSERT_OK(K2_Matrix_new(&A, E.nrows, E.ncols));
    K2_ASSERT_OK(K2_Matrix_build_32(A, E.I, E.J, E.nvals));
    GrB_Matrix G = grb_of(E.I, E.J, E.nvals, E.nrows, E.ncols);
    check_all(A, G, graphs[g], E.nvals < 200000);
    // with the bottom codes cached (k²+B)
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.cache_bottom_codes = true;
    K2_Matrix Af = NULL;
    K2_ASSERT_OK(K2_Matrix_new_format(&Af, E.nrows, E.ncols, &fmt));
    K2_ASSERT_OK(K2_Matrix_build_32(Af, E.I, E.J, E.nvals));
    char name[256];
    snprintf(name, sizeof name, "%s, k2+F", graphs[g]);
    check_all(Af, G, name, false);
    K2_Matrix_free(&Af);
    // asking for the last level decoded (made by a descent, no codes)
    K2_ASSERT_OK(K2_Matrix_setDecodedLevel(A, true));
    snprintf(name, sizeof name, "%s, decoded", graphs[g]);
    check_all(A, G, name, false);
    GrB_Matrix_free(&G);
    K2_Matrix_free(&A);
    K2_Edges_free(&E);
  }
  if (found == 0) {
    print_message("data folder absent: real graphs skipped\n");
    skip();
  }
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_matrices),
      cmocka_unit_test(test_decoded_min_max),
      cmocka_unit_test(test_fp32_tolerance),
      cmocka_unit_test(test_real_graphs),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
