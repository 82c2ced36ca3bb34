// test_graph.c: K2_Graph, a matrix of either storage with its degrees cached (LAGraph_Graph).
// The algorithms on a graph give the matrix entry points' results bit for bit (PageRank in its
// three models, BFS); the cached degrees equal SuiteSparse's row and column counts, are
// computed once and dropped by K2_Graph_deleteCached; bad arguments leave the caller's objects
// as they were. A locality order renumbers the tree where that pays, and the algorithms on the
// graph map their results back.
// SPDX-License-Identifier: Apache-2.0
#include "alg_test_util.h"

// The graph of a test: the same edges as a tree graph and a SuiteSparse graph (each owning a
// copy of the alg_graph's matrix).
typedef struct {
  alg_graph g;
  K2_Graph tree, csr;
} graph_pair;

static void pair_make(graph_pair *p, K2_GraphKind kind) {
  char msg[K2_MSG_LEN];
  K2_Matrix K = NULL;
  GrB_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_dup(&K, p->g.K));
  K2_ASSERT_OK(GrB_Matrix_dup(&A, p->g.G));
  K2_ASSERT_OK(K2_Graph_new(&p->tree, &K, kind, msg));
  K2_ASSERT_OK(K2_Graph_new(&p->csr, &A, kind, msg));
  assert_null(K);  // taken over
  assert_null(A);
  assert_true(p->tree->K != NULL && p->tree->A == NULL);
  assert_true(p->csr->A != NULL && p->csr->K == NULL);
  assert_null(p->tree->out_degree);
  assert_null(p->tree->in_degree);
}

static void pair_free(graph_pair *p) {
  K2_ASSERT_OK(K2_Graph_free(&p->tree, NULL));
  K2_ASSERT_OK(K2_Graph_free(&p->csr, NULL));
  assert_null(p->tree);
  alg_graph_free(&p->g);
}

// A web-like graph of n pages: sinks, hubs, long BFS paths.
static void pair_web(graph_pair *p, GrB_Index n) {
  K2_Edges E;
  K2_WebParams wp;
  K2_WebParams_default(&wp);
  K2_ASSERT_OK(K2_Gen_web(&E, n, &wp));
  alg_graph_from_pairs(&p->g, n, E.I, E.J, E.nvals);
  K2_Edges_free(&E);
}

// The dense values of two FP32 or FP64 vectors, equal bit for bit (same pattern too).
static void assert_same_vector(GrB_Vector a, GrB_Vector b) {
  GrB_Index na, nb, n;
  K2_ASSERT_OK(GrB_Vector_size(&n, a));
  K2_ASSERT_OK(GrB_Vector_nvals(&na, a));
  K2_ASSERT_OK(GrB_Vector_nvals(&nb, b));
  assert_int_equal(na, nb);
  GrB_Index *ia = malloc((na + 1) * sizeof(GrB_Index)), *ib = malloc((nb + 1) * sizeof(GrB_Index));
  double *xa = malloc((na + 1) * sizeof(double)), *xb = malloc((nb + 1) * sizeof(double));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ia, xa, &na, a));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ib, xb, &nb, b));
  assert_memory_equal(ia, ib, na * sizeof(GrB_Index));
  assert_memory_equal(xa, xb, na * sizeof(double));  // FP32 values widen exactly
  free(ia), free(ib), free(xa), free(xb);
}

// Two INT32 / INT64 matrices with the same entries.
static void assert_same_matrix(GrB_Matrix a, GrB_Matrix b) {
  GrB_Index na, nb;
  K2_ASSERT_OK(GrB_Matrix_nvals(&na, a));
  K2_ASSERT_OK(GrB_Matrix_nvals(&nb, b));
  assert_int_equal(na, nb);
  GrB_Index *ia = malloc((na + 1) * sizeof(GrB_Index)), *ja = malloc((na + 1) * sizeof(GrB_Index));
  GrB_Index *ib = malloc((nb + 1) * sizeof(GrB_Index)), *jb = malloc((nb + 1) * sizeof(GrB_Index));
  int64_t *xa = malloc((na + 1) * sizeof(int64_t)), *xb = malloc((nb + 1) * sizeof(int64_t));
  K2_ASSERT_OK(GrB_Matrix_extractTuples_INT64(ia, ja, xa, &na, a));
  K2_ASSERT_OK(GrB_Matrix_extractTuples_INT64(ib, jb, xb, &nb, b));
  assert_memory_equal(ia, ib, na * sizeof(GrB_Index));
  assert_memory_equal(ja, jb, na * sizeof(GrB_Index));
  assert_memory_equal(xa, xb, na * sizeof(int64_t));
  free(ia), free(ja), free(ib), free(jb), free(xa), free(xb);
}

