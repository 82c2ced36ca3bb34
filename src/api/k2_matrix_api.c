// k2_matrix_api.c: the public calls of the K2_Matrix object (include/k2grb/matrix.h): format,
// lifetime, build, edits, queries, edge weight, errors, memory usage. Each checks its pointers,
// the handle and the indices, then calls the matrix layer (src/matrix/k2_matrix.c, k2_query.c).
// SPDX-License-Identifier: Apache-2.0
#include <k2grb.h>

#include "api/k2_api.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_query.h"
#include "util/k2_error.h"

#define K2_CHECK_MATRIX(A, where)                    \
  do {                                               \
    GrB_Info k2_chk_ = k2_matrix_check((A), where);  \
    if (k2_chk_ != GrB_SUCCESS) return k2_chk_;      \
  } while (0)

#define K2_CHECK_PTR(p, where, what)                                         \
  do {                                                                       \
    if ((p) == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: %s is NULL", where, what); \
  } while (0)

// A live handle with its pending edits assembled: what every reader of the entries needs.
#define K2_READY(A, where)                        \
  do {                                            \
    K2_CHECK_MATRIX(A, where);                    \
    GrB_Info k2_w_ = k2_matrix_wait(A);           \
    if (k2_w_ != GrB_SUCCESS) return k2_w_;       \
  } while (0)

void K2_Format_default(K2_Format *fmt) {
  if (fmt == NULL) return;
  k2_matrix_format_default(fmt);
}

//==============================================================================================
// lifetime
//==============================================================================================

GrB_Info K2_Matrix_new_format(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols, const K2_Format *fmt) {
  K2_CHECK_PTR(A, "K2_Matrix_new", "A");
  *A = NULL;
  return k2_matrix_alloc(A, nrows, ncols, fmt);
}

GrB_Info K2_Matrix_new(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols) {
  return K2_Matrix_new_format(A, nrows, ncols, NULL);
}

GrB_Info K2_Matrix_free(K2_Matrix *A) {
  if (A == NULL || *A == NULL) return GrB_SUCCESS;
  if ((*A)->magic != K2_MAGIC_LIVE)
    K2_FAIL(GrB_UNINITIALIZED_OBJECT, "K2_Matrix_free: the K2_Matrix is not initialized");
  k2_matrix_free(*A);
  *A = NULL;
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_dup(K2_Matrix *C, K2_Matrix A) {
  K2_CHECK_PTR(C, "K2_Matrix_dup", "C");
  K2_CHECK_MATRIX(A, "K2_Matrix_dup");
  return k2_matrix_dup(C, A);
}

GrB_Info K2_Matrix_setBottomCodes(K2_Matrix A, bool keep) {
  K2_CHECK_MATRIX(A, "K2_Matrix_setBottomCodes");
  return k2_matrix_set_bottom_codes(A, keep);
}

GrB_Info K2_Matrix_setDecodedLevel(K2_Matrix A, bool keep) {
  K2_CHECK_MATRIX(A, "K2_Matrix_setDecodedLevel");
  k2_matrix_set_decoded_level(A, keep);
  return GrB_SUCCESS;
}

//==============================================================================================
// build and edits
//==============================================================================================

// Checks shared by the build entries: the handle, the arrays, the count.
static GrB_Info k2_build_args(K2_Matrix A, const void *I, const void *J, GrB_Index nvals) {
  K2_CHECK_MATRIX(A, "K2_Matrix_build");
  if (nvals > 0 && (I == NULL || J == NULL))
    K2_MATRIX_FAIL(A, GrB_NULL_POINTER, "K2_Matrix_build: I or J is NULL");
  if (nvals > (GrB_Index)INT64_MAX / 16)
    K2_MATRIX_FAIL(A, GrB_INVALID_VALUE, "K2_Matrix_build: nvals %llu too large",
                   (unsigned long long)nvals);
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_build_32(K2_Matrix A, const uint32_t *I, const uint32_t *J, GrB_Index nvals) {
  GrB_Info info = k2_build_args(A, I, J, nvals);
  if (info != GrB_SUCCESS) return info;
  return k2_matrix_build_32(A, I, J, nvals);
}

GrB_Info K2_Matrix_build_64(K2_Matrix A, const uint64_t *I, const uint64_t *J, GrB_Index nvals) {
  GrB_Info info = k2_build_args(A, I, J, nvals);
  if (info != GrB_SUCCESS) return info;
  return k2_matrix_build_64(A, I, J, nvals);
}

GrB_Info K2_Matrix_build(K2_Matrix A, const GrB_Index *I, const GrB_Index *J, GrB_Index nvals) {
  return K2_Matrix_build_64(A, I, J, nvals);
}

static GrB_Info k2_edit(K2_Matrix A, GrB_Index i, GrB_Index j, bool insert, const char *where) {
  K2_CHECK_MATRIX(A, where);
  if (i >= A->tree.nrows || j >= A->tree.ncols)
    K2_MATRIX_FAIL(A, GrB_INVALID_INDEX, "%s: (%llu, %llu) outside the %llu x %llu matrix", where,
                   (unsigned long long)i, (unsigned long long)j,
                   (unsigned long long)A->tree.nrows, (unsigned long long)A->tree.ncols);
  return k2_matrix_queue(A, i, j, insert, where);
}

GrB_Info K2_Matrix_setElement(K2_Matrix A, GrB_Index i, GrB_Index j) {
  return k2_edit(A, i, j, true, "K2_Matrix_setElement");
}

GrB_Info K2_Matrix_removeElement(K2_Matrix A, GrB_Index i, GrB_Index j) {
  return k2_edit(A, i, j, false, "K2_Matrix_removeElement");
}

GrB_Info K2_Matrix_wait(K2_Matrix A) {
  K2_CHECK_MATRIX(A, "K2_Matrix_wait");
  return k2_matrix_wait(A);
}

//==============================================================================================
// queries
//==============================================================================================

GrB_Info K2_Matrix_nrows(GrB_Index *nrows, K2_Matrix A) {
  K2_CHECK_PTR(nrows, "K2_Matrix_nrows", "nrows");
  K2_CHECK_MATRIX(A, "K2_Matrix_nrows");
  *nrows = A->tree.nrows;
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_ncols(GrB_Index *ncols, K2_Matrix A) {
  K2_CHECK_PTR(ncols, "K2_Matrix_ncols", "ncols");
  K2_CHECK_MATRIX(A, "K2_Matrix_ncols");
  *ncols = A->tree.ncols;
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_nvals(GrB_Index *nvals, K2_Matrix A) {
  K2_CHECK_PTR(nvals, "K2_Matrix_nvals", "nvals");
  K2_READY(A, "K2_Matrix_nvals");
  *nvals = A->tree.nvals;
  return GrB_SUCCESS;
}

// The checks of both extractTuples: *nvals holds the room of I and J.
static GrB_Info k2_tuples_args(GrB_Index *nvals, K2_Matrix A) {
  K2_CHECK_PTR(nvals, "K2_Matrix_extractTuples", "nvals");
  K2_READY(A, "K2_Matrix_extractTuples");
  if (*nvals < A->tree.nvals)
    K2_MATRIX_FAIL(A, GrB_INSUFFICIENT_SPACE,
                   "K2_Matrix_extractTuples: room for %llu entries, the matrix has %llu",
                   (unsigned long long)*nvals, (unsigned long long)A->tree.nvals);
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_extractTuples_32(uint32_t *I, uint32_t *J, GrB_Index *nvals, K2_Matrix A) {
  GrB_Info info = k2_tuples_args(nvals, A);
  if (info != GrB_SUCCESS) return info;
  return k2_query_tuples_32(&A->tree, I, J, nvals);
}

GrB_Info K2_Matrix_extractTuples(GrB_Index *I, GrB_Index *J, GrB_Index *nvals, K2_Matrix A) {
  GrB_Info info = k2_tuples_args(nvals, A);
  if (info != GrB_SUCCESS) return info;
  return k2_matrix_tuples_64(A, I, J, nvals);
}

GrB_Info K2_Matrix_isEntry(bool *present, K2_Matrix A, GrB_Index i, GrB_Index j) {
  K2_CHECK_PTR(present, "K2_Matrix_isEntry", "present");
  K2_READY(A, "K2_Matrix_isEntry");
  if (i >= A->tree.nrows || j >= A->tree.ncols)
    K2_MATRIX_FAIL(A, GrB_INVALID_INDEX, "K2_Matrix_isEntry: (%llu, %llu) outside the %llu x %llu matrix",
                   (unsigned long long)i, (unsigned long long)j,
                   (unsigned long long)A->tree.nrows, (unsigned long long)A->tree.ncols);
  *present = k2_query_entry(&A->tree, i, j);
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_extractElement_BOOL(bool *x, K2_Matrix A, GrB_Index i, GrB_Index j) {
  K2_CHECK_PTR(x, "K2_Matrix_extractElement", "x");
  double w;
  GrB_Info info = K2_Matrix_extractElement_FP64(&w, A, i, j);
  if (info == GrB_SUCCESS) *x = w != 0;
  return info;
}

GrB_Info K2_Matrix_extractElement_FP64(double *x, K2_Matrix A, GrB_Index i, GrB_Index j) {
  K2_CHECK_PTR(x, "K2_Matrix_extractElement", "x");
  bool present;
  GrB_Info info = K2_Matrix_isEntry(&present, A, i, j);
  if (info != GrB_SUCCESS) return info;
  if (!present) return GrB_NO_VALUE;
  *x = A->weight;
  return GrB_SUCCESS;
}

// A line query's checks: A ready, idx one of its rows (columns when by_col).
static GrB_Info k2_line_check(K2_Matrix A, GrB_Index idx, bool by_col, const char *where) {
  K2_READY(A, where);
  uint64_t limit = by_col ? A->tree.ncols : A->tree.nrows;
  if (idx >= limit)
    K2_MATRIX_FAIL(A, GrB_INVALID_INDEX, "%s: %s %llu is out of range: the matrix has %llu", where,
                   by_col ? "column" : "row", (unsigned long long)idx, (unsigned long long)limit);
  return GrB_SUCCESS;
}

// The columns of row idx (by_col false) or the rows of column idx (by_col true).
static GrB_Info k2_line(GrB_Index *out, GrB_Index *count, K2_Matrix A, GrB_Index idx, bool by_col,
                        const char *where) {
  K2_CHECK_PTR(count, where, "count");
  GrB_Info info = k2_line_check(A, idx, by_col, where);
  return info != GrB_SUCCESS ? info
                              : k2_query_line(&A->tree, by_col, idx, out, count, k2_api_line_count(A, by_col, idx));
}

GrB_Info K2_Matrix_rowNeighbors(GrB_Index *out, GrB_Index *count, K2_Matrix A, GrB_Index i) {
  return k2_line(out, count, A, i, false, "K2_Matrix_rowNeighbors");
}

GrB_Info K2_Matrix_colNeighbors(GrB_Index *out, GrB_Index *count, K2_Matrix A, GrB_Index j) {
  return k2_line(out, count, A, j, true, "K2_Matrix_colNeighbors");
}

static GrB_Info k2_line_first(GrB_Index *out, GrB_Index *count, bool *more, K2_Matrix A, GrB_Index idx, bool by_col,
                              const char *where) {
  K2_CHECK_PTR(out, where, "out");
  K2_CHECK_PTR(count, where, "count");
  K2_CHECK_PTR(more, where, "more");
  GrB_Info info = k2_line_check(A, idx, by_col, where);
  return info != GrB_SUCCESS
             ? info
             : k2_query_line_first(&A->tree, by_col, idx, out, count, more, k2_api_line_count(A, by_col, idx));
}

GrB_Info K2_Matrix_rowNeighborsFirst(GrB_Index *out, GrB_Index *count, bool *more, K2_Matrix A, GrB_Index i) {
  return k2_line_first(out, count, more, A, i, false, "K2_Matrix_rowNeighborsFirst");
}

GrB_Info K2_Matrix_colNeighborsFirst(GrB_Index *out, GrB_Index *count, bool *more, K2_Matrix A, GrB_Index j) {
  return k2_line_first(out, count, more, A, j, true, "K2_Matrix_colNeighborsFirst");
}

GrB_Info K2_Matrix_isEqual(bool *equal, K2_Matrix A, K2_Matrix B) {
  K2_CHECK_PTR(equal, "K2_Matrix_isEqual", "equal");
  K2_READY(A, "K2_Matrix_isEqual");
  K2_READY(B, "K2_Matrix_isEqual");
  return k2_matrix_equal(equal, A, B);
}

//==============================================================================================
// edge weight and errors
//==============================================================================================

GrB_Info K2_Matrix_setEdgeWeight(K2_Matrix A, double w) {
  K2_CHECK_MATRIX(A, "K2_Matrix_setEdgeWeight");
  k2_matrix_set_weight(A, w);
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_getEdgeWeight(double *w, K2_Matrix A) {
  K2_CHECK_PTR(w, "K2_Matrix_getEdgeWeight", "w");
  K2_CHECK_MATRIX(A, "K2_Matrix_getEdgeWeight");
  *w = A->weight;
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_error(const char **message, K2_Matrix A) {
  K2_CHECK_PTR(message, "K2_Matrix_error", "message");
  K2_CHECK_MATRIX(A, "K2_Matrix_error");
  *message = A->error;
  return GrB_SUCCESS;
}

//==============================================================================================
// memory accounting
//==============================================================================================

GrB_Info K2_Matrix_memoryUsage(K2_MemoryUsage *u, K2_Matrix A) {
  K2_CHECK_PTR(u, "K2_Matrix_memoryUsage", "usage");
  K2_CHECK_MATRIX(A, "K2_Matrix_memoryUsage");
  k2_matrix_memory(u, A);
  return GrB_SUCCESS;
}

uint64_t K2_csr_bytes(GrB_Index nrows, GrB_Index nvals, bool values) {
  return (nrows + 1) * sizeof(uint64_t) + nvals * sizeof(uint32_t) + (values ? nvals * sizeof(float) : 0);
}
