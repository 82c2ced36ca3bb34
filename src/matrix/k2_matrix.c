// k2_matrix.c: the K2_Matrix object: lifetime, build, pending edits, accounting. The public
// calls (src/api/k2_matrix_api.c) check the arguments and the handle, then come here.
// SPDX-License-Identifier: Apache-2.0
#include "matrix/k2_matrix.h"

#include <stdlib.h>
#include <string.h>

#include "matrix/k2_query.h"
#include "util/k2_error.h"


void k2_matrix_format_default(K2_Format *fmt) {
  fmt->leaf_log = 1;
  fmt->directory_log = 0;  // both sized from the tree (k2_tree_aux_plan)
  fmt->top_max_log = 0;
  fmt->cache_bottom_codes = false;
  fmt->compress_leaves = false;
  fmt->full_blocks = false;
}

static GrB_Info k2_format_check(const K2_Format *fmt) {
  if (fmt->leaf_log < 1 || fmt->leaf_log > 3)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Format: leaf_log %u not in 1..3 (2x2, 4x4, 8x8 leaves)",
            fmt->leaf_log);
  if (fmt->directory_log != 0 && (fmt->directory_log < 4 || fmt->directory_log > 30))
    K2_FAIL(GrB_INVALID_VALUE, "K2_Format: directory_log %u is neither 0 (sized from the tree) "
            "nor in 4..30", fmt->directory_log);
  if (fmt->top_max_log > 30)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Format: top_max_log %u above 30", fmt->top_max_log);
  if (fmt->compress_leaves && fmt->leaf_log < 2)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Format: compress_leaves needs leaf_log 2 or 3 (4x4 or 8x8 "
            "leaves); a 2x2 leaf has 4 bits, no shorter as a code");
  return GrB_SUCCESS;
}