// Every PageRank model on a graph equals the matrix entry point on the same storage, twice
// (the second call on cached degrees); the out-degrees are computed by the first call, kept by
// the second.
static void check_pagerank_models(graph_pair *p) {
  char msg[K2_MSG_LEN];
  for (int st = 0; st < 2; st++) {
    K2_Graph G = st ? p->tree : p->csr;
    for (int model = 0; model < 3; model++) {
      for (int call = 0; call < 2; call++) {
        GrB_Vector r1 = NULL, r2 = NULL;
        int i1 = -1, i2 = -2;
        if (model == 0) {
          K2_ASSERT_OK(st ? K2_pagerank_k2(&r1, &i1, G->K, 0.85f, 1e-4f, 100, msg)
                          : K2_pagerank_grb(&r1, &i1, G->A, 0.85f, 1e-4f, 100, msg));
          K2_ASSERT_OK(K2_pagerank(&r2, &i2, G, 0.85f, 1e-4f, 100, msg));  // _Generic: the graph
        } else if (model == 1) {
          K2_ASSERT_OK(st ? K2_pagerank_gap_k2(&r1, &i1, G->K, 0.85f, 1e-4f, 100, msg)
                          : K2_pagerank_gap_grb(&r1, &i1, G->A, 0.85f, 1e-4f, 100, msg));
          K2_ASSERT_OK(K2_pagerank_gap_graph(&r2, &i2, G, 0.85f, 1e-4f, 100, msg));
        } else {
          K2_ASSERT_OK(st ? K2_pagerank_ldbc_k2(&r1, G->K, 0.85, 12, msg)
                          : K2_pagerank_ldbc_grb(&r1, G->A, 0.85, 12, msg));
          K2_ASSERT_OK(K2_pagerank_ldbc_graph(&r2, G, 0.85, 12, msg));
          i1 = i2 = 12;
        }
        assert_int_equal(i1, i2);
        assert_same_vector(r1, r2);
        GrB_free(&r1);
        GrB_free(&r2);
        assert_non_null(G->out_degree);
      }
    }
  }
}

static void test_pagerank_same(void **state) {
  (void)state;
  // bit for bit needs products that sum in a fixed order: the OpenMP engine's (a GPU's atomic
  // FP32 sums may differ between two runs), also when the suite runs with K2GRB_ENGINE=cuda
  K2_Engine engine = K2_ENGINE_AUTO;
  K2_ASSERT_OK(K2_get_engine(&engine));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  static const char *files[] = {"lagraph/karate.mtx", "lagraph/west0067.mtx", "lagraph/ldbc-directed-example.mtx"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    graph_pair p;
    if (!alg_graph_load(&p.g, files[f], false)) continue;
    pair_make(&p, K2_ADJACENCY_DIRECTED);
    check_pagerank_models(&p);
    pair_free(&p);
  }
  // generated: no data folder needed
  graph_pair p;
  pair_web(&p, 20000);
  pair_make(&p, K2_ADJACENCY_DIRECTED);
  check_pagerank_models(&p);
  // the iteration count too when PageRank does not converge: the same failure, no output
  GrB_Vector r = NULL;
  int it = -1;
  assert_int_equal(K2_pagerank_graph(&r, &it, p.tree, 0.85f, 1e-4f, 2, NULL), K2_CONVERGENCE_FAILURE);
  assert_null(r);
  pair_free(&p);
  K2_ASSERT_OK(K2_set_engine(engine));
}

