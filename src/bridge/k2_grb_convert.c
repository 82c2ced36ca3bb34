// k2_grb_convert.c: K2_Matrix <-> GrB_Matrix, and the per-matrix cached GrB_Matrix.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "api/k2_api.h"
#include "bridge/k2_bridge.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

GrB_Type k2_bridge_grb_type(double weight) { return weight == 1.0 ? GrB_BOOL : GrB_FP64; }

// *out (GxB_Type_size bytes) = weight cast to `type` with GraphBLAS's own typecast.
GrB_Info k2_bridge_cast_weight(void *out, GrB_Type type, double weight) {
  GrB_Scalar s = NULL;
  GrB_Info info = GrB_Scalar_new(&s, GrB_FP64);
  if (info == GrB_SUCCESS) info = GrB_Scalar_setElement_FP64(s, weight);
  if (info == GrB_SUCCESS) {
    if (type == GrB_BOOL) info = GrB_Scalar_extractElement_BOOL(out, s);
    else if (type == GrB_INT8) info = GrB_Scalar_extractElement_INT8(out, s);
    else if (type == GrB_INT16) info = GrB_Scalar_extractElement_INT16(out, s);
    else if (type == GrB_INT32) info = GrB_Scalar_extractElement_INT32(out, s);
    else if (type == GrB_INT64) info = GrB_Scalar_extractElement_INT64(out, s);
    else if (type == GrB_UINT8) info = GrB_Scalar_extractElement_UINT8(out, s);
    else if (type == GrB_UINT16) info = GrB_Scalar_extractElement_UINT16(out, s);
    else if (type == GrB_UINT32) info = GrB_Scalar_extractElement_UINT32(out, s);
    else if (type == GrB_UINT64) info = GrB_Scalar_extractElement_UINT64(out, s);
    else if (type == GrB_FP32) info = GrB_Scalar_extractElement_FP32(out, s);
    else if (type == GrB_FP64) info = GrB_Scalar_extractElement_FP64(out, s);
    else if (type == GxB_FC32) info = GxB_Scalar_extractElement_FC32(out, s);
    else if (type == GxB_FC64) info = GxB_Scalar_extractElement_FC64(out, s);
    else info = GrB_DOMAIN_MISMATCH;
  }
  GrB_Scalar_free(&s);
  return info;
}

// The GrB_Matrix copy in A's slot: freed when the tree or the edge weight changes.
static void k2_grb_slot_free(void *state) {
  GrB_Matrix M = state;
  GrB_Matrix_free(&M);
}
static uint64_t k2_grb_slot_bytes(const void *state) {
  size_t b = 0;
  return GxB_Matrix_memoryUsage(&b, (GrB_Matrix)state) == GrB_SUCCESS ? b : 0;
}
static const k2_slot_ops k2_grb_slot_ops = {k2_grb_slot_free, k2_grb_slot_bytes, true, NULL};

