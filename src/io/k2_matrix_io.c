// k2_matrix_io.c: trees as edge lists: the pattern of a .k2 file, and the K2_Matrix writers.
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "io/k2_edges.h"
#include "io/k2_io.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_query.h"
#include "matrix/k2_serialize.h"
#include "util/k2_error.h"

// The pattern of A as a K2_Edges (row-major).
static GrB_Info k2_edges_of_matrix(K2_Edges *E, K2_Matrix A) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  K2_Edges R;
  memset(&R, 0, sizeof R);
  R.nrows = A->tree.nrows;
  R.ncols = A->tree.ncols;
  if ((info = k2_edges_reserve(&R, A->tree.nvals)) != GrB_SUCCESS) return info;
  GrB_Index got = A->tree.nvals;
  info = k2_query_tuples_32(&A->tree, R.I, R.J, &got);
  if (info != GrB_SUCCESS) {
    k2_edges_free(&R);
    return info;
  }
  R.nvals = got;
  *E = R;
  return GrB_SUCCESS;
}

GrB_Info k2_edges_read_k2(K2_Edges *E, const char *path, const K2_ReadOptions *opt) {
  K2_Matrix A = NULL;
  GrB_Info info = k2_serialize_load(&A, path);
  if (info != GrB_SUCCESS) return info;
  K2_Edges R;
  info = k2_edges_of_matrix(&R, A);
  k2_matrix_free(A);
  if (info != GrB_SUCCESS) return info;
  if ((info = k2_edges_apply_options(&R, opt)) != GrB_SUCCESS) {
    k2_edges_free(&R);
    return info;
  }
  *E = R;
  return GrB_SUCCESS;
}

GrB_Info k2_io_write_matrix(K2_Matrix A, const char *path, bool matrix_market) {
  K2_Edges E;
  GrB_Info info = k2_edges_of_matrix(&E, A);
  if (info != GrB_SUCCESS) return info;
  info = k2_io_write_edges(&E, path, matrix_market);
  k2_edges_free(&E);
  return info;
}
