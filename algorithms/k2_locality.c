// k2_locality.c: a graph's tree renumbered in a locality order (K2_Graph_cachedLocalityOrder),
// and the algorithms' results mapped back from that numbering.
// SPDX-License-Identifier: Apache-2.0
#include <string.h>

#include "k2_alg_internal.h"

// The renumbered tree is kept where it takes at most this fraction of the original's bytes:
// below it the products walk a third to a half fewer nodes or better (measured on the real
// graphs, docs/algorithms.md); above it the copy costs memory for little.
#define K2A_LOCALITY_KEEP 0.75

static int k2a_u64_cmp(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

// The tree's own bytes (signatures, leaves, directory, top level), what the order changes.
static uint64_t k2a_tree_bytes(const K2_MemoryUsage *u) { return u->tree + u->directory + u->top; }

// Cuthill-McKee order of the graph of the edges (I[e], J[e]) without directions and without
// self-loops: inv[k] = the vertex numbered k. Each component is searched breadth first from an
// unnumbered vertex of least degree; a vertex's unnumbered neighbours are numbered by ascending
// degree, then id. false: out of memory.
static bool k2a_cuthill_mckee(uint32_t *inv, const uint32_t *I, const uint32_t *J, uint64_t m, uint64_t n) {
  uint64_t *off = calloc(n + 2, sizeof *off);
  uint32_t *adj = NULL, *by_degree = NULL;
  uint64_t *key = NULL, *count = NULL, *fill = NULL;
  uint8_t *seen = NULL;
  bool ok = false;
  if (off == NULL) return false;
  for (uint64_t e = 0; e < m; e++) {
    if (I[e] == J[e]) continue;
    off[I[e] + 1]++;
    off[J[e] + 1]++;
  }
  uint64_t max_degree = 0;
  for (uint64_t v = 0; v < n; v++) {
    if (off[v + 1] > max_degree) max_degree = off[v + 1];
    off[v + 1] += off[v];
  }
  adj = malloc((off[n] + 1) * sizeof *adj);
  fill = malloc((n + 1) * sizeof *fill);
  key = malloc((max_degree + 1) * sizeof *key);
  count = calloc(max_degree + 2, sizeof *count);
  by_degree = malloc((n + 1) * sizeof *by_degree);
  seen = calloc(n + 1, 1);
  if (adj == NULL || fill == NULL || key == NULL || count == NULL || by_degree == NULL || seen == NULL) goto done;
  memcpy(fill, off, n * sizeof *fill);
  for (uint64_t e = 0; e < m; e++) {
    if (I[e] == J[e]) continue;
    adj[fill[I[e]]++] = J[e];
    adj[fill[J[e]]++] = I[e];
  }
  // the vertices by ascending degree, ids ascending within a degree (a counting sort)
  for (uint64_t v = 0; v < n; v++) count[off[v + 1] - off[v] + 1]++;
  for (uint64_t d = 0; d <= max_degree; d++) count[d + 1] += count[d];
  for (uint64_t v = 0; v < n; v++) by_degree[count[off[v + 1] - off[v]]++] = (uint32_t)v;
  uint64_t head = 0, tail = 0;
  for (uint64_t s = 0; s < n; s++) {
    const uint32_t start = by_degree[s];
    if (seen[start]) continue;
    seen[start] = 1;
    inv[tail++] = start;
    while (head < tail) {
      const uint32_t v = inv[head++];
      uint64_t k = 0;
      for (uint64_t a = off[v]; a < off[v + 1]; a++) {
        const uint32_t w = adj[a];
        if (seen[w]) continue;
        seen[w] = 1;
        const uint64_t d = off[w + 1] - off[w];
        key[k++] = (d < UINT32_MAX ? d : UINT32_MAX) << 32 | w;
      }
      qsort(key, k, sizeof *key, k2a_u64_cmp);
      for (uint64_t t = 0; t < k; t++) inv[tail++] = (uint32_t)key[t];
    }
  }
  ok = true;
done:
  free(off), free(adj), free(fill), free(key), free(count), free(by_degree), free(seen);
  return ok;
}

#define K2A_FN "K2_Graph_cachedLocalityOrder"
#define K2A_FREE_ALL                            \
  do {                                          \
    free(I), free(J), free(order), free(inv);   \
    K2_Matrix_free(&K);                         \
    K2_Graph_free(&ordered, NULL);              \
  } while (0)

GrB_Info K2_Graph_cachedLocalityOrder(K2_Graph G, char *msg) {
  uint32_t *I = NULL, *J = NULL, *order = NULL, *inv = NULL;
  K2_Matrix K = NULL;
  K2_Graph ordered = NULL;
  const char *k2a_step = NULL;
  GrB_Info info = k2a_graph_check(G, K2A_FN, msg);
  if (info != GrB_SUCCESS) return info;
  k2a_clear(msg);
  if (G->K == NULL || G->order_checked) return GrB_SUCCESS;
  GrB_Index n = 0, nvals = 0;
  K2A_STEP("reading the size of the matrix");
  K2A_TRY(K2_Matrix_nrows(&n, G->K));
  K2A_TRY(K2_Matrix_nvals(&nvals, G->K));
  if (n > UINT32_MAX || nvals >= UINT32_MAX || n == 0) {  // beyond the 32-bit maps: none
    G->order_checked = true;
    return GrB_SUCCESS;
  }
  I = malloc((nvals + 1) * sizeof *I);
  J = malloc((nvals + 1) * sizeof *J);
  order = malloc(n * sizeof *order);
  inv = malloc(n * sizeof *inv);
  if (I == NULL || J == NULL || order == NULL || inv == NULL) K2A_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the edges");
  K2A_STEP("extracting the edges");
  GrB_Index got = nvals;
  K2A_TRY(K2_Matrix_extractTuples_32(I, J, &got, G->K));
  if (!k2a_cuthill_mckee(inv, I, J, got, n)) K2A_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the order");
  for (uint64_t k = 0; k < n; k++) order[inv[k]] = (uint32_t)k;
  for (uint64_t e = 0; e < got; e++) {
    I[e] = order[I[e]];
    J[e] = order[J[e]];
  }
  // the copy in the original's format (its leaves, full blocks and cached codes)
  K2_MemoryUsage before, after;
  K2A_STEP("building the renumbered tree");
  K2A_TRY(K2_Matrix_memoryUsage(&before, G->K));
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.leaf_log = before.leaf_log;
  fmt.compress_leaves = before.leaf_vocabulary > 0;
  fmt.full_blocks = before.full_nodes > 0;
  fmt.cache_bottom_codes = before.bottom_codes > 0;
  K2A_TRY(K2_Matrix_new_format(&K, n, n, &fmt));
  K2A_TRY(K2_Matrix_build_32(K, I, J, got));
  K2A_TRY(K2_Matrix_memoryUsage(&after, K));
  free(I), free(J);
  I = J = NULL;
  const uint64_t was = k2a_tree_bytes(&before), now = k2a_tree_bytes(&after);
  const bool keep = (double)now <= K2A_LOCALITY_KEEP * (double)was;
  bool burble = false;
  if (K2_get_burble(&burble) == GrB_SUCCESS && burble)
    fprintf(stderr, "k2grb: %s: the tree in Cuthill-McKee order takes %llu bytes against %llu (%.2f): %s\n",
            K2A_FN, (unsigned long long)now, (unsigned long long)was, was ? (double)now / (double)was : 1.0,
            keep ? "kept" : "not kept");
  if (keep) {
    K2A_STEP("making the renumbered graph");
    K2A_TRY(K2_Graph_new_k2(&ordered, &K, G->kind, msg));
    G->ordered = ordered;
    ordered = NULL;
  }
  // the maps whether or not the copy pays: WCC starts its labels from the order on G's tree
  G->order = order;
  G->order_inverse = inv;
  order = inv = NULL;
  K2A_FREE_ALL;
  G->order_checked = true;
  return GrB_SUCCESS;
}

#undef K2A_FN
#undef K2A_FREE_ALL

// A value of es bytes (4 or 8) read and written as an integer.
static inline uint64_t k2a_get(const uint8_t *x, size_t es, uint64_t i) {
  if (es == 4) {
    uint32_t v;
    memcpy(&v, x + 4 * i, 4);
    return v;
  }
  uint64_t v;
  memcpy(&v, x + 8 * i, 8);
  return v;
}
static inline void k2a_put(uint8_t *x, size_t es, uint64_t i, uint64_t v) {
  if (es == 4) {
    const uint32_t w = (uint32_t)v;
    memcpy(x + 4 * i, &w, 4);
  } else {
    memcpy(x + 8 * i, &v, 8);
  }
}

#define K2A_FREE_ALL \
  do {               \
    free(idx);       \
    free(val);       \
    free(vb);        \
    free(vx);        \
    free(nb);        \
    free(nx);        \
    GrB_free(&w);    \
    GrB_free(v);     \
  } while (0)

GrB_Info k2a_locality_map(GrB_Vector *v, K2_Graph G, bool vertex_values, bool to_ordered, const char *fn,
                          char *msg) {
  GrB_Index *idx = NULL;
  void *val = NULL, *vx = NULL, *nx = NULL;
  int8_t *vb = NULL, *nb = NULL;
  GrB_Vector w = NULL;
  const char *k2a_step = NULL;
  if (*v == NULL) return GrB_SUCCESS;
  // position j of the result takes position gather[j] of *v; an index or vertex i becomes
  // relabel[i]
  const uint32_t *gather = to_ordered ? G->order_inverse : G->order;
  const uint32_t *relabel = to_ordered ? G->order : G->order_inverse;
#define K2A_FN fn
  GrB_Type type = NULL;
  GrB_Index n = 0, nv = 0;
  int status = 0;
  size_t es = 0;
  K2A_STEP(to_ordered ? "moving the vectors to the locality order" : "mapping the result back from the locality order");
  K2A_TRY(GxB_Vector_type(&type, *v));
  K2A_TRY(GxB_Type_size(&es, type));
  K2A_TRY(GrB_Vector_size(&n, *v));
  K2A_TRY(GrB_Vector_nvals(&nv, *v));
  K2A_TRY(GxB_get(*v, GxB_SPARSITY_STATUS, &status));
  if ((status == GxB_BITMAP || status == GxB_FULL) && (es == 4 || es == 8)) {
    // a bitmap or full result (a search that reached much, the ranks): its arrays taken out,
    // gathered into the graph's numbering in one pass, and put back, without a sort
    GrB_Index vb_size = 0, vx_size = 0, got = nv;
    bool iso = false;
    if (status == GxB_BITMAP) {
      K2A_TRY(GxB_Vector_unpack_Bitmap(*v, &vb, &vx, &vb_size, &vx_size, &iso, &got, NULL));
    } else {
      K2A_TRY(GxB_Vector_unpack_Full(*v, &vx, &vx_size, &iso, NULL));
    }
    if (vb != NULL) nb = malloc(n + 1);
    nx = malloc(iso ? es : n * es + 1);
    if ((vb != NULL && nb == NULL) || nx == NULL) K2A_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the result");
    const uint8_t *x = vx;
    uint8_t *y = nx;
    if (iso) {
      const uint64_t x0 = k2a_get(x, es, 0);
      k2a_put(y, es, 0, vertex_values && x0 < n ? relabel[x0] : x0);
    } else {
      for (GrB_Index i = 0; i < n; i++) k2a_put(y, es, i, k2a_get(x, es, gather[i]));
    }
    if (nb != NULL) {
      for (GrB_Index i = 0; i < n; i++) nb[i] = vb[gather[i]];
    }
    if (vertex_values && !iso) {
      for (GrB_Index i = 0; i < n; i++) {
        const uint64_t xi = k2a_get(y, es, i);  // (a value that is no vertex stays as it is)
        if ((nb == NULL || nb[i]) && xi < n) k2a_put(y, es, i, relabel[xi]);
      }
    }
    if (nb != NULL) {
      K2A_TRY(GxB_Vector_pack_Bitmap(*v, &nb, &nx, n + 1, iso ? es : n * es + 1, iso, got, NULL));
    } else {
      K2A_TRY(GxB_Vector_pack_Full(*v, &nx, iso ? es : n * es + 1, iso, NULL));
    }
    free(vb);
    free(vx);
    return GrB_SUCCESS;
  }
  const bool real = type == GrB_FP32 || type == GrB_FP64;
  idx = malloc((nv + 1) * sizeof *idx);
  val = malloc((nv + 1) * 8);
  if (idx == NULL || val == NULL) K2A_FAIL(GrB_OUT_OF_MEMORY, "out of memory for the result");
  GrB_Index got = nv;
  if (real) {
    K2A_TRY(GrB_Vector_extractTuples_FP64(idx, (double *)val, &got, *v));
  } else {
    K2A_TRY(GrB_Vector_extractTuples_INT64(idx, (int64_t *)val, &got, *v));
  }
  for (GrB_Index k = 0; k < got; k++) idx[k] = relabel[idx[k]];
  if (vertex_values) {
    int64_t *x = val;
    for (GrB_Index k = 0; k < got; k++) x[k] = x[k] >= 0 && (GrB_Index)x[k] < n ? relabel[x[k]] : x[k];
  }
  K2A_TRY(GrB_Vector_new(&w, type, n));
  if (real) {
    K2A_TRY(GrB_Vector_build_FP64(w, idx, (const double *)val, got, NULL));
  } else {
    K2A_TRY(GrB_Vector_build_INT64(w, idx, (const int64_t *)val, got, NULL));
  }
  free(idx);
  free(val);
  GrB_free(v);
  *v = w;
  return GrB_SUCCESS;
#undef K2A_FN
}