GrB_Info K2_Matrix_toGrB(GrB_Matrix *G, K2_Matrix A, GrB_Type type) {
  if (G == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_toGrB: G is NULL");
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_toGrB");
  if (info != GrB_SUCCESS) return info;
  if (type == NULL) type = GrB_BOOL;
  size_t tsize = 0;
  if ((info = GxB_Type_size(&tsize, type)) != GrB_SUCCESS) {
    K2_MATRIX_FAIL(A, info, "K2_Matrix_toGrB: type is not a valid GrB_Type");
  }
  GrB_Index nrows, ncols, nvals;
  if ((info = K2_Matrix_nrows(&nrows, A)) != GrB_SUCCESS ||
      (info = K2_Matrix_ncols(&ncols, A)) != GrB_SUCCESS ||
      (info = K2_Matrix_nvals(&nvals, A)) != GrB_SUCCESS) {
    return info;
  }
  void *Ax = malloc(tsize);
  if (Ax == NULL) K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "K2_Matrix_toGrB: out of memory");
  if ((info = k2_bridge_cast_weight(Ax, type, A->weight)) != GrB_SUCCESS) {
    free(Ax);
    K2_MATRIX_FAIL(A, GrB_DOMAIN_MISMATCH,
                   "K2_Matrix_toGrB: the edge weight cannot be cast to a user-defined type");
  }

  // Tuples come in row-major order; CSR (or hypersparse CSR for very sparse shapes) is then
  // one pass and the column array is handed over as is.
  GrB_Index cap = nvals > 0 ? nvals : 1;
  GrB_Index *I = malloc(cap * sizeof(GrB_Index));
  GrB_Index *J = malloc(cap * sizeof(GrB_Index));
  GrB_Matrix M = NULL;
  GrB_Index *Ap = NULL, *Ah = NULL;
#define K2_FREE_WORK \
  do { free(I); free(J); free(Ap); free(Ah); free(Ax); GrB_Matrix_free(&M); } while (0)
  if (I == NULL || J == NULL) {
    K2_FREE_WORK;
    K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "K2_Matrix_toGrB: out of memory");
  }
  GrB_Index got = nvals;
  K2_TRY(K2_Matrix_extractTuples(I, J, &got, A));
  bool sorted = true;
  GrB_Index nvec = 0;
  for (GrB_Index k = 0; k < got; k++) {
    if (k > 0 && (I[k] < I[k - 1] || (I[k] == I[k - 1] && J[k] <= J[k - 1]))) sorted = false;
    if (k == 0 || I[k] != I[k - 1]) nvec++;
  }
  if (!sorted) {
    K2_FREE_WORK;
    K2_MATRIX_FAIL(A, GrB_INVALID_OBJECT,
                   "K2_Matrix_toGrB: the entries of the tree did not come in row order");
  }
  if (got == 0) {
    // no entries: GraphBLAS's own empty matrix (7.4 reduces the rows of a packed CSR with
    // no columns to entries)
    info = GrB_Matrix_new(&M, type, nrows, ncols);
    if (info != GrB_SUCCESS) {
      K2_FREE_WORK;
      K2_MATRIX_FAIL(A, info, "K2_Matrix_toGrB: GraphBLAS could not create the matrix");
    }
    *G = M;
    M = NULL;
    K2_FREE_WORK;
    return GrB_SUCCESS;
  }
  bool hyper = nrows > 1024 && nrows / 16 > nvec;
  GrB_Index np = hyper ? nvec + 1 : nrows + 1;
  Ap = malloc(np * sizeof(GrB_Index));
  if (hyper) Ah = malloc((nvec > 0 ? nvec : 1) * sizeof(GrB_Index));
  if (Ap == NULL || (hyper && Ah == NULL)) {
    K2_FREE_WORK;
    K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "K2_Matrix_toGrB: out of memory");
  }
  if (hyper) {
    GrB_Index v = 0;
    for (GrB_Index k = 0; k < got; k++) {
      if (k == 0 || I[k] != I[k - 1]) {
        Ah[v] = I[k];
        Ap[v++] = k;
      }
    }
    Ap[v] = got;
  } else {
    memset(Ap, 0, np * sizeof(GrB_Index));
    for (GrB_Index k = 0; k < got; k++) Ap[I[k] + 1]++;
    for (GrB_Index r = 0; r < nrows; r++) Ap[r + 1] += Ap[r];
  }
  K2_TRY(GrB_Matrix_new(&M, type, nrows, ncols));
  if (hyper) {
    info = GxB_Matrix_pack_HyperCSR(M, &Ap, &Ah, &J, &Ax, np * sizeof(GrB_Index),
                                    (nvec > 0 ? nvec : 1) * sizeof(GrB_Index),
                                    cap * sizeof(GrB_Index), tsize, true, nvec, false, NULL);
  } else {
    info = GxB_Matrix_pack_CSR(M, &Ap, &J, &Ax, np * sizeof(GrB_Index), cap * sizeof(GrB_Index),
                               tsize, true, false, NULL);
  }
  // Then the storage SuiteSparse handles (k2_bridge_sparsity). Not with a dimension 0:
  // SuiteSparse then calls the matrix full, and 7.4 reduces its empty rows to entries.
  if (info == GrB_SUCCESS && nrows > 0 && ncols > 0) {
    info = GxB_Matrix_Option_set(M, GxB_SPARSITY_CONTROL, k2_bridge_sparsity(nrows, ncols, got, false));
  }
  if (info != GrB_SUCCESS) {
    K2_FREE_WORK;
    K2_MATRIX_FAIL(A, info, "K2_Matrix_toGrB: SuiteSparse:GraphBLAS could not take the arrays of the matrix");
  }
  *G = M;
  M = NULL;
  K2_FREE_WORK;