// BFS on a graph: the levels of a serial BFS in every mode, parents valid, on both storages.
static void test_bfs_same(void **state) {
  (void)state;
  graph_pair p;
  pair_web(&p, 5000);
  pair_make(&p, K2_ADJACENCY_DIRECTED);
  char msg[K2_MSG_LEN];
  int64_t *want = malloc(p.g.n * sizeof(int64_t));
  GrB_Index sources[] = {0, 17, 2500, 4999};
  for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
    alg_oracle_bfs(want, p.g.n, p.g.rowptr, p.g.col, sources[s]);
    for (int st = 0; st < 2; st++) {
      for (int mode = K2_BFS_AUTO; mode <= K2_BFS_PULL; mode++) {
        GrB_Vector level = NULL, parent = NULL;
        K2_Graph G = st ? p.tree : p.csr;
        if (mode == K2_BFS_AUTO) K2_ASSERT_OK(K2_bfs(&level, &parent, G, sources[s], msg));
        else K2_ASSERT_OK(K2_bfs_mode(&level, &parent, G, sources[s], (K2_BfsMode)mode, msg));
        alg_check_bfs(&p.g, sources[s], level, parent, want);
        GrB_free(&level);
        GrB_free(&parent);
      }
    }
  }
  // the host's push/pull switch read them; a BFS whole on the GPU (the CUDA engine asked for, the
  // device serving the tree) has no switch and computes none
  K2_Engine engine = K2_ENGINE_AUTO;
  bool served = false;
  K2_ASSERT_OK(K2_get_engine(&engine));
  K2_ASSERT_OK(K2_Matrix_deviceServes(&served, p.tree->K));
  if (engine != K2_ENGINE_CUDA || !served) assert_non_null(p.tree->out_degree);
  free(want);
  pair_free(&p);
}

// The row (in: column) counts of A by SuiteSparse's own reduction.
static void grb_degrees(int64_t *deg, GrB_Matrix A, GrB_Index n, bool in) {
  GrB_Vector d = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&d, GrB_INT64, n));
  K2_ASSERT_OK(GrB_reduce(d, NULL, NULL, GrB_PLUS_MONOID_INT64, A, in ? GrB_DESC_T0 : NULL));
  alg_dense_int64(deg, d, n, 0);
  GrB_free(&d);
}

// Cached degrees: equal to SuiteSparse's counts (no entry for 0), computed once, one vector for
// both directions of an undirected graph, dropped by K2_Graph_deleteCached.
static void test_degrees(void **state) {
  (void)state;
  graph_pair p;
  pair_web(&p, 3000);
  pair_make(&p, K2_ADJACENCY_DIRECTED);
  GrB_Index n = p.g.n;
  int64_t *want = malloc(n * sizeof(int64_t)), *got = malloc(n * sizeof(int64_t));
  char msg[K2_MSG_LEN];
  for (int st = 0; st < 2; st++) {
    K2_Graph G = st ? p.tree : p.csr;
    for (int in = 0; in < 2; in++) {
      grb_degrees(want, p.g.G, n, in);
      K2_ASSERT_OK(in ? K2_Graph_cachedInDegree(G, msg) : K2_Graph_cachedOutDegree(G, msg));
      GrB_Vector d = in ? G->in_degree : G->out_degree;
      assert_non_null(d);
      GrB_Type t;
      K2_ASSERT_OK(GxB_Vector_type(&t, d));
      assert_true(t == GrB_INT64);
      GrB_Index nv, nonzero = 0;
      K2_ASSERT_OK(GrB_Vector_nvals(&nv, d));
      for (GrB_Index i = 0; i < n; i++) nonzero += want[i] != 0;
      assert_int_equal(nv, nonzero);  // no entry for a vertex without edges, as LAGraph's
      alg_dense_int64(got, d, n, 0);
      assert_memory_equal(got, want, n * sizeof(int64_t));
      // a second call keeps the same object
      K2_ASSERT_OK(in ? K2_Graph_cachedInDegree(G, msg) : K2_Graph_cachedOutDegree(G, msg));
      assert_ptr_equal(in ? G->in_degree : G->out_degree, d);
    }
    assert_true(G->in_degree != G->out_degree);
  }
  // computed once: an edge added behind the cache's back does not show until deleteCached
  GrB_Index u = 0;
  while (p.g.rowptr[u + 1] - p.g.rowptr[u] == n || alg_has_edge(&p.g, u, 1)) u++;
  int64_t before;
  alg_dense_int64(got, p.tree->out_degree, n, 0);
  before = got[u];
  K2_ASSERT_OK(K2_Matrix_setElement(p.tree->K, u, 1));
  K2_ASSERT_OK(GrB_Matrix_setElement_BOOL(p.csr->A, true, u, 1));
  for (int st = 0; st < 2; st++) {
    K2_Graph G = st ? p.tree : p.csr;
    GrB_Vector r = NULL;
    int it;
    K2_ASSERT_OK(K2_pagerank_graph(&r, &it, G, 0.85f, 1e-4f, 100, msg));  // reads the cache
    GrB_free(&r);
    alg_dense_int64(got, G->out_degree, n, 0);
    assert_int_equal(got[u], before);
    K2_ASSERT_OK(K2_Graph_deleteCached(G, msg));
    assert_null(G->out_degree);
    assert_null(G->in_degree);
    K2_ASSERT_OK(K2_Graph_cachedOutDegree(G, msg));
    alg_dense_int64(got, G->out_degree, n, 0);
    assert_int_equal(got[u], before + 1);
  }
  pair_free(&p);
  // undirected: one vector serves both
  pair_web(&p, 500);
  pair_make(&p, K2_ADJACENCY_UNDIRECTED);
  K2_ASSERT_OK(K2_Graph_cachedInDegree(p.tree, msg));
  assert_non_null(p.tree->in_degree);
  assert_ptr_equal(p.tree->in_degree, p.tree->out_degree);
  K2_ASSERT_OK(K2_Graph_deleteCached(p.tree, msg));  // freed once
  assert_null(p.tree->in_degree);
  K2_ASSERT_OK(K2_Graph_cachedOutDegree(p.csr, msg));
  K2_ASSERT_OK(K2_Graph_cachedInDegree(p.csr, msg));
  assert_ptr_equal(p.csr->in_degree, p.csr->out_degree);
  pair_free(&p);  // frees the shared vector once
  free(want), free(got);
}

