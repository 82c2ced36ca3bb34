// k2_aux_check.c: see k2_aux_check.h.
// SPDX-License-Identifier: Apache-2.0
#include "k2_aux_check.h"

#include <stdio.h>
#include <string.h>

#include "k2_test.h"
#include "matrix/k2_matrix.h"

uint64_t k2_aux_core_bytes(const K2_MemoryUsage *u) {
  const uint64_t leaf_bits = UINT64_C(1) << (2 * u->leaf_log);
  return 8 * ((u->internal_nodes + 15) / 16) + 8 * ((u->leaves * leaf_bits + 63) / 64);
}

void k2_aux_check_budget(K2_Matrix A, const char *name) {
  K2_ASSERT_OK(K2_Matrix_wait(A));
  K2_MemoryUsage u;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, A));
  const uint64_t core = k2_aux_core_bytes(&u);
  assert_int_equal(core, k2_tree_core_bytes(&A->tree));
  if (20 * (u.directory + u.top) > core) {
    print_error("%s: directory %llu + top codes %llu bytes, more than 5%% of the %llu bytes of "
                "signatures and leaves\n", name, (unsigned long long)u.directory,
                (unsigned long long)u.top, (unsigned long long)core);
    fail();
  }
  K2_ASSERT_OK(k2_tree_check(&A->tree));
}

// y = A x and y' = x' A (FP64, small integers: every sum exact) on one engine.
static void dense_products(K2_Matrix A, K2_Engine engine, const double *x, double *yr, double *yl) {
  K2_ASSERT_OK(K2_set_engine(engine));
  K2_ASSERT_OK(K2_dense_mxv(yr, A, x, K2_PLUS_TIMES, GrB_FP64));
  K2_ASSERT_OK(K2_dense_vxm(yl, x, A, K2_PLUS_TIMES, GrB_FP64));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
}

// w = A u with u of a few entries (the pruned traversal), as (index, value) pairs.
static GrB_Index sparse_product(K2_Matrix A, GrB_Index n_in, GrB_Index n_out, GrB_Index *I, double *X) {
  GrB_Vector u = NULL, w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP64, n_in));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP64, n_out));
  for (GrB_Index k = 0; k < 3 && n_in > 0; k++)
    K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, (double)(k + 1), (k * 2654435761u) % n_in));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  K2_ASSERT_OK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  GrB_Index nv = n_out;
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(I, X, &nv, w));
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  return nv;
}

void k2_aux_check_products(K2_Matrix A, const K2_Edges *E, const char *name) {
  GrB_Index nr, nc;
  K2_ASSERT_OK(K2_Matrix_nrows(&nr, A));
  K2_ASSERT_OK(K2_Matrix_ncols(&nc, A));
  if (nr == 0 || nc == 0) return;
  const GrB_Index n = nr > nc ? nr : nc;
  double *x = malloc(n * sizeof *x), *yr = malloc(nr * sizeof *yr), *yl = malloc(nc * sizeof *yl);
  double *zr = malloc(nr * sizeof *zr), *zl = malloc(nc * sizeof *zl);
  GrB_Index *I = malloc(nr * sizeof *I), *J = malloc(nr * sizeof *J);
  double *X = malloc(nr * sizeof *X), *Y = malloc(nr * sizeof *Y);
  assert_true(x && yr && yl && zr && zl && I && J && X && Y);
  for (GrB_Index i = 0; i < n; i++) x[i] = (double)((i * 7) % 13) - 6.0;
  dense_products(A, K2_ENGINE_REFERENCE, x, yr, yl);
  const GrB_Index ns = sparse_product(A, nc, nr, I, X);
  const struct {
    uint32_t dir_log, top_max_log;
  } layouts[] = {{0, 0}, {8, 16}, {11, 16}, {4, 2}};
  for (size_t f = 0; f < sizeof layouts / sizeof layouts[0]; f++) {
    K2_Matrix B = A;
    if (f > 0) {
      K2_Format fmt = A->fmt;
      fmt.directory_log = layouts[f].dir_log;
      fmt.top_max_log = layouts[f].top_max_log;
      B = NULL;
      K2_ASSERT_OK(K2_Matrix_new_format(&B, nr, nc, &fmt));
      K2_ASSERT_OK(K2_Matrix_build_32(B, E->I, E->J, E->nvals));
    }
    dense_products(B, K2_ENGINE_OPENMP, x, zr, zl);
    if (memcmp(yr, zr, nr * sizeof *yr) != 0 || memcmp(yl, zl, nc * sizeof *yl) != 0) {
      print_error("%s: the OpenMP engine's products with directory_log %u, top_max_log %u differ "
                  "from the reference engine's\n", name, layouts[f].dir_log, layouts[f].top_max_log);
      fail();
    }
    if (f > 0) {
      const GrB_Index nt = sparse_product(B, nc, nr, J, Y);
      if (nt != ns || memcmp(I, J, ns * sizeof *I) != 0 || memcmp(X, Y, ns * sizeof *X) != 0) {
        print_error("%s: a sparse product with directory_log %u, top_max_log %u differs from "
                    "the default layout's\n", name, layouts[f].dir_log, layouts[f].top_max_log);
        fail();
      }
      K2_ASSERT_OK(K2_Matrix_free(&B));
    }
  }
  free(x);
  free(yr);
  free(yl);
  free(zr);
  free(zl);
  free(I);
  free(J);
  free(X);
  free(Y);
}
