// k2_bfs_rows.c: levels of BFS and hop-count SSSP expanded by row queries on the host, for
// small frontiers.
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "k2_alg_internal.h"

void k2a_bfs_rows_free(k2a_bfs_rows *w) {
  free(w->front);
  free(w->next);
  free(w->row);
  free(w->seen);
  free(w->found);
  memset(w, 0, sizeof *w);
}

// Room for need elements of es bytes in *a (capacity *cap, doubled as needed): the lists start
// small and grow with the search, so that one that reaches little allocates little, whatever n.
static bool k2a_rows_grow(void **a, GrB_Index *cap, GrB_Index need, size_t es) {
  if (need <= *cap) return true;
  GrB_Index c = *cap > 0 ? *cap : 1024;
  while (c < need) c *= 2;
  void *g = realloc(*a, (size_t)c * es);
  if (g == NULL) return false;
  *a = g;
  *cap = c;
  return true;
}
#define K2A_ROWS_GROW(w, list, need) \
  k2a_rows_grow((void **)&(w)->list, &(w)->cap_##list, (need), sizeof *(w)->list)

static GrB_Info k2a_bfs_rows_alloc(k2a_bfs_rows *w, GrB_Index n) {
  w->n = n;
  if (!K2A_ROWS_GROW(w, front, 1) || !K2A_ROWS_GROW(w, next, 1) || !K2A_ROWS_GROW(w, row, 1)) {
    return GrB_OUT_OF_MEMORY;  // (the caller frees what there is)
  }
  return GrB_SUCCESS;
}

// Row v's neighbours into w->row, *count of them: the first cap_row, and the whole row again
// into a list grown to fit where there are more (a hub: its row walked three times).
static GrB_Info k2a_rows_neighbors(k2a_bfs_rows *w, K2_Matrix A, GrB_Index v, GrB_Index *count) {
  GrB_Index c = w->cap_row;
  bool more = false;
  GrB_Info info = K2_Matrix_rowNeighborsFirst(w->row, &c, &more, A, v);
  if (info != GrB_SUCCESS || !more) {
    *count = c;
    return info;
  }
  GrB_Index all = 0;
  if ((info = K2_Matrix_rowNeighbors(NULL, &all, A, v)) != GrB_SUCCESS) return info;
  if (!K2A_ROWS_GROW(w, row, all)) return GrB_OUT_OF_MEMORY;
  c = w->cap_row;
  info = K2_Matrix_rowNeighbors(w->row, &c, A, v);
  *count = c;
  return info;
}

// v joins the next frontier.
static inline bool k2a_rows_push(k2a_bfs_rows *w, GrB_Index *nnext, GrB_Index v) {
  if (*nnext == w->cap_next && !K2A_ROWS_GROW(w, next, *nnext + 1)) return false;
  w->next[(*nnext)++] = v;
  return true;
}

// The next frontier becomes the frontier (the lists swap, capacities with them).
static void k2a_rows_advance(k2a_bfs_rows *w, GrB_Index nnext) {
  GrB_Index *t = w->front, c = w->cap_front;
  w->front = w->next, w->cap_front = w->cap_next;
  w->next = t, w->cap_next = c;
  w->nfront = nnext;
}

GrB_Info k2a_bfs_rows_start(k2a_bfs_rows *w, GrB_Index n, GrB_Index src) {
  GrB_Info info = k2a_bfs_rows_alloc(w, n);
  if (info != GrB_SUCCESS) return info;
  w->front[0] = src;
  w->nfront = 1;
  w->value = 0;
  return GrB_SUCCESS;
}

GrB_Info k2a_bfs_rows_take(k2a_bfs_rows *w, GrB_Vector q, GrB_Index n) {
  GrB_Info info = k2a_bfs_rows_alloc(w, n);
  GrB_Index nq = 0;
  if (info == GrB_SUCCESS) info = GrB_Vector_nvals(&nq, q);
  if (info != GrB_SUCCESS) return info;
  if (!K2A_ROWS_GROW(w, front, nq)) return GrB_OUT_OF_MEMORY;
  info = GrB_Vector_extractTuples_INT64(w->front, NULL, &nq, q);
  if (info != GrB_SUCCESS) return info;
  w->nfront = nq;
  return GrB_SUCCESS;
}

GrB_Info k2a_bfs_rows_give(k2a_bfs_rows *w, GrB_Vector q) {
  GrB_Info info = GrB_Vector_clear(q);
  if (info != GrB_SUCCESS) return info;
  // BFS: the frontier's values are not read by the next product (ANY_PAIR, ANY_SECONDI), any
  // will do; SSSP: the frontier's distance, the same for all (k2a_sssp_rows_round)
  GrB_Type type = NULL;
  if ((info = GxB_Vector_type(&type, q)) != GrB_SUCCESS) return info;
  GrB_Scalar value = NULL;
  if ((info = GrB_Scalar_new(&value, type)) != GrB_SUCCESS) return info;
  info = GrB_Scalar_setElement_INT64(value, w->value);
  if (info == GrB_SUCCESS) info = GxB_Vector_build_Scalar(q, w->front, value, w->nfront);
  GrB_free(&value);
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
  if (info == GrB_SUCCESS) {
    info = GxB_Vector_Option_set(u->v, GxB_SPARSITY_CONTROL, u->control);
  } else {  // not taken back (out of memory): the arrays are still ours
    free(u->b);
    free(u->x);
  }
  u->v = NULL;
  return info;
}

GrB_Info k2a_bfs_rows_level(k2a_bfs_rows *w, GrB_Vector level, GrB_Vector parent, K2_Matrix A, int64_t k,
                            int64_t *edges) {
  const GrB_Index n = w->n;
  k2a_bfs_rows_vec lv = {0}, pv = {0};  // (both packed back below, unpacked or not)
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
      GrB_Index count = 0;
      info = k2a_rows_neighbors(w, A, from, &count);
      if (info != GrB_SUCCESS) break;
      seen_edges += (int64_t)count;
      for (GrB_Index e = 0; e < count; e++) {
        const GrB_Index j = w->row[e];
        if (visited[j]) continue;
        if (!k2a_rows_push(w, &nnext, j)) {
          info = GrB_OUT_OF_MEMORY;
          break;
        }
        if (lv.v != NULL) lv.b[j] = 1, lv.nvals++;
        if (pv.v != NULL) pv.b[j] = 1, pv.nvals++;
        k2a_bfs_rows_put(&lv, j, k);
        k2a_bfs_rows_put(&pv, j, (int64_t)from);
      }
    }
  }
  // packed back whatever happened: the caller's vectors stay whole
  GrB_Info back = k2a_bfs_rows_pack(&lv, n), back2 = k2a_bfs_rows_pack(&pv, n);
  if (info == GrB_SUCCESS) info = back != GrB_SUCCESS ? back : back2;
  if (info != GrB_SUCCESS) return info;
  k2a_rows_advance(w, nnext);
  *edges = seen_edges;
  return GrB_SUCCESS;
}

