// k2_csr.c: CSR and CSC import and export of a K2_Matrix (include/k2grb/matrix.h), with 32- or
// 64-bit pointers and indices.
// SPDX-License-Identifier: Apache-2.0
//
// Import checks the arrays in one pass while it expands them into (row, column) pairs, then
// builds the tree from the pairs (k2_build.c); the tree does not need the indices of a line in
// order, so unsorted lines cost nothing. A duplicate shows as a tree with fewer entries than
// the arrays: only then are the lines searched to name it. Export lists the entries in
// row-major order (k2_query.c); CSC reorders them by a counting sort on the column, which keeps
// the rows of each column ascending.
#include <stdlib.h>
#include <string.h>

#include "matrix/k2_matrix.h"
#include "matrix/k2_query.h"
#include "util/k2_error.h"

typedef unsigned long long k2_ull;

// Element k of an array of 32- or 64-bit unsigned integers.
static inline uint64_t k2_get(const void *a, bool wide, uint64_t k) {
  return wide ? ((const uint64_t *)a)[k] : ((const uint32_t *)a)[k];
}
static inline void k2_put(void *a, bool wide, uint64_t k, uint64_t v) {
  if (wide) ((uint64_t *)a)[k] = v;
  else ((uint32_t *)a)[k] = (uint32_t)v;
}

static int k2_u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// The first line (in order) holding an index twice, and that index; false if none. Only on the
// error path: one line at a time, sorted in a copy.
static bool k2_find_duplicate(const void *Ap, const void *Aj, bool wide, uint64_t n,
                              uint64_t *line, uint64_t *index) {
  uint64_t widest = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t len = k2_get(Ap, wide, i + 1) - k2_get(Ap, wide, i);
    if (len > widest) widest = len;
  }
  uint32_t *buf = malloc((widest ? widest : 1) * sizeof(uint32_t));
  if (buf == NULL) return false;
  bool found = false;
  for (uint64_t i = 0; i < n && !found; i++) {
    uint64_t p0 = k2_get(Ap, wide, i), len = k2_get(Ap, wide, i + 1) - p0;
    for (uint64_t k = 0; k < len; k++) buf[k] = (uint32_t)k2_get(Aj, wide, p0 + k);
    qsort(buf, len, sizeof(uint32_t), k2_u32_cmp);
    for (uint64_t k = 1; k < len && !found; k++) {
      if (buf[k] == buf[k - 1]) {
        found = true;
        *line = i;
        *index = buf[k];
      }
    }
  }
  free(buf);
  return found;
}