// Bad arguments: the code, a message naming the function, the caller's objects as they were.
static void test_errors(void **state) {
  (void)state;
  char msg[K2_MSG_LEN];
  K2_Matrix K = NULL, R = NULL;
  GrB_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&K, 4, 4));
  K2_ASSERT_OK(K2_Matrix_setElement(K, 0, 1));
  K2_ASSERT_OK(GrB_Matrix_new(&A, GrB_BOOL, 4, 4));
  K2_ASSERT_OK(K2_Matrix_new(&R, 3, 4));
  K2_Graph G = (K2_Graph)&msg;  // set to NULL by every failure
  assert_int_equal(K2_Graph_new(NULL, &K, K2_ADJACENCY_DIRECTED, msg), GrB_NULL_POINTER);
  assert_non_null(strstr(msg, "K2_Graph_new: G is NULL"));
  assert_non_null(K);
  assert_int_equal(K2_Graph_new_k2(&G, NULL, K2_ADJACENCY_DIRECTED, msg), GrB_NULL_POINTER);
  assert_null(G);
  K2_Matrix none = NULL;
  G = (K2_Graph)&msg;
  assert_int_equal(K2_Graph_new(&G, &none, K2_ADJACENCY_DIRECTED, msg), GrB_NULL_POINTER);
  assert_null(G);
  assert_non_null(strstr(msg, "A is NULL"));
  assert_int_equal(K2_Graph_new(&G, &K, (K2_GraphKind)7, msg), GrB_INVALID_VALUE);
  assert_non_null(strstr(msg, "K2_Graph_new: unknown kind 7"));
  assert_null(G);
  assert_non_null(K);  // still the caller's
  GrB_Index nv = 0;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, K));
  assert_int_equal(nv, 1);
  assert_int_equal(K2_Graph_new(&G, &A, (K2_GraphKind)-1, msg), GrB_INVALID_VALUE);
  assert_non_null(A);
  assert_int_equal(K2_Graph_new(&G, &R, K2_ADJACENCY_DIRECTED, msg), GrB_DIMENSION_MISMATCH);
  assert_non_null(strstr(msg, "not square (3 x 4)"));
  assert_non_null(R);
  // NULL graphs
  assert_int_equal(K2_Graph_cachedOutDegree(NULL, msg), GrB_NULL_POINTER);
  assert_non_null(strstr(msg, "K2_Graph_cachedOutDegree: G is NULL"));
  assert_int_equal(K2_Graph_cachedInDegree(NULL, msg), GrB_NULL_POINTER);
  assert_int_equal(K2_Graph_deleteCached(NULL, msg), GrB_NULL_POINTER);
  GrB_Vector r = (GrB_Vector)&msg, l = (GrB_Vector)&msg;
  int it;
  assert_int_equal(K2_pagerank_graph(&r, &it, NULL, 0.85f, 1e-4f, 100, msg), GrB_NULL_POINTER);
  assert_null(r);
  assert_non_null(strstr(msg, "K2_pagerank_graph: G is NULL"));
  r = (GrB_Vector)&msg;
  assert_int_equal(K2_pagerank_ldbc_graph(&r, NULL, 0.85, 3, msg), GrB_NULL_POINTER);
  assert_null(r);
  assert_int_equal(K2_bfs_graph(&l, NULL, NULL, 0, msg), GrB_NULL_POINTER);
  assert_null(l);
  l = (GrB_Vector)&msg;
  assert_int_equal(K2_sssp_hops_graph(&l, NULL, 0, msg), GrB_NULL_POINTER);
  assert_null(l);
  assert_non_null(strstr(msg, "K2_sssp_hops_graph: G is NULL"));
  l = (GrB_Vector)&msg;
  assert_int_equal(K2_wcc_graph(&l, NULL, NULL, msg), GrB_NULL_POINTER);
  assert_null(l);
  assert_non_null(strstr(msg, "K2_wcc_graph: G is NULL"));
  assert_int_equal(K2_Graph_cachedLocalityOrder(NULL, msg), GrB_NULL_POINTER);
  K2_ASSERT_OK(K2_Graph_free(NULL, msg));
  K2_Graph nothing = NULL;
  K2_ASSERT_OK(K2_Graph_free(&nothing, msg));
  // a graph's algorithm with bad parameters: its code, the graph's name, no degrees computed
  K2_ASSERT_OK(K2_Graph_new(&G, &K, K2_ADJACENCY_DIRECTED, msg));
  assert_int_equal(K2_pagerank_graph(&r, &it, G, 1.5f, 1e-4f, 100, msg), GrB_INVALID_VALUE);
  assert_null(r);
  assert_non_null(strstr(msg, "K2_pagerank_graph: need 0 < damping < 1"));
  assert_int_equal(K2_pagerank_gap_graph(&r, NULL, G, 0.85f, 1e-4f, 100, msg), GrB_NULL_POINTER);
  assert_int_equal(K2_pagerank_ldbc_graph(&r, G, 0.85, -1, msg), GrB_INVALID_VALUE);
  assert_int_equal(K2_bfs_graph(&l, NULL, G, 4, msg), GrB_INVALID_INDEX);
  assert_non_null(strstr(msg, "K2_bfs_graph: source vertex 4 is out of range"));
  assert_null(l);
  assert_null(G->out_degree);
  // a graph not made by K2_Graph_new (no matrix)
  struct K2_Graph_struct empty = {0};
  assert_int_equal(K2_pagerank_graph(&r, &it, &empty, 0.85f, 1e-4f, 100, msg), GrB_INVALID_OBJECT);
  assert_int_equal(K2_Graph_cachedOutDegree(&empty, msg), GrB_INVALID_OBJECT);
  K2_ASSERT_OK(K2_Graph_free(&G, msg));
  K2_Matrix_free(&R);
  GrB_free(&A);
}

