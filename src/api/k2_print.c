// k2_print.c: K2_Matrix_print / K2_Matrix_fprint, a K2_Matrix described as GxB_Matrix_fprint
// describes a GrB_Matrix (include/k2grb/matrix.h).
// SPDX-License-Identifier: Apache-2.0
//
// The entries are listed row by row: the cached row occupancy (one product, kept on the matrix)
// says which rows to read, and each row is one query of the tree, so that GxB_SHORT's first 30
// entries cost a few rows, not a decode of the whole matrix.
#include <stdio.h>
#include <stdlib.h>

#include "api/k2_api.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_query.h"
#include "util/k2_error.h"

#define K2_PRINT_SHORT 30  // entries listed at GxB_SHORT, as GraphBLAS does

typedef unsigned long long k2_ull;

// The entries (i,j), at most `limit`, then "..." if some were left out; occ: the rows that
// hold an entry.
static GrB_Info k2_print_entries(FILE *f, K2_Matrix A, const uint8_t *occ, uint64_t limit,
                                 const char *fn) {
  GrB_Info info = GrB_SUCCESS;
  GrB_Index *cols = NULL;
  uint64_t cap = 0, shown = 0;
  for (uint64_t i = 0; i < A->tree.nrows && shown < limit; i++) {
    if (!occ[i]) continue;
    GrB_Index cnt = 0;
    const uint64_t known = k2_api_line_count(A, false, i);  // (the row degrees, where cached)
    if ((info = k2_query_line(&A->tree, false, i, NULL, &cnt, known)) != GrB_SUCCESS) break;
    if (cnt > cap) {
      free(cols);
      cap = cnt;
      if ((cols = malloc(cap * sizeof(GrB_Index))) == NULL) {
        info = k2_error_set(GrB_OUT_OF_MEMORY, "%s: no memory for row %llu", fn, (k2_ull)i);
        break;
      }
    }
    if ((info = k2_query_line(&A->tree, false, i, cols, &cnt, known)) != GrB_SUCCESS) break;
    for (uint64_t k = 0; k < cnt && shown < limit; k++, shown++)
      fprintf(f, "    (%llu,%llu)\n", (k2_ull)i, (k2_ull)cols[k]);
  }
  free(cols);
  if (info == GrB_SUCCESS && shown < A->tree.nvals) fprintf(f, "    ...\n");
  return info;
}

GrB_Info K2_Matrix_fprint(K2_Matrix A, const char *name, GxB_Print_Level level, FILE *f) {
  const char *fn = "K2_Matrix_fprint";
  GrB_Info info = k2_api_check_matrix(A, fn);
  if (info != GrB_SUCCESS) return info;
  if ((int)level < GxB_SILENT || (int)level > GxB_COMPLETE_VERBOSE)
    K2_MATRIX_FAIL(A, GrB_INVALID_VALUE,
                   "%s: print level %s%d is not one of GxB_SILENT (0) to GxB_COMPLETE_VERBOSE (5)",
                   fn, (int)level < 0 ? "minus " : "", abs((int)level));
  // what is printed is the matrix with its pending edits, as every reader sees it
  if ((info = k2_matrix_wait(A)) != GrB_SUCCESS) return info;
  if (level == GxB_SILENT) return GrB_SUCCESS;
  if (f == NULL) f = stdout;  // as GxB_fprint
  const bool verbose = level == GxB_SHORT_VERBOSE || level == GxB_COMPLETE_VERBOSE;
  const bool all = level == GxB_COMPLETE || level == GxB_COMPLETE_VERBOSE;
  // the occupancy before the header: the bytes printed include it once it is cached
  const uint8_t *occ = NULL;
  if (level != GxB_SUMMARY) {
    uint64_t occupied = 0;
    if ((info = k2_api_occupancy(&occ, &occupied, A, false)) != GrB_SUCCESS)
      return k2_error_to_obj(A->error, sizeof A->error, info);
  }
  const k2_tree *t = &A->tree;
  K2_MemoryUsage mem;
  k2_matrix_memory(&mem, A);
  const unsigned leaf = 1u << t->leaf_log;
  fprintf(f, "\n  K2_Matrix%s%s: %llu x %llu, %llu entries, edge weight %.*g\n",
          name != NULL && name[0] != '\0' ? " " : "", name != NULL ? name : "", (k2_ull)t->nrows,
          (k2_ull)t->ncols, (k2_ull)t->nvals, verbose ? 15 : 6, A->weight);
  fprintf(f, "  k2-tree: %u levels, %ux%u leaves, %llu internal nodes, %llu leaves, %llu bytes\n",
          t->levels, leaf, leaf, (k2_ull)t->n_internal, (k2_ull)t->n_leaves, (k2_ull)mem.total);
  if (t->leaf_codes != NULL)
    fprintf(f, "  leaves compressed: %llu distinct patterns (%llu bytes), %llu bytes with the codes\n",
            (k2_ull)mem.leaf_patterns, (k2_ull)mem.leaf_vocabulary, (k2_ull)mem.leaf_bytes);
  if (occ != NULL &&
      (info = k2_print_entries(f, A, occ, all ? UINT64_MAX : K2_PRINT_SHORT, fn)) != GrB_SUCCESS)
    return k2_error_to_obj(A->error, sizeof A->error, info);
  if (fflush(f) != 0 || ferror(f))
    K2_MATRIX_FAIL(A, GrB_INVALID_VALUE, "%s: writing the description failed", fn);
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_print(K2_Matrix A, GxB_Print_Level level, FILE *f) {
  return K2_Matrix_fprint(A, NULL, level, f);
}