GrB_Info k2_matrix_check(K2_Matrix A, const char *where) {
  if (A == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: the K2_Matrix is NULL", where);
  if (A->magic != K2_MAGIC_LIVE)
    K2_FAIL(GrB_UNINITIALIZED_OBJECT, "%s: the K2_Matrix is not initialized (freed or garbage)",
            where);
  return GrB_SUCCESS;
}

GrB_Info k2_matrix_alloc(K2_Matrix *A, uint64_t nrows, uint64_t ncols, const K2_Format *fmt) {
  K2_Format f;
  if (fmt == NULL) k2_matrix_format_default(&f);
  else f = *fmt;
  GrB_Info info = k2_format_check(&f);
  if (info != GrB_SUCCESS) return info;
  if (nrows > K2_INDEX_MAX || ncols > K2_INDEX_MAX)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Matrix_new: dimensions %llu x %llu exceed 2^32",
            (unsigned long long)nrows, (unsigned long long)ncols);
  K2_Matrix M = calloc(1, sizeof *M);
  if (M == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_new: no memory");
  M->fmt = f;
  M->weight = 1.0;
  M->tree.nrows = nrows;
  M->tree.ncols = ncols;
  M->tree.leaf_log = f.leaf_log;
  M->tree.side_log = k2_tree_side_log(nrows, ncols, f.leaf_log);
  M->tree.levels = M->tree.side_log - f.leaf_log;
  M->tree.level_start = calloc(M->tree.levels + 2, sizeof(uint64_t));
  if (M->tree.level_start == NULL || pthread_mutex_init(&M->lock, NULL) != 0) {
    free(M->tree.level_start);
    free(M);
    K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_new: no memory");
  }
  M->tree.dir_log = f.directory_log ? f.directory_log : K2_DIR_LOG_DENSEST;
  M->magic = K2_MAGIC_LIVE;
  *A = M;
  return GrB_SUCCESS;
}

void k2_matrix_invalidate(K2_Matrix A) { k2_slots_drop(A, false); }

void k2_matrix_free(K2_Matrix A) {
  k2_matrix_invalidate(A);
  k2_tree_clear(&A->tree);
  free(A->pending);
  pthread_mutex_destroy(&A->lock);
  A->magic = K2_MAGIC_FREED;
  free(A);
}

// Replace A's tree by t (A's caches are dropped).
static void k2_matrix_replace_tree(K2_Matrix A, k2_tree *t) {
  k2_matrix_invalidate(A);
  k2_tree_clear(&A->tree);
  A->tree = *t;
}

// The first k with (I[k], J[k]) outside the matrix, or UINT64_MAX (parallel; the smallest k, for
// a stable message).
#define K2_FIRST_OUTSIDE(bad, I, J, nvals, nrows, ncols)                          \
  do {                                                                            \
    bad = UINT64_MAX;                                                             \
    _Pragma("omp parallel for reduction(min : bad) schedule(static) if (nvals > 65536)") \
    for (uint64_t k = 0; k < (nvals); k++)                                        \
      if ((I)[k] >= (nrows) || (J)[k] >= (ncols)) bad = k < bad ? k : bad;        \
  } while (0)

// Build A's tree from pairs already checked against its shape (under A's lock: readers wait).
static GrB_Info k2_matrix_build_tree(K2_Matrix A, const uint32_t *I, const uint32_t *J, uint64_t nvals) {
  pthread_mutex_lock(&A->lock);
  k2_tree t;
  GrB_Info info = k2_tree_build(&t, A->tree.nrows, A->tree.ncols, &A->fmt, I, J, nvals);
  if (info == GrB_SUCCESS) {
    k2_matrix_replace_tree(A, &t);
    A->n_pending = 0;
  } else {
    k2_error_to_obj(A->error, sizeof A->error, info);
  }
  pthread_mutex_unlock(&A->lock);
  return info;
}

// The failure of a build whose entry k = (i, j) is outside A.
static GrB_Info k2_matrix_outside(K2_Matrix A, uint64_t k, uint64_t i, uint64_t j) {
  K2_MATRIX_FAIL(A, GrB_INVALID_INDEX,
                 "K2_Matrix_build: entry %llu = (%llu, %llu) is outside the %llu x %llu matrix",
                 (unsigned long long)k, (unsigned long long)i, (unsigned long long)j,
                 (unsigned long long)A->tree.nrows, (unsigned long long)A->tree.ncols);
}

GrB_Info k2_matrix_build_32(K2_Matrix A, const uint32_t *I, const uint32_t *J, uint64_t nvals) {
  const uint64_t nrows = A->tree.nrows, ncols = A->tree.ncols;
  uint64_t bad;
  K2_FIRST_OUTSIDE(bad, I, J, nvals, nrows, ncols);
  if (bad != UINT64_MAX) return k2_matrix_outside(A, bad, I[bad], J[bad]);
  return k2_matrix_build_tree(A, I, J, nvals);
}

GrB_Info k2_matrix_build_64(K2_Matrix A, const uint64_t *I, const uint64_t *J, uint64_t nvals) {
  const uint64_t nrows = A->tree.nrows, ncols = A->tree.ncols;
  uint64_t bad;
  K2_FIRST_OUTSIDE(bad, I, J, nvals, nrows, ncols);
  if (bad != UINT64_MAX) return k2_matrix_outside(A, bad, I[bad], J[bad]);
  // Indices now fit 32 bits (dimensions <= 2^32): narrow them for the builder.
  uint32_t *I32 = malloc((nvals ? nvals : 1) * sizeof(uint32_t));
  uint32_t *J32 = malloc((nvals ? nvals : 1) * sizeof(uint32_t));
  if (I32 == NULL || J32 == NULL) {
    free(I32);
    free(J32);
    K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "K2_Matrix_build: no memory");
  }
#pragma omp parallel for schedule(static) if (nvals > 65536)
  for (uint64_t k = 0; k < nvals; k++) {
    I32[k] = (uint32_t)I[k];
    J32[k] = (uint32_t)J[k];
  }
  GrB_Info info = k2_matrix_build_tree(A, I32, J32, nvals);
  free(I32);
  free(J32);
  return info;
}