// A grid of side x side vertices, edges both ways between neighbours, its ids shuffled: a graph
// whose numbering scatters its edges, which a locality order gathers again. cut > 0: no edge
// between blocks of cut x cut vertices (that many components).
static void pair_shuffled_grid(graph_pair *p, uint32_t side, uint32_t cut) {
  const GrB_Index n = (GrB_Index)side * side;
  uint32_t *id = malloc(n * sizeof *id), *I = malloc(4 * n * sizeof *I), *J = malloc(4 * n * sizeof *J);
  assert_true(id && I && J);
  for (GrB_Index v = 0; v < n; v++) id[v] = (uint32_t)v;
  uint64_t x = 12345;
  for (GrB_Index v = n - 1; v > 0; v--) {  // Fisher-Yates with a fixed LCG
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const GrB_Index u = (x >> 33) % (v + 1);
    const uint32_t t = id[v];
    id[v] = id[u], id[u] = t;
  }
  GrB_Index m = 0;
  for (uint32_t r = 0; r < side; r++) {
    for (uint32_t c = 0; c < side; c++) {
      const uint32_t v = id[r * side + c];
      const bool right = c + 1 < side && (cut == 0 || (c + 1) % cut != 0);
      const bool down = r + 1 < side && (cut == 0 || (r + 1) % cut != 0);
      if (right) I[m] = v, J[m++] = id[r * side + c + 1], I[m] = J[m - 1], J[m++] = v;
      if (down) I[m] = v, J[m++] = id[(r + 1) * side + c], I[m] = J[m - 1], J[m++] = v;
    }
  }
  alg_graph_from_pairs(&p->g, n, I, J, m);
  free(id), free(I), free(J);
}

