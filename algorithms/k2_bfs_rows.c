// k2_bfs_rows.c: BFS levels expanded by row queries on the host, for small frontiers.
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "k2_alg_internal.h"

void k2a_bfs_rows_free(k2a_bfs_rows *w) {
  free(w->front);
  free(w->next);
  free(w->row);
  memset(w, 0, sizeof *w);
}

// The three lists hold up to n indices each (a frontier, the next one, one row's neighbours);
// malloc leaves their pages untouched until a level writes them.
static GrB_Info k2a_bfs_rows_alloc(k2a_bfs_rows *w, GrB_Index n) {
  if (w->front != NULL) return GrB_SUCCESS;
  const size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(GrB_Index);
  w->front = malloc(bytes);
  w->next = malloc(bytes);
  w->row = malloc(bytes);
  if (w->front == NULL || w->next == NULL || w->row == NULL) {
    k2a_bfs_rows_free(w);
    return GrB_OUT_OF_MEMORY;
  }
  w->n = n;
  return GrB_SUCCESS;
}

GrB_Info k2a_bfs_rows_start(k2a_bfs_rows *w, GrB_Index n, GrB_Index src) {
  GrB_Info info = k2a_bfs_rows_alloc(w, n);
  if (info != GrB_SUCCESS) return info;
  w->front[0] = src;
  w->nfront = 1;
  return GrB_SUCCESS;
}

GrB_Info k2a_bfs_rows_take(k2a_bfs_rows *w, GrB_Vector q, GrB_Index n) {
  GrB_Info info = k2a_bfs_rows_alloc(w, n);
  if (info != GrB_SUCCESS) return info;
  GrB_Index nq = n;
  info = GrB_Vector_extractTuples_INT64(w->front, NULL, &nq, q);
  if (info != GrB_SUCCESS) return info;
  w->nfront = nq;
  return GrB_SUCCESS;
}

GrB_Info k2a_bfs_rows_give(k2a_bfs_rows *w, GrB_Vector q) {
  GrB_Info info = GrB_Vector_clear(q);
  if (info != GrB_SUCCESS) return info;
  // the frontier's values are not read by the next product (ANY_PAIR, ANY_SECONDI): any will do
  GrB_Type type = NULL;
  if ((info = GxB_Vector_type(&type, q)) != GrB_SUCCESS) return info;
  GrB_Scalar one = NULL;
  if ((info = GrB_Scalar_new(&one, type)) != GrB_SUCCESS) return info;
  info = GrB_Scalar_setElement_INT64(one, 1);
  if (info == GrB_SUCCESS) info = GxB_Vector_build_Scalar(q, w->front, one, w->nfront);
  GrB_free(&one);
  return info;
}

// One vector of the search (levels or parents), unpacked as a bitmap with values of n entries.
typedef struct {
  GrB_Vector v;
  int8_t *b;
  void *x;
  GrB_Index b_size, x_size, nvals;
  size_t width;  // bytes per value: 4 or 8
  int control;   // the sparsity control, which a pack resets
} k2a_bfs_rows_vec;

static inline void k2a_bfs_rows_put(k2a_bfs_rows_vec *u, GrB_Index i, int64_t value) {
  if (u->x == NULL) return;
  if (u->width == 8) {
    ((int64_t *)u->x)[i] = value;
  } else {
    ((int32_t *)u->x)[i] = (int32_t)value;
  }
}