GrB_Info k2_matrix_dup(K2_Matrix *C, K2_Matrix A) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  K2_Matrix M = NULL;
  info = k2_matrix_alloc(&M, A->tree.nrows, A->tree.ncols, &A->fmt);
  if (info != GrB_SUCCESS) return info;
  k2_tree t;
  info = k2_tree_copy(&t, &A->tree);
  if (info != GrB_SUCCESS) {
    k2_matrix_free(M);
    return info;
  }
  k2_tree_clear(&M->tree);
  M->tree = t;
  M->weight = A->weight;
  M->decoded_level = A->decoded_level;
  // the derived states that describe the pattern (cached degrees, occupancy) come along: each
  // would otherwise cost the copy a traversal
  k2_slots_copy(M, A);
  *C = M;
  return GrB_SUCCESS;
}

GrB_Info k2_matrix_set_bottom_codes(K2_Matrix A, bool keep) {
  GrB_Info info = k2_matrix_wait(A);  // the codes of the tree with its pending edits
  if (info != GrB_SUCCESS) return info;
  k2_tree *t = &A->tree;
  uint64_t *codes = NULL;
  if (keep && t->bottom_codes == NULL && t->n_internal > 0) {
    info = k2_tree_bottom_codes(t, &codes);
    if (info != GrB_SUCCESS)
      K2_MATRIX_FAIL(A, info, "K2_Matrix_setBottomCodes: no memory for the codes of %llu nodes",
                     (unsigned long long)(t->level_start[t->levels] - t->level_start[t->levels - 1]));
  }
  const bool changed = keep ? codes != NULL : t->bottom_codes != NULL;
  pthread_mutex_lock(&A->lock);
  if (!keep) free(t->bottom_codes), t->bottom_codes = NULL;
  if (codes != NULL) t->bottom_codes = codes;
  A->fmt.cache_bottom_codes = keep;
  pthread_mutex_unlock(&A->lock);
  if (changed) {  // the state the engines derived from the tree without (or with) them
    k2_slot_drop(A, K2_SLOT_OPENMP);
    k2_slot_drop(A, K2_SLOT_CUDA);
    k2_slot_drop(A, K2_SLOT_PLAIN);
  }
  return GrB_SUCCESS;
}

void k2_matrix_set_decoded_level(K2_Matrix A, bool keep) {
  pthread_mutex_lock(&A->lock);
  const bool dropped = A->decoded_level && !keep;
  A->decoded_level = keep;
  pthread_mutex_unlock(&A->lock);
  // the OpenMP engine's state holds the decoded level (its plans are rebuilt at the next
  // product); with the bottom codes kept the level stays, as those bring it anyway
  if (dropped && A->tree.bottom_codes == NULL) k2_slot_drop(A, K2_SLOT_OPENMP);
}

//==============================================================================================
// pending edits
//==============================================================================================

GrB_Info k2_matrix_queue(K2_Matrix A, uint64_t i, uint64_t j, bool insert, const char *where) {
  pthread_mutex_lock(&A->lock);
  if (A->n_pending == A->cap_pending) {
    uint64_t cap = A->cap_pending ? 2 * A->cap_pending : 64;
    k2_pending_edit *p = realloc(A->pending, cap * sizeof *p);
    if (p == NULL) {
      pthread_mutex_unlock(&A->lock);
      K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "%s: no memory", where);
    }
    A->pending = p;
    A->cap_pending = cap;
  }
  A->pending[A->n_pending++] = (k2_pending_edit){i, j, insert};
  pthread_mutex_unlock(&A->lock);
  return GrB_SUCCESS;
}

static int k2_edit_cmp(const void *a, const void *b) {
  const k2_pending_edit *x = a, *y = b;
  if (x->i != y->i) return x->i < y->i ? -1 : 1;
  if (x->j != y->j) return x->j < y->j ? -1 : 1;
  return 0;
}