// ---- hop-count SSSP ----------------------------------------------------------------------------
// dist stays as GraphBLAS holds it (sparse, for a search that reaches little): the rounds by row
// queries test a bit per vertex of their own and add what they reach to dist as pending entries
// when they hand over or end.

static inline bool k2a_rows_seen(const k2a_bfs_rows *w, GrB_Index v) { return (w->seen[v >> 6] >> (v & 63)) & 1; }
static inline void k2a_rows_mark(k2a_bfs_rows *w, GrB_Index v) { w->seen[v >> 6] |= UINT64_C(1) << (v & 63); }

GrB_Info k2a_sssp_rows_start(k2a_bfs_rows *w, GrB_Index n, GrB_Index src) {
  GrB_Info info = k2a_bfs_rows_start(w, n, src);
  if (info != GrB_SUCCESS) return info;
  w->seen = calloc((size_t)(n + 63) / 64, sizeof(uint64_t));
  if (w->seen == NULL) return GrB_OUT_OF_MEMORY;
  k2a_rows_mark(w, src);
  w->nfound = 0;
  return GrB_SUCCESS;
}

GrB_Info k2a_sssp_rows_take(bool *taken, k2a_bfs_rows *w, GrB_Vector f, GrB_Vector dist) {
  *taken = false;
  GrB_Index nf = 0, nd = 0;
  GrB_Info info = GrB_Vector_nvals(&nf, f);
  if (info == GrB_SUCCESS) info = GrB_Vector_nvals(&nd, dist);
  if (info != GrB_SUCCESS) return info;
  // the values into the row list (unused between rounds), the indices into the frontier
  if (!K2A_ROWS_GROW(w, front, nf) || !K2A_ROWS_GROW(w, row, nf) || !K2A_ROWS_GROW(w, next, nd)) {
    return GrB_OUT_OF_MEMORY;
  }
  int64_t *values = (int64_t *)w->row;
  if ((info = GrB_Vector_extractTuples_INT64(w->front, values, &nf, f)) != GrB_SUCCESS) return info;
  for (GrB_Index i = 1; i < nf; i++)
    if (values[i] != values[0]) return GrB_SUCCESS;  // not one distance: the products go on
  // what the products reached since: dist's entries, marked (the next list is free now)
  if ((info = GrB_Vector_extractTuples_INT64(w->next, NULL, &nd, dist)) != GrB_SUCCESS) return info;
  for (GrB_Index i = 0; i < nd; i++) k2a_rows_mark(w, w->next[i]);
  w->nfront = nf;
  w->value = nf > 0 ? values[0] : 0;
  *taken = true;
  return GrB_SUCCESS;
}

GrB_Info k2a_sssp_rows_round(k2a_bfs_rows *w, K2_Matrix A, int64_t weight) {
  GrB_Index nnext = 0;
  // every frontier vertex is at w->value: a vertex not yet reached is at one edge more, and one
  // already reached is at most that far (no weight is negative), so it keeps its distance
  const int64_t reach = (int64_t)((uint64_t)w->value + (uint64_t)weight);
  for (GrB_Index f = 0; f < w->nfront; f++) {
    GrB_Index count = 0;
    GrB_Info info = k2a_rows_neighbors(w, A, w->front[f], &count);
    if (info != GrB_SUCCESS) return info;
    for (GrB_Index e = 0; e < count; e++) {
      const GrB_Index j = w->row[e];
      if (k2a_rows_seen(w, j)) continue;
      if (!k2a_rows_push(w, &nnext, j) || !K2A_ROWS_GROW(w, found, w->nfound + 1)) return GrB_OUT_OF_MEMORY;
      k2a_rows_mark(w, j);
      w->found[w->nfound++] = (struct k2a_found){j, reach};
    }
  }
  k2a_rows_advance(w, nnext);
  w->value = reach;
  return GrB_SUCCESS;
}

GrB_Info k2a_sssp_rows_flush(k2a_bfs_rows *w, GrB_Vector dist) {
  for (GrB_Index k = 0; k < w->nfound; k++) {
    GrB_Info info = GrB_Vector_setElement_INT64(dist, w->found[k].dist, w->found[k].vertex);
    if (info != GrB_SUCCESS) return info;
  }
  w->nfound = 0;
  return GrB_SUCCESS;
}