// The sorted codes (row << 32 | column) of K's entries, each index mapped through map (NULL: as
// they are).
static uint64_t *entry_codes(K2_Matrix K, const uint32_t *map, GrB_Index *count) {
  GrB_Index nv = 0;
  K2_ASSERT_OK(K2_Matrix_nvals(&nv, K));
  uint32_t *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  uint64_t *code = malloc((nv + 1) * sizeof *code);
  assert_true(I && J && code);
  K2_ASSERT_OK(K2_Matrix_extractTuples_32(I, J, &nv, K));
  for (GrB_Index k = 0; k < nv; k++) {
    code[k] = (uint64_t)(map ? map[I[k]] : I[k]) << 32 | (map ? map[J[k]] : J[k]);
  }
  qsort(code, nv, sizeof *code, alg_cmp_u64);
  free(I), free(J);
  *count = nv;
  return code;
}

// WCC on the tree graph: the labels of the matrix entry point on G->K and of a union-find
// oracle (the smallest id of each component).
static void check_wcc_on_graph(graph_pair *p) {
  char msg[K2_MSG_LEN];
  GrB_Vector w1 = NULL, w2 = NULL;
  int rounds1 = 0, rounds2 = 0;
  K2_ASSERT_OK(K2_wcc(&w1, &rounds1, p->tree, msg));
  K2_ASSERT_OK(K2_wcc_k2(&w2, &rounds2, p->tree->K, msg));
  assert_same_vector(w1, w2);
  int64_t *want = malloc(p->g.n * sizeof(int64_t)), *got = malloc(p->g.n * sizeof(int64_t));
  alg_oracle_wcc(want, &p->g);
  alg_dense_int64(got, w1, p->g.n, -1);
  assert_memory_equal(want, got, p->g.n * sizeof(int64_t));
  free(want), free(got);
  GrB_free(&w1), GrB_free(&w2);
}