// Merge the edits into the entries and rebuild (caller holds the lock).
static GrB_Info k2_matrix_assemble(K2_Matrix A) {
  uint64_t np = A->n_pending, nv = A->tree.nvals;
  // the last edit of a cell wins: sort edits by cell, remembering their call order
  typedef struct { k2_pending_edit e; uint64_t pos; } edit_pos;  // e first: k2_edit_cmp reads it
  edit_pos *ep = malloc((np ? np : 1) * sizeof *ep);
  uint32_t *I = malloc((nv + 1) * sizeof(uint32_t)), *J = malloc((nv + 1) * sizeof(uint32_t));
  if (ep == NULL || I == NULL || J == NULL) {
    free(ep);
    free(I);
    free(J);
    K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "K2_Matrix_wait: no memory to assemble pending edits");
  }
  for (uint64_t k = 0; k < np; k++) ep[k] = (edit_pos){A->pending[k], k};
  qsort(ep, np, sizeof *ep, k2_edit_cmp);
  // qsort is not stable: within a cell pick the largest position explicitly
  uint64_t nu = 0;
  for (uint64_t k = 0; k < np;) {
    uint64_t g = k, best = k;
    while (g < np && ep[g].e.i == ep[k].e.i && ep[g].e.j == ep[k].e.j) {
      if (ep[g].pos > ep[best].pos) best = g;
      g++;
    }
    ep[nu++] = ep[best];
    k = g;
  }
  // existing entries in row-major order, merged with the sorted edits
  GrB_Index cnt = nv;
  GrB_Info info = k2_query_tuples_32(&A->tree, I, J, &cnt);
  if (info != GrB_SUCCESS) {
    free(ep);
    free(I);
    free(J);
    return info;
  }
  uint32_t *I2 = malloc((nv + nu + 1) * sizeof(uint32_t)), *J2 = malloc((nv + nu + 1) * sizeof(uint32_t));
  if (I2 == NULL || J2 == NULL) {
    free(ep);
    free(I);
    free(J);
    free(I2);
    free(J2);
    K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "K2_Matrix_wait: no memory to assemble pending edits");
  }
  uint64_t a = 0, b = 0, out = 0;
  while (a < nv || b < nu) {
    bool take_edit;
    if (a == nv) take_edit = true;
    else if (b == nu) take_edit = false;
    else take_edit = ep[b].e.i < I[a] || (ep[b].e.i == I[a] && ep[b].e.j <= J[a]);
    if (take_edit) {
      bool same = a < nv && ep[b].e.i == I[a] && ep[b].e.j == J[a];
      if (ep[b].e.insert) {
        I2[out] = (uint32_t)ep[b].e.i;
        J2[out++] = (uint32_t)ep[b].e.j;
      }
      if (same) a++;
      b++;
    } else {
      I2[out] = I[a];
      J2[out++] = J[a];
      a++;
    }
  }
  free(ep);
  free(I);
  free(J);
  k2_tree t;
  info = k2_tree_build(&t, A->tree.nrows, A->tree.ncols, &A->fmt, I2, J2, out);
  free(I2);
  free(J2);
  if (info != GrB_SUCCESS) return info;
  k2_matrix_replace_tree(A, &t);
  A->n_pending = 0;
  return GrB_SUCCESS;
}

GrB_Info k2_matrix_wait(K2_Matrix A) {
  if (__atomic_load_n(&A->n_pending, __ATOMIC_ACQUIRE) == 0) return GrB_SUCCESS;
  pthread_mutex_lock(&A->lock);
  GrB_Info info = A->n_pending ? k2_matrix_assemble(A) : GrB_SUCCESS;
  pthread_mutex_unlock(&A->lock);
  return info;
}

//==============================================================================================
// queries
//==============================================================================================

GrB_Info k2_matrix_tuples_64(K2_Matrix A, GrB_Index *I, GrB_Index *J, GrB_Index *nvals) {
  uint64_t nv = A->tree.nvals;
  uint32_t *I32 = malloc((nv ? nv : 1) * sizeof(uint32_t)), *J32 = malloc((nv ? nv : 1) * sizeof(uint32_t));
  if (I32 == NULL || J32 == NULL) {
    free(I32);
    free(J32);
    K2_MATRIX_FAIL(A, GrB_OUT_OF_MEMORY, "K2_Matrix_extractTuples: no memory");
  }
  GrB_Index cnt = nv;
  GrB_Info info = k2_query_tuples_32(&A->tree, I32, J32, &cnt);
  if (info == GrB_SUCCESS) {
#pragma omp parallel for schedule(static) if (nv > 65536)
    for (uint64_t k = 0; k < nv; k++) {
      if (I) I[k] = I32[k];
      if (J) J[k] = J32[k];
    }
    *nvals = nv;
  }
  free(I32);
  free(J32);
  return info;
}

