// k2_files.c: the public calls that read and write graphs (include/k2grb/matrix.h's .k2 images,
// include/k2grb/io.h): serialize, save and load; the readers and writers of graph files; edge
// lists; result files (K2_OutFile). Each checks its pointers and the handle, then calls the
// layer that does the work (src/matrix/k2_serialize.c, src/io).
// SPDX-License-Identifier: Apache-2.0
#include <k2grb.h>

#include "io/k2_bvgraph.h"
#include "io/k2_edges.h"
#include "io/k2_io.h"
#include "io/k2_outfile.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_serialize.h"
#include "util/k2_atomic_file.h"
#include "util/k2_error.h"

//==============================================================================================
// .k2 images
//==============================================================================================

GrB_Info K2_Matrix_serializeSize(GrB_Index *size, K2_Matrix A) {
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_serializeSize");
  if (info != GrB_SUCCESS) return info;
  if (size == NULL) K2_MATRIX_FAIL(A, GrB_NULL_POINTER, "K2_Matrix_serializeSize: size is NULL");
  return k2_serialize_size(size, A);
}

GrB_Info K2_Matrix_serialize(void *blob, GrB_Index *size, K2_Matrix A) {
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_serialize");
  if (info != GrB_SUCCESS) return info;
  if (blob == NULL || size == NULL)
    K2_MATRIX_FAIL(A, GrB_NULL_POINTER, "K2_Matrix_serialize: %s is NULL",
                   blob == NULL ? "blob" : "size");
  return k2_serialize_image(blob, size, A);
}

GrB_Info K2_Matrix_deserialize(K2_Matrix *A, const void *blob, GrB_Index size) {
  if (A == NULL || blob == NULL)
    K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_deserialize: %s is NULL", A == NULL ? "A" : "blob");
  return k2_serialize_read(A, blob, size);
}

GrB_Info K2_Matrix_save(K2_Matrix A, const char *path) {
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_save");
  if (info != GrB_SUCCESS) return info;
  if (path == NULL) K2_MATRIX_FAIL(A, GrB_NULL_POINTER, "K2_Matrix_save: path is NULL");
  return k2_serialize_save(A, path);
}

GrB_Info K2_Matrix_load(K2_Matrix *A, const char *path) {
  if (A == NULL || path == NULL)
    K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_load: %s is NULL", A == NULL ? "A" : "path");
  return k2_serialize_load(A, path);
}

//==============================================================================================
// graph files
//==============================================================================================

void K2_ReadOptions_default(K2_ReadOptions *opt) {
  if (opt == NULL) return;
  k2_edges_options_default(opt);
}

void K2_Edges_free(K2_Edges *E) {
  if (E == NULL) return;
  k2_edges_free(E);
}

GrB_Info K2_Edges_read(K2_Edges *E, const char *path, const K2_ReadOptions *opt) {
  if (E == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Edges_read: %s is NULL", E == NULL ? "E" : "path");
  return k2_io_read_edges(E, path, opt);
}

GrB_Info K2_Edges_readBVGraph(K2_Edges *E, const char *basename, const K2_ReadOptions *opt) {
  return k2_bvgraph_read(E, basename, opt, NULL);  // checks its pointers: tests call it too
}

GrB_Info K2_Matrix_read(K2_Matrix *A, const char *path, const K2_ReadOptions *opt) {
  if (A == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_read: %s is NULL", A == NULL ? "A" : "path");
  return k2_io_read_matrix(A, path, opt);
}

static GrB_Info k2_write_edges(const K2_Edges *E, const char *path, bool matrix_market) {
  if (E == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "writing edges: %s is NULL", E == NULL ? "E" : "path");
  if (E->nvals > 0 && (E->I == NULL || E->J == NULL)) K2_FAIL(GrB_NULL_POINTER, "%s: E has %llu edges but its I or J is NULL", path, (unsigned long long)E->nvals);
  return k2_io_write_edges(E, path, matrix_market);
}

GrB_Info K2_Edges_writeMatrixMarket(const K2_Edges *E, const char *path) {
  return k2_write_edges(E, path, true);
}

GrB_Info K2_Edges_writeEdgeList(const K2_Edges *E, const char *path) {
  return k2_write_edges(E, path, false);
}

static GrB_Info k2_write_matrix(K2_Matrix A, const char *path, bool matrix_market) {
  if (A == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "writing a matrix: %s is NULL", A == NULL ? "A" : "path");
  GrB_Info info = k2_matrix_check(A, matrix_market ? "K2_Matrix_writeMatrixMarket" : "K2_Matrix_writeEdgeList");
  if (info != GrB_SUCCESS) return info;
  return k2_io_write_matrix(A, path, matrix_market);
}

GrB_Info K2_Matrix_writeMatrixMarket(K2_Matrix A, const char *path) {
  return k2_write_matrix(A, path, true);
}

GrB_Info K2_Matrix_writeEdgeList(K2_Matrix A, const char *path) {
  return k2_write_matrix(A, path, false);
}

//==============================================================================================
// result files
//==============================================================================================

GrB_Info K2_OutFile_open(K2_OutFile *file, FILE **stream, const char *path) {
  if (file == NULL || stream == NULL || path == NULL) {
    K2_FAIL(GrB_NULL_POINTER, "K2_OutFile_open: %s is NULL",
            file == NULL ? "file" : stream == NULL ? "stream" : "path");
  }
  return k2_outfile_open(file, stream, path);
}

GrB_Info K2_OutFile_commit(K2_OutFile *file) {
  if (file == NULL || *file == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_OutFile_commit: file is NULL");
  K2_OutFile f = *file;
  *file = NULL;
  return k2_outfile_commit(f);
}

GrB_Info K2_OutFile_discard(K2_OutFile *file) {
  if (file == NULL || *file == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_OutFile_discard: file is NULL");
  K2_OutFile f = *file;
  *file = NULL;
  k2_outfile_discard(f);
  return GrB_SUCCESS;
}

void K2_OutFile_removeTemporaries(void) { k2_atomic_file_remove_all(); }