static GrB_Info k2a_bfs_rows_unpack(k2a_bfs_rows_vec *u, GrB_Vector v, GrB_Index n) {
  memset(u, 0, sizeof *u);
  if (v == NULL) return GrB_SUCCESS;
  GrB_Type type = NULL;
  GrB_Info info = GxB_Vector_type(&type, v);
  if (info != GrB_SUCCESS) return info;
  u->width = type == GrB_INT64 ? 8 : 4;
  if ((info = GxB_Vector_Option_get(v, GxB_SPARSITY_CONTROL, &u->control)) != GrB_SUCCESS) return info;
  bool iso = false;
  info = GxB_Vector_unpack_Bitmap(v, &u->b, &u->x, &u->b_size, &u->x_size, &iso, &u->nvals, NULL);
  if (info != GrB_SUCCESS) return info;
  u->v = v;
  if (iso) {
    // one value for all (a vector of the source alone): written to each entry of an array of n,
    // the bitmap read eight bytes at a time; GraphBLAS frees its arrays with free()
    void *x = malloc((size_t)n * u->width), *iso_x = u->x;
    if (x == NULL) return GrB_OUT_OF_MEMORY;  // the caller packs the iso one back
    int64_t value = 0;
    if (u->width == 8) {
      memcpy(&value, iso_x, 8);
    } else {
      int32_t v32;
      memcpy(&v32, iso_x, 4);
      value = v32;
    }
    u->x = x;
    for (GrB_Index i = 0; i < n;) {
      uint64_t word = 0;
      if (i + 8 <= n) memcpy(&word, u->b + i, 8);
      if (i + 8 <= n && word == 0) {
        i += 8;
        continue;
      }
      const GrB_Index end = i + 8 <= n ? i + 8 : n;
      for (; i < end; i++)
        if (u->b[i]) k2a_bfs_rows_put(u, i, value);
    }
    free(iso_x);
    u->x_size = (GrB_Index)n * u->width;
  }
  return GrB_SUCCESS;
}

static GrB_Info k2a_bfs_rows_pack(k2a_bfs_rows_vec *u, GrB_Index n) {
  if (u->v == NULL) return GrB_SUCCESS;
  const bool iso = u->x_size < (GrB_Index)n * u->width;  // left iso by a failed widening
  GrB_Info info = GxB_Vector_pack_Bitmap(u->v, &u->b, &u->x, u->b_size, u->x_size, iso, u->nvals, NULL);
  // kept a bitmap: under the automatic control GraphBLAS would make a vector of few entries
  // sparse at its next assignment, O(n) at every level
  if (info == GrB_SUCCESS) info = GxB_Vector_Option_set(u->v, GxB_SPARSITY_CONTROL, u->control);
  u->v = NULL;
  return info;
}


GrB_Info k2a_bfs_rows_level(k2a_bfs_rows *w, GrB_Vector level, GrB_Vector parent, K2_Matrix A, int64_t k,
                            int64_t *edges) {
  const GrB_Index n = w->n;
  k2a_bfs_rows_vec lv, pv;
  GrB_Info info = k2a_bfs_rows_unpack(&lv, level, n);
  if (info == GrB_SUCCESS) info = k2a_bfs_rows_unpack(&pv, parent, n);
  if (info == GrB_SUCCESS && lv.v != NULL && pv.v != NULL && lv.nvals != pv.nvals) info = GrB_INVALID_OBJECT;
  int64_t seen_edges = 0;
  GrB_Index nnext = 0;
  if (info == GrB_SUCCESS) {
    // both vectors hold the visited set: one bitmap tells it, both are written
    int8_t *visited = lv.v != NULL ? lv.b : pv.b;
    for (GrB_Index f = 0; f < w->nfront && info == GrB_SUCCESS; f++) {
      const GrB_Index from = w->front[f];
      GrB_Index count = n;
      info = K2_Matrix_rowNeighbors(w->row, &count, A, from);
      if (info != GrB_SUCCESS) break;
      seen_edges += (int64_t)count;
      for (GrB_Index e = 0; e < count; e++) {
        const GrB_Index j = w->row[e];
        if (visited[j]) continue;
        if (lv.v != NULL) lv.b[j] = 1, lv.nvals++;
        if (pv.v != NULL) pv.b[j] = 1, pv.nvals++;
        k2a_bfs_rows_put(&lv, j, k);
        k2a_bfs_rows_put(&pv, j, (int64_t)from);
        w->next[nnext++] = j;
      }
    }
  }
  // packed back whatever happened: the caller's vectors stay whole
  GrB_Info back = k2a_bfs_rows_pack(&lv, n), back2 = k2a_bfs_rows_pack(&pv, n);
  if (info == GrB_SUCCESS) info = back != GrB_SUCCESS ? back : back2;
  if (info != GrB_SUCCESS) return info;
  GrB_Index *t = w->front;
  w->front = w->next, w->next = t;
  w->nfront = nnext;
  *edges = seen_edges;
  return GrB_SUCCESS;
}