GrB_Info k2_matrix_equal(bool *equal, K2_Matrix A, K2_Matrix B) {
  const k2_tree *a = &A->tree, *b = &B->tree;
  *equal = false;
  if (a->nrows != b->nrows || a->ncols != b->ncols || a->nvals != b->nvals || A->weight != B->weight)
    return GrB_SUCCESS;
  // full blocks: the same pattern may be marked or not, so only the entries compare
  if (a->leaf_log == b->leaf_log && a->n_full == 0 && b->n_full == 0) {
    // the tree of a pattern is unique for a leaf size: compare the arrays (the leaves as
    // bitmaps where either is compressed: a plain and a compressed tree may be equal)
    *equal = a->n_internal == b->n_internal && a->n_leaves == b->n_leaves &&
             (a->n_internal == 0 ||
              memcmp(a->sig, b->sig, k2_tree_sig_words(a) * sizeof(uint64_t)) == 0);
    if (!*equal || a->n_leaves == 0) return GrB_SUCCESS;
    if (a->leaf_codes == NULL && b->leaf_codes == NULL) {
      *equal = memcmp(a->leaves, b->leaves, k2_tree_leaf_words(a) * sizeof(uint64_t)) == 0;
      return GrB_SUCCESS;
    }
    k2_view va, vb;
    k2_tree_view(&va, a, 1);
    k2_tree_view(&vb, b, 1);
    bool same = true;
#pragma omp parallel for schedule(static) reduction(&& : same) if (a->n_leaves > 65536)
    for (uint64_t q = 0; q < a->n_leaves; q++) same = same && k2_view_leaf(&va, q) == k2_view_leaf(&vb, q);
    *equal = same;
    return GrB_SUCCESS;
  }
  uint64_t nv = a->nvals;
  uint32_t *buf = malloc((4 * nv + 1) * sizeof(uint32_t));
  if (buf == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Matrix_isEqual: no memory");
  GrB_Index ca = nv, cb = nv;
  GrB_Info info = k2_query_tuples_32(a, buf, buf + nv, &ca);
  if (info == GrB_SUCCESS) info = k2_query_tuples_32(b, buf + 2 * nv, buf + 3 * nv, &cb);
  if (info == GrB_SUCCESS) *equal = memcmp(buf, buf + 2 * nv, 2 * nv * sizeof(uint32_t)) == 0;
  free(buf);
  return info;
}

void k2_matrix_set_weight(K2_Matrix A, double w) {
  pthread_mutex_lock(&A->lock);
  if (A->weight != w || (w != w)) {
    A->weight = w;
    k2_slots_drop(A, true);
  }
  pthread_mutex_unlock(&A->lock);
}

//==============================================================================================
// memory accounting
//==============================================================================================

void k2_matrix_memory(K2_MemoryUsage *u, K2_Matrix A) {
  const k2_tree *t = &A->tree;
  memset(u, 0, sizeof *u);
  u->tree = (k2_tree_sig_words(t) + k2_tree_leaf_words(t) + (t->levels + 2)) * sizeof(uint64_t);
  u->directory = t->dir_len ? k2_dir_bytes(t->dir_len, t->dir_lo != NULL) : 0;
  u->top = t->top_count * sizeof(uint64_t);
  u->bottom_codes = t->bottom_codes && t->levels
                    ? (t->level_start[t->levels] - t->level_start[t->levels - 1]) * sizeof(uint64_t)
                    : 0;
  u->pending = A->cap_pending * sizeof(k2_pending_edit);
  u->cache = k2_slots_bytes(A);
  u->total = u->tree + u->directory + u->top + u->bottom_codes + u->pending + u->cache + sizeof *A;
  u->levels = t->levels;
  u->leaf_log = t->leaf_log;
  u->internal_nodes = t->n_internal;
  u->leaves = t->n_leaves;
  u->leaf_bytes = k2_tree_leaf_words(t) * sizeof(uint64_t);
  u->leaf_vocabulary = t->leaf_codes != NULL ? k2_leafc_vocab_bytes(&t->lc) : 0;
  u->leaf_patterns = t->leaf_codes != NULL ? t->lc.vocab_len : 0;
  u->full_nodes = t->n_full;
  u->full_saved = k2_full_saved_bytes(t);
}
