// k2_matrix_io.c: K2_Matrix_read and the K2_Matrix writers (edge lists <-> trees).
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/k2_edges.h"
#include "util/k2_error.h"

GrB_Info k2_edges_read_k2(K2_Edges *E, const char *path, const K2_ReadOptions *opt);

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

GrB_Info K2_Matrix_read(K2_Matrix *A, const char *path, const K2_ReadOptions *opt) {
  if (A == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_read: NULL argument");
  size_t n = strlen(path);
  bool k2 = opt != NULL ? opt->format == K2_FORMAT_K2 : false;
  if (opt == NULL || opt->format == K2_FORMAT_AUTO) k2 = n >= 3 && strcasecmp(path + n - 3, ".k2") == 0;
  bool plain = opt == NULL || (!opt->symmetrize && !opt->transpose && !opt->drop_self_loops);
  if (k2 && plain) return K2_Matrix_load(A, path);  // no edge list needed

  K2_Edges E;
  GrB_Info info = K2_Edges_read(&E, path, opt);
  if (info != GrB_SUCCESS) return info;
  K2_Matrix M = NULL;
  info = K2_Matrix_new(&M, E.nrows, E.ncols);
  if (info == GrB_SUCCESS) info = K2_Matrix_build_32(M, E.I, E.J, E.nvals);
  K2_Edges_free(&E);
  if (info != GrB_SUCCESS) {
    K2_Matrix_free(&M);
    return info;
  }
  *A = M;
  return GrB_SUCCESS;
}

static GrB_Info k2_write_matrix(K2_Matrix A, const char *path, bool matrix_market) {
  if (A == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "write: NULL argument");
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
