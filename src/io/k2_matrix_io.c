// k2_matrix_io.c: trees as edge lists: the pattern of a .k2 file, and the K2_Matrix writers.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "io/k2_edges.h"
#include "util/k2_error.h"

// The pattern of A as a K2_Edges (row-major).
static GrB_Info k2_edges_of_matrix(K2_Edges *E, K2_Matrix A) {
  K2_Edges R;
  memset(&R, 0, sizeof R);
  GrB_Info info;
  if ((info = K2_Matrix_nrows(&R.nrows, A)) != GrB_SUCCESS) return info;
  if ((info = K2_Matrix_ncols(&R.ncols, A)) != GrB_SUCCESS) return info;
  GrB_Index nvals;
  if ((info = K2_Matrix_nvals(&nvals, A)) != GrB_SUCCESS) return info;
  if ((info = k2_edges_reserve(&R, nvals)) != GrB_SUCCESS) return info;
  GrB_Index got = nvals;
  info = K2_Matrix_extractTuples_32(R.I, R.J, &got, A);
  if (info != GrB_SUCCESS) {
    K2_Edges_free(&R);
    return info;
  }
  R.nvals = got;
  *E = R;
  return GrB_SUCCESS;
}

GrB_Info k2_edges_read_k2(K2_Edges *E, const char *path, const K2_ReadOptions *opt) {
  K2_Matrix A = NULL;
  GrB_Info info = K2_Matrix_load(&A, path);
  if (info != GrB_SUCCESS) return info;
  K2_Edges R;
  info = k2_edges_of_matrix(&R, A);
  K2_Matrix_free(&A);
  if (info != GrB_SUCCESS) return info;
  if ((info = k2_edges_apply_options(&R, opt)) != GrB_SUCCESS) {
    K2_Edges_free(&R);
    return info;
  }
  *E = R;
  return GrB_SUCCESS;
}

static GrB_Info k2_write_matrix(K2_Matrix A, const char *path, bool matrix_market) {
  if (A == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "writing a matrix: %s is NULL", A == NULL ? "A" : "path");
  K2_Edges E;
  GrB_Info info = k2_edges_of_matrix(&E, A);
  if (info != GrB_SUCCESS) return info;
  info = matrix_market ? K2_Edges_writeMatrixMarket(&E, path) : K2_Edges_writeEdgeList(&E, path);
  K2_Edges_free(&E);
  return info;
}

GrB_Info K2_Matrix_writeMatrixMarket(K2_Matrix A, const char *path) {
  return k2_write_matrix(A, path, true);
}

GrB_Info K2_Matrix_writeEdgeList(K2_Matrix A, const char *path) {
  return k2_write_matrix(A, path, false);
}