// Import of a compressed form: n lines (rows for CSR, columns for CSC) of pointers Ap (n + 1
// used of Ap_len) and indices Aj (Ap[n] used of Aj_len) along the other dimension, m long.
static GrB_Info k2_import(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols, const void *Ap,
                          const void *Aj, GrB_Index Ap_len, GrB_Index Aj_len, const K2_Format *fmt,
                          bool wide, bool by_col, const char *fn) {
  const char *line = by_col ? "column" : "row", *other = by_col ? "row" : "column";
  const char *lines = by_col ? "ncols" : "nrows";
  const char *pn = "Ap", *jn = by_col ? "Ai" : "Aj";
  if (A == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: A is NULL", fn);
  if (Ap == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: %s is NULL", fn, pn);
  if (nrows > K2_INDEX_MAX || ncols > K2_INDEX_MAX)
    K2_FAIL(GrB_INVALID_VALUE, "%s: dimensions %llu x %llu exceed 2^32", fn, (k2_ull)nrows,
            (k2_ull)ncols);
  const uint64_t n = by_col ? ncols : nrows, m = by_col ? nrows : ncols;
  if (Ap_len < n + 1)
    K2_FAIL(GrB_INVALID_VALUE, "%s: %s_len is %llu, less than %s + 1 (%llu)", fn, pn,
            (k2_ull)Ap_len, lines, (k2_ull)(n + 1));
  if (k2_get(Ap, wide, 0) != 0)
    K2_FAIL(GrB_INVALID_VALUE, "%s: %s[0] is %llu, not 0", fn, pn, (k2_ull)k2_get(Ap, wide, 0));
  for (uint64_t i = 0; i < n; i++) {
    uint64_t a = k2_get(Ap, wide, i), b = k2_get(Ap, wide, i + 1);
    if (b < a)
      K2_FAIL(GrB_INVALID_VALUE, "%s: %s decreases at %s %llu: %s[%llu] = %llu, %s[%llu] = %llu",
              fn, pn, line, (k2_ull)i, pn, (k2_ull)i, (k2_ull)a, pn, (k2_ull)(i + 1), (k2_ull)b);
  }
  const uint64_t nvals = k2_get(Ap, wide, n);
  if (nvals > Aj_len)
    K2_FAIL(GrB_INVALID_VALUE, "%s: %s[%s] is %llu, more than %s_len (%llu)", fn, pn, lines,
            (k2_ull)nvals, jn, (k2_ull)Aj_len);
  if (nvals > 0 && Aj == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: %s is NULL", fn, jn);

  // The pairs, the indices checked on the way: the first bad position in Aj is reported.
  uint32_t *I = malloc((nvals ? nvals : 1) * sizeof(uint32_t));
  uint32_t *J = malloc((nvals ? nvals : 1) * sizeof(uint32_t));
  if (I == NULL || J == NULL) {
    free(I);
    free(J);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: no memory for %llu entries", fn, (k2_ull)nvals);
  }
  uint64_t bad = UINT64_MAX;
#pragma omp parallel for schedule(guided) reduction(min : bad) if (nvals > 65536)
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t p1 = k2_get(Ap, wide, i + 1);
    for (uint64_t p = k2_get(Ap, wide, i); p < p1; p++) {
      const uint64_t j = k2_get(Aj, wide, p);
      if (j >= m) {
        if (p < bad) bad = p;
        break;
      }
      I[p] = by_col ? (uint32_t)j : (uint32_t)i;
      J[p] = by_col ? (uint32_t)i : (uint32_t)j;
    }
  }
  if (bad != UINT64_MAX) {
    free(I);
    free(J);
    uint64_t i = 0, hi = n;  // the line of position bad: the first i with Ap[i + 1] > bad
    while (i < hi) {
      uint64_t mid = i + (hi - i) / 2;
      if (k2_get(Ap, wide, mid + 1) <= bad) i = mid + 1;
      else hi = mid;
    }
    K2_FAIL(GrB_INDEX_OUT_OF_BOUNDS, "%s: %s[%llu] = %llu (%s %llu) is out of range: the matrix has %llu %ss",
            fn, jn, (k2_ull)bad, (k2_ull)k2_get(Aj, wide, bad), line, (k2_ull)i, (k2_ull)m, other);
  }

  K2_Matrix M = NULL;
  GrB_Info info = k2_matrix_alloc(&M, nrows, ncols, fmt);
  if (info == GrB_SUCCESS) info = k2_matrix_build_32(M, I, J, nvals);
  free(I);
  free(J);
  if (info != GrB_SUCCESS) {
    if (M != NULL) k2_matrix_free(M);
    return info;
  }
  if (M->tree.nvals != nvals) {  // duplicates were merged
    k2_matrix_free(M);
    uint64_t di = 0, dj = 0;
    if (k2_find_duplicate(Ap, Aj, wide, n, &di, &dj))
      K2_FAIL(GrB_INVALID_VALUE, "%s: %s %llu holds %s %llu more than once", fn, line,
              (k2_ull)di, other, (k2_ull)dj);
    K2_FAIL(GrB_INVALID_VALUE, "%s: %s holds a duplicate index", fn, jn);
  }
  *A = M;
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_import_CSR_64(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint64_t *Ap, const uint64_t *Aj, GrB_Index Ap_len,
                                 GrB_Index Aj_len, const K2_Format *fmt) {
  return k2_import(A, nrows, ncols, Ap, Aj, Ap_len, Aj_len, fmt, true, false,
                   "K2_Matrix_import_CSR_64");
}

GrB_Info K2_Matrix_import_CSR_32(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint32_t *Ap, const uint32_t *Aj, GrB_Index Ap_len,
                                 GrB_Index Aj_len, const K2_Format *fmt) {
  return k2_import(A, nrows, ncols, Ap, Aj, Ap_len, Aj_len, fmt, false, false,
                   "K2_Matrix_import_CSR_32");
}

GrB_Info K2_Matrix_import_CSC_64(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint64_t *Ap, const uint64_t *Ai, GrB_Index Ap_len,
                                 GrB_Index Ai_len, const K2_Format *fmt) {
  return k2_import(A, nrows, ncols, Ap, Ai, Ap_len, Ai_len, fmt, true, true,
                   "K2_Matrix_import_CSC_64");
}

GrB_Info K2_Matrix_import_CSC_32(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint32_t *Ap, const uint32_t *Ai, GrB_Index Ap_len,
                                 GrB_Index Ai_len, const K2_Format *fmt) {
  return k2_import(A, nrows, ncols, Ap, Ai, Ap_len, Ai_len, fmt, false, true,
                   "K2_Matrix_import_CSC_32");
}

//==============================================================================================
// export
//==============================================================================================

static GrB_Info k2_export_size(GrB_Index *Ap_len, GrB_Index *Aj_len, K2_Matrix A, bool by_col,
                               const char *fn) {
  if (Ap_len == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: Ap_len is NULL", fn);
  if (Aj_len == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: %s_len is NULL", fn, by_col ? "Ai" : "Aj");
  GrB_Info info = k2_matrix_check(A, fn);
  if (info == GrB_SUCCESS) info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  *Ap_len = (by_col ? A->tree.ncols : A->tree.nrows) + 1;
  *Aj_len = A->tree.nvals;
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_exportSize_CSR(GrB_Index *Ap_len, GrB_Index *Aj_len, K2_Matrix A) {
  return k2_export_size(Ap_len, Aj_len, A, false, "K2_Matrix_exportSize_CSR");
}

GrB_Info K2_Matrix_exportSize_CSC(GrB_Index *Ap_len, GrB_Index *Ai_len, K2_Matrix A) {
  return k2_export_size(Ap_len, Ai_len, A, true, "K2_Matrix_exportSize_CSC");
}

// Export into the caller's arrays: every check and allocation first, so that a failure leaves
// them (and the lengths) untouched.
static GrB_Info k2_export(void *Ap, void *Aj, GrB_Index *Ap_len, GrB_Index *Aj_len, K2_Matrix A,
                          bool wide, bool by_col, const char *fn) {
  const char *jn = by_col ? "Ai" : "Aj";
  if (Ap_len == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: Ap_len is NULL", fn);
  if (Aj_len == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: %s_len is NULL", fn, jn);
  GrB_Index need_p, need_j;
  GrB_Info info = k2_export_size(&need_p, &need_j, A, by_col, fn);
  if (info != GrB_SUCCESS) return info;
  if (Ap == NULL) K2_MATRIX_FAIL(A, GrB_NULL_POINTER, "%s: Ap is NULL", fn);
  if (Aj == NULL && need_j > 0) K2_MATRIX_FAIL(A, GrB_NULL_POINTER, "%s: %s is NULL", fn, jn);
  if (*Ap_len < need_p)
    K2_MATRIX_FAIL(A, GrB_INSUFFICIENT_SPACE, "%s: Ap_len is %llu, the matrix needs %llu", fn,
                   (k2_ull)*Ap_len, (k2_ull)need_p);
  if (*Aj_len < need_j)
    K2_MATRIX_FAIL(A, GrB_INSUFFICIENT_SPACE, "%s: %s_len is %llu, the matrix has %llu entries",
                   fn, jn, (k2_ull)*Aj_len, (k2_ull)need_j);
  if (!wide && need_j > UINT32_MAX)
    K2_MATRIX_FAIL(A, GrB_INVALID_VALUE,
                   "%s: %llu entries do not fit 32-bit pointers (the _64 export takes them)", fn,
                   (k2_ull)need_j);
  const uint64_t nv = need_j, n = need_p - 1;
  uint32_t *I = malloc((nv ? nv : 1) * sizeof(uint32_t)), *J = malloc((nv ? nv : 1) * sizeof(uint32_t));
  if (I == NULL || J == NULL) {
    free(I);
    free(J);
    K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "%s: no memory for %llu entries", fn, (k2_ull)nv);
  }
  GrB_Index cnt = nv;
  info = k2_query_tuples_32(&A->tree, I, J, &cnt);
  if (info != GrB_SUCCESS) {
    free(I);
    free(J);
    return k2_error_to_obj(A->error, sizeof A->error, info);
  }
  // Nothing fails from here on. Entries are in row-major order; the line of entry k is
  // L[k], its other index O[k].
  const uint32_t *L = by_col ? J : I, *O = by_col ? I : J;
  for (uint64_t i = 0; i <= n; i++) k2_put(Ap, wide, i, 0);
  for (uint64_t k = 0; k < nv; k++) {
    const uint64_t i = (uint64_t)L[k] + 1;
    k2_put(Ap, wide, i, k2_get(Ap, wide, i) + 1);
  }
  for (uint64_t i = 0; i < n; i++) k2_put(Ap, wide, i + 1, k2_get(Ap, wide, i + 1) + k2_get(Ap, wide, i));
  if (!by_col) {
    for (uint64_t k = 0; k < nv; k++) k2_put(Aj, wide, k, O[k]);
  } else {
    // Ap[i] serves as the cursor of column i; after the scatter it holds the start of column
    // i + 1, so the pointers are shifted back by one.
    for (uint64_t k = 0; k < nv; k++) {
      uint64_t p = k2_get(Ap, wide, L[k]);
      k2_put(Aj, wide, p, O[k]);
      k2_put(Ap, wide, L[k], p + 1);
    }
    for (uint64_t i = n; i > 0; i--) k2_put(Ap, wide, i, k2_get(Ap, wide, i - 1));
    k2_put(Ap, wide, 0, 0);
  }
  free(I);
  free(J);
  *Ap_len = need_p;
  *Aj_len = need_j;
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_export_CSR_64(uint64_t *Ap, uint64_t *Aj, GrB_Index *Ap_len, GrB_Index *Aj_len,
                                 K2_Matrix A) {
  return k2_export(Ap, Aj, Ap_len, Aj_len, A, true, false, "K2_Matrix_export_CSR_64");
}

GrB_Info K2_Matrix_export_CSR_32(uint32_t *Ap, uint32_t *Aj, GrB_Index *Ap_len, GrB_Index *Aj_len,
                                 K2_Matrix A) {
  return k2_export(Ap, Aj, Ap_len, Aj_len, A, false, false, "K2_Matrix_export_CSR_32");
}

GrB_Info K2_Matrix_export_CSC_64(uint64_t *Ap, uint64_t *Ai, GrB_Index *Ap_len, GrB_Index *Ai_len,
                                 K2_Matrix A) {
  return k2_export(Ap, Ai, Ap_len, Ai_len, A, true, true, "K2_Matrix_export_CSC_64");
}

GrB_Info K2_Matrix_export_CSC_32(uint32_t *Ap, uint32_t *Ai, GrB_Index *Ap_len, GrB_Index *Ai_len,
                                 K2_Matrix A) {
  return k2_export(Ap, Ai, Ap_len, Ai_len, A, false, true, "K2_Matrix_export_CSC_32");
}