// A locality order: kept where it pays (a shuffled grid: the renumbered tree a fraction of the
// size), a permutation with its inverse, the same edges renumbered; BFS on the graph gives the
// serial BFS's levels and valid parents in every mode, PageRank the unordered graph's ranks
// within rounding; not kept where the numbering has locality already; dropped by
// K2_Graph_deleteCached; nothing to do in SuiteSparse storage.
static void test_locality_order(void **state) {
  (void)state;
  char msg[K2_MSG_LEN];
  graph_pair p;
  pair_shuffled_grid(&p, 70, 0);
  pair_make(&p, K2_ADJACENCY_UNDIRECTED);
  const GrB_Index n = p.g.n;
  K2_ASSERT_OK(K2_Graph_cachedLocalityOrder(p.tree, msg));
  assert_true(p.tree->order_checked);
  assert_non_null(p.tree->ordered);
  K2_Graph O = p.tree->ordered;
  K2_MemoryUsage was, now;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&was, p.tree->K));
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&now, O->K));
  assert_true(4 * now.tree <= 3 * was.tree);
  for (GrB_Index v = 0; v < n; v++) {
    assert_true(p.tree->order[v] < n);
    assert_int_equal(p.tree->order_inverse[p.tree->order[v]], v);
  }
  GrB_Index c1 = 0, c2 = 0;
  uint64_t *mapped = entry_codes(p.tree->K, p.tree->order, &c1), *stored = entry_codes(O->K, NULL, &c2);
  assert_int_equal(c1, c2);
  assert_memory_equal(mapped, stored, c1 * sizeof *mapped);
  free(mapped), free(stored);
  // a second call keeps what is there
  K2_ASSERT_OK(K2_Graph_cachedLocalityOrder(p.tree, msg));
  assert_ptr_equal(p.tree->ordered, O);
  // BFS: levels exact, parents valid (in G's numbering), every mode, levels or parents alone
  int64_t *want = malloc(n * sizeof(int64_t));
  const GrB_Index sources[] = {0, 1, n / 2, n - 1};
  for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
    alg_oracle_bfs(want, n, p.g.rowptr, p.g.col, sources[s]);
    for (int mode = K2_BFS_AUTO; mode <= K2_BFS_PULL; mode++) {
      GrB_Vector level = NULL, parent = NULL;
      K2_ASSERT_OK(K2_bfs_mode(&level, &parent, p.tree, sources[s], (K2_BfsMode)mode, msg));
      alg_check_bfs(&p.g, sources[s], level, parent, want);
      GrB_free(&level), GrB_free(&parent);
    }
    GrB_Vector level = NULL, parent = NULL;
    K2_ASSERT_OK(K2_bfs(&level, NULL, p.tree, sources[s], msg));
    alg_check_bfs(&p.g, sources[s], level, NULL, want);
    K2_ASSERT_OK(K2_bfs(NULL, &parent, p.tree, sources[s], msg));
    alg_check_bfs(&p.g, sources[s], NULL, parent, want);
    GrB_free(&level), GrB_free(&parent);
  }
  // SSSP hops and WCC: the matrix entry points' results on G->K exactly (distances; labels, the
  // smallest G id per component), and on the SuiteSparse graph
  for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
    GrB_Vector d1 = NULL, d2 = NULL, d3 = NULL;
    K2_ASSERT_OK(K2_sssp_hops(&d1, p.tree, sources[s], msg));
    K2_ASSERT_OK(K2_sssp_hops_k2(&d2, p.tree->K, sources[s], msg));
    K2_ASSERT_OK(K2_sssp_hops(&d3, p.csr, sources[s], msg));
    assert_same_vector(d1, d2);
    assert_same_vector(d1, d3);
    GrB_free(&d1), GrB_free(&d2), GrB_free(&d3);
  }
  {
    GrB_Vector w1 = NULL, w2 = NULL, w3 = NULL;
    int r1 = 0, r2 = 0, r3 = 0;
    K2_ASSERT_OK(K2_wcc(&w1, &r1, p.tree, msg));
    K2_ASSERT_OK(K2_wcc_k2(&w2, &r2, p.tree->K, msg));
    K2_ASSERT_OK(K2_wcc(&w3, &r3, p.csr, msg));
    assert_same_vector(w1, w2);
    assert_same_vector(w1, w3);
    GrB_free(&w1), GrB_free(&w2), GrB_free(&w3);
  }
  // msBFS along and against the edges: the matrix entry point's distances on G->K
  for (int reverse = 0; reverse < 2; reverse++) {
    GrB_Matrix m1 = NULL, m2 = NULL;
    K2_ASSERT_OK(K2_msbfs(&m1, p.tree, sources, 4, reverse, msg));
    K2_ASSERT_OK(K2_msbfs_k2(&m2, p.tree->K, sources, 4, reverse, msg));
    assert_same_matrix(m1, m2);
    GrB_free(&m1), GrB_free(&m2);
  }
  GrB_Matrix dm = (GrB_Matrix)&msg;
  const GrB_Index bad[2] = {0, n};
  assert_int_equal(K2_msbfs(&dm, p.tree, bad, 2, false, msg), GrB_INVALID_INDEX);
  assert_null(dm);
  assert_non_null(strstr(msg, "K2_msbfs_graph: "));
  // a source out of range: the error in G's terms, no output
  GrB_Vector d = (GrB_Vector)&msg;
  assert_int_equal(K2_sssp_hops(&d, p.tree, n + 3, msg), GrB_INVALID_INDEX);
  assert_null(d);
  assert_non_null(strstr(msg, "K2_sssp_hops_graph: "));
  GrB_Vector l = (GrB_Vector)&msg;
  assert_int_equal(K2_bfs(&l, NULL, p.tree, n, msg), GrB_INVALID_INDEX);
  assert_null(l);
  assert_non_null(strstr(msg, "K2_bfs_graph: source vertex"));
  // PageRank (LAGraph's model, FP32) and LDBC's (FP64, fixed iterations) against the same graph
  // without the order: sums in another order, equal within rounding
  // (on the OpenMP engine: a GPU's atomic FP32 sums may take PageRank one iteration further or
  // shorter, beyond this tolerance, also when the suite runs with K2GRB_ENGINE=cuda)
  K2_Engine engine = K2_ENGINE_AUTO;
  K2_ASSERT_OK(K2_get_engine(&engine));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  GrB_Vector r1 = NULL, r2 = NULL;
  int i1 = 0, i2 = 0;
  K2_ASSERT_OK(K2_pagerank_graph(&r1, &i1, p.tree, 0.85f, 1e-4f, 100, msg));
  K2_ASSERT_OK(K2_pagerank_graph(&r2, &i2, p.csr, 0.85f, 1e-4f, 100, msg));
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  alg_dense_fp64(a, r1, n);
  alg_dense_fp64(b, r2, n);
  for (GrB_Index v = 0; v < n; v++) assert_true(fabs(a[v] - b[v]) <= 1e-5 * fabs(b[v]) + 1e-9);
  GrB_free(&r1), GrB_free(&r2);
  K2_ASSERT_OK(K2_pagerank_ldbc_graph(&r1, p.tree, 0.85, 10, msg));
  K2_ASSERT_OK(K2_pagerank_ldbc_graph(&r2, p.csr, 0.85, 10, msg));
  alg_dense_fp64(a, r1, n);
  alg_dense_fp64(b, r2, n);
  for (GrB_Index v = 0; v < n; v++) assert_true(fabs(a[v] - b[v]) <= 1e-12 * fabs(b[v]) + 1e-15);
  GrB_free(&r1), GrB_free(&r2);
  K2_ASSERT_OK(K2_set_engine(engine));
  free(a), free(b), free(want);
  // dropped with the other cached properties; computed again on request
  K2_ASSERT_OK(K2_Graph_deleteCached(p.tree, msg));
  assert_null(p.tree->ordered);
  assert_null(p.tree->order);
  assert_null(p.tree->order_inverse);
  assert_false(p.tree->order_checked);
  K2_ASSERT_OK(K2_Graph_cachedLocalityOrder(p.tree, msg));
  assert_non_null(p.tree->ordered);
  // SuiteSparse storage: nothing to do
  K2_ASSERT_OK(K2_Graph_cachedLocalityOrder(p.csr, msg));
  assert_null(p.csr->ordered);
  pair_free(&p);  // (frees the order too: leak-checked under the sanitizers)
  // components: WCC's labels (the smallest G id of each) against a union-find oracle
  pair_shuffled_grid(&p, 80, 10);
  pair_make(&p, K2_ADJACENCY_UNDIRECTED);
  K2_ASSERT_OK(K2_Graph_cachedLocalityOrder(p.tree, msg));
  assert_non_null(p.tree->ordered);
  check_wcc_on_graph(&p);
  pair_free(&p);
  // a grid numbered row by row already, cut into strips of 8 rows: the copy does not pay and is
  // not kept, the maps are (WCC's labels start from the order on G's own tree)
  uint32_t side = 64, *I = malloc(4 * side * side * sizeof *I), *J = malloc(4 * side * side * sizeof *J);
  GrB_Index m = 0;
  for (uint32_t v = 0; v < side * side; v++) {
    if ((v + 1) % side) I[m] = v, J[m++] = v + 1, I[m] = v + 1, J[m++] = v;
    if (v + side < side * side && (v / side + 1) % 8 != 0) I[m] = v, J[m++] = v + side, I[m] = v + side, J[m++] = v;
  }
  alg_graph_from_pairs(&p.g, (GrB_Index)side * side, I, J, m);
  free(I), free(J);
  pair_make(&p, K2_ADJACENCY_UNDIRECTED);
  K2_ASSERT_OK(K2_Graph_cachedLocalityOrder(p.tree, msg));
  assert_true(p.tree->order_checked);
  assert_null(p.tree->ordered);
  assert_non_null(p.tree->order);
  for (GrB_Index v = 0; v < p.g.n; v++) assert_int_equal(p.tree->order_inverse[p.tree->order[v]], v);
  GrB_Vector level = NULL;
  K2_ASSERT_OK(K2_bfs(&level, NULL, p.tree, 5, msg));  // on G's own tree: the strip of vertex 5
  GrB_Index reached = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&reached, level));
  assert_int_equal(reached, (GrB_Index)side * 8);
  GrB_free(&level);
  check_wcc_on_graph(&p);
  pair_free(&p);
  assert_int_equal(K2_Graph_cachedLocalityOrder(NULL, msg), GrB_NULL_POINTER);
  assert_non_null(strstr(msg, "K2_Graph_cachedLocalityOrder: G is NULL"));
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pagerank_same), cmocka_unit_test(test_bfs_same),
                                     cmocka_unit_test(test_degrees), cmocka_unit_test(test_errors),
                                     cmocka_unit_test(test_locality_order)};
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