#undef K2_FREE_WORK
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_fromGrB(K2_Matrix *A, GrB_Matrix G) {
  if (A == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_fromGrB: A is NULL");
  if (G == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_fromGrB: G is NULL");
  GrB_Index nrows, ncols, nvals;
  GrB_Info info;
  if ((info = GrB_Matrix_nvals(&nvals, G)) != GrB_SUCCESS ||
      (info = GrB_Matrix_nrows(&nrows, G)) != GrB_SUCCESS ||
      (info = GrB_Matrix_ncols(&ncols, G)) != GrB_SUCCESS) {
    K2_FAIL(info, "K2_Matrix_fromGrB: G is not a valid GrB_Matrix");
  }
  if (nrows > K2_INDEX_MAX || ncols > K2_INDEX_MAX) {
    K2_FAIL(GrB_INVALID_VALUE, "K2_Matrix_fromGrB: %llu x %llu exceeds 2^32 x 2^32",
            (unsigned long long)nrows, (unsigned long long)ncols);
  }
  GrB_Index cap = nvals > 0 ? nvals : 1;
  GrB_Index *I = malloc(cap * sizeof(GrB_Index));
  GrB_Index *J = malloc(cap * sizeof(GrB_Index));
  K2_Matrix M = NULL;
#define K2_FREE_WORK do { free(I); free(J); K2_Matrix_free(&M); } while (0)
  if (I == NULL || J == NULL) {
    K2_FREE_WORK;
    K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_fromGrB: out of memory");
  }
  // The pattern only (X = NULL); the typed call must still be one GraphBLAS accepts for G's
  // type: _UDT for user-defined types, any built-in one otherwise.
  GrB_Index got = nvals;
  GrB_Type gt = NULL;
  info = GxB_Matrix_type(&gt, G);
  if (info == GrB_SUCCESS) {
    bool builtin = k2_bridge_real_type(gt) || gt == GxB_FC32 || gt == GxB_FC64;
    info = builtin ? GrB_Matrix_extractTuples_BOOL(I, J, NULL, &got, G)
                   : GrB_Matrix_extractTuples_UDT(I, J, NULL, &got, G);
  }
  if (info != GrB_SUCCESS) {
    K2_FREE_WORK;
    K2_FAIL(info, "K2_Matrix_fromGrB: reading the pattern of G failed");
  }
  K2_TRY(K2_Matrix_new(&M, nrows, ncols));
  K2_TRY(K2_Matrix_build_64(M, I, J, got));
  *A = M;
  M = NULL;
  K2_FREE_WORK;
#undef K2_FREE_WORK
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_getGrB(GrB_Matrix *G, K2_Matrix A) {
  if (G == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_getGrB: G is NULL");
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_getGrB");
  if (info != GrB_SUCCESS) return info;
  if ((info = k2_matrix_wait(A)) != GrB_SUCCESS) return info;
  GrB_Matrix cached = k2_slot_get(A, K2_SLOT_GRB);
  if (cached != NULL) {
    *G = cached;
    return GrB_SUCCESS;
  }
  // Built outside the lock (the build reads A through calls that take it); a racing thread
  // may build one too, and the first to store wins.
  GrB_Matrix M = NULL;
  if ((info = K2_Matrix_toGrB(&M, A, k2_bridge_grb_type(A->weight))) != GrB_SUCCESS) return info;
  // finished, so that concurrent GraphBLAS readers never see pending work
  if ((info = GrB_Matrix_wait(M, GrB_MATERIALIZE)) != GrB_SUCCESS) {
    GrB_Matrix_free(&M);
    K2_MATRIX_FAIL(A, info, "K2_Matrix_getGrB: finishing the GraphBLAS copy of the matrix failed");
  }
  *G = k2_slot_offer(A, K2_SLOT_GRB, &k2_grb_slot_ops, M);
  return GrB_SUCCESS;
}

int k2_bridge_sparsity(GrB_Index nrows, GrB_Index ncols, GrB_Index nvals, bool positional) {
  // SuiteSparse 7.4 on hypersparse storage: positional multiplies take the position in the list
  // of rows for the row (wrong answers), and a product with a full valued mask crashes in its
  // accumulation. Sparse storage costs 8 bytes per row: taken unless that is far more than the
  // entries' own 8 bytes each in a large dimension, where only a positional multiply pays it.
  GrB_Index dim = nrows > ncols ? nrows : ncols;
  bool huge_and_sparse = dim > ((GrB_Index)1 << 24) && dim / 16 > nvals;
  int not_hyper = GxB_SPARSE + GxB_BITMAP + GxB_FULL;
  // bitmap when dense, sparse otherwise: a dense matrix held as sparse storage stalls some
  // masked products in 7.4
  return (positional || !huge_and_sparse) ? not_hyper : GxB_AUTO_SPARSITY;
}

GrB_Info k2_bridge_conform(GrB_Matrix *out, bool *temporary, GrB_Matrix M, bool positional) {
  *out = M;
  *temporary = false;
  int status = 0, chosen = 0;
  GrB_Index nrows, ncols, nvals;
  GrB_Info info = GxB_Matrix_Option_get(M, GxB_SPARSITY_STATUS, &status);
  if (info == GrB_SUCCESS) info = GrB_Matrix_nrows(&nrows, M);
  if (info == GrB_SUCCESS) info = GrB_Matrix_ncols(&ncols, M);
  if (info == GrB_SUCCESS) info = GrB_Matrix_nvals(&nvals, M);
  if (info != GrB_SUCCESS) return info;
  if (nrows == 0 || ncols == 0) return GrB_SUCCESS;
  if (positional && status != GxB_HYPERSPARSE) return GrB_SUCCESS;  // all a positional one needs
  GrB_Matrix D = NULL;
  info = GrB_Matrix_dup(&D, M);
  if (info == GrB_SUCCESS) {
    info = GxB_Matrix_Option_set(D, GxB_SPARSITY_CONTROL,
                                 k2_bridge_sparsity(nrows, ncols, nvals, positional));
  }
  if (info == GrB_SUCCESS) info = GxB_Matrix_Option_get(D, GxB_SPARSITY_STATUS, &chosen);
  if (info != GrB_SUCCESS) {
    GrB_Matrix_free(&D);
    K2_FAIL(info, "no memory for a copy of a matrix in another storage format");
  }
  if (chosen == status) {
    GrB_Matrix_free(&D);  // M already is in that storage
    return GrB_SUCCESS;
  }
  *out = D;
  *temporary = true;
  return GrB_SUCCESS;
}

GrB_Info k2_bridge_grb(GrB_Matrix *G, bool *temporary, K2_Matrix A, bool positional) {
  if (positional) {
    GrB_Matrix M = NULL;
    bool tmp = false;
    GrB_Info info = k2_bridge_grb(&M, &tmp, A, false);
    if (info != GrB_SUCCESS) return info;
    bool tmp2 = false;
    info = k2_bridge_conform(G, &tmp2, M, true);
    if (tmp && (info != GrB_SUCCESS || tmp2)) GrB_Matrix_free(&M);
    *temporary = tmp || tmp2;
    return info;
  }
  *temporary = false;
  if (k2_slot_get(A, K2_SLOT_GRB) != NULL || k2_api_cache_enabled()) return K2_Matrix_getGrB(G, A);
  GrB_Info info = k2_matrix_wait(A);
  if (info == GrB_SUCCESS) info = K2_Matrix_toGrB(G, A, k2_bridge_grb_type(A->weight));
  if (info == GrB_SUCCESS) *temporary = true;
  return info;
}
