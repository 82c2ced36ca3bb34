// k2grb_demo.c: `k2grb demo`, the main job: generate a Graph500 R-MAT graph (the k²-tree's
// worst case) and a web-like graph of about as many edges (its best case), build their
// k²-trees, compare their sizes with a CSR, run right and left products, a BFS and PageRank on
// the best engine present and check them against SuiteSparse:GraphBLAS on a CSR.
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <k2grb.h>

#include "k2grb_algorithms.h"
#include "k2grb_cli.h"

static k2_cli_opts demo_cli = {.cmd = "demo"};

// On a failure one line "k2grb demo: what: message (GrB_NAME)", exit code 1, and on to the
// cleanup. The library's message is cleared before each call: GraphBLAS calls leave it alone.
#define DEMO_TRY(what, call)                                                                \
  do {                                                                                      \
    K2_error_clear();                                                                       \
    GrB_Info info_ = (call);                                                                \
    if (info_ != GrB_SUCCESS) {                                                             \
      rc = k2_cli_fail(&demo_cli, K2_CLI_FAIL, info_, K2_error_string(), "%s", (what));     \
      goto done;                                                                            \
    }                                                                                       \
  } while (0)

// The same for an algorithm, whose message (msg) says which step failed.
#define DEMO_ALG(call)                                                                      \
  do {                                                                                      \
    GrB_Info info_ = (call);                                                                \
    if (info_ != GrB_SUCCESS) {                                                             \
      char words_[K2_MSG_LEN + 64];                                                         \
      rc = k2_cli_fail(&demo_cli, K2_CLI_FAIL, info_, NULL, "%s",                           \
                       k2_cli_alg_words(msg, words_, sizeof words_));                       \
      goto done;                                                                            \
    }                                                                                       \
  } while (0)

// An allocation that failed: one line, exit code 1, on to the cleanup.
#define DEMO_NEED(ptr, what)                                                                \
  do {                                                                                      \
    if ((ptr) == NULL) {                                                                    \
      rc = k2_cli_error(&demo_cli, K2_CLI_FAIL, "out of memory for %s", (what));           \
      goto done;                                                                            \
    }                                                                                       \
  } while (0)

static const char demo_usage[] =
    "usage: k2grb demo [--graph rmat|web|both] [--scale S] [--edge-factor E] [--seed N] [--json]\n"
    "                  [--engine E] [--threads N]\n"
    "Generates a Graph500 R-MAT graph (scale 20, edge factor 16 unless told: the k2-tree's worst\n"
    "case, scattered edges) and a web-like graph of about as many edges (pages of hosts in URL\n"
    "order: the case k2-trees are made for), builds each one's k2-tree, compares its size with a\n"
    "CSR, runs right and left products, a BFS (levels and parents) and PageRank (LAGraph's\n"
    "model, tol 1e-4) on the best engine present, and checks every result against\n"
    "SuiteSparse:GraphBLAS on a CSR of the same graph. With a GPU, its initialisation and each\n"
    "tree's upload are timed apart from the products.\n"
    "  --graph G        rmat, web or both (both)\n"
    "  --scale S        R-MAT: 2^S vertices, 1 to 30 (20); web-like: as many pages as give\n"
    "                   about 2^S * E edges\n"
    "  --edge-factor E  R-MAT edges per vertex (16)\n"
    "  --seed N         generator seed (1)\n"
    "  --json           one JSON object, one item of `graphs` per graph\n"
    "  --engine E       auto (default), cpu, cuda or reference; default K2GRB_ENGINE\n"
    "  --threads N      CPU threads (default OMP_NUM_THREADS, else every core)\n";

// The products are checked exactly. The matrix is Boolean, so y_i = sum of x_j over the
// entries of row i (column i for the left product): at most D terms, D the maximum degree.
// Each x_j = k_j / 2^10 with integer 0 <= k_j <= K and K = min(1023, floor(2^24 / D)). Every
// partial sum, in whatever order or grouping an engine adds (threads, SIMD lanes, atomics,
// GPU reductions), is a sum of a subset of the terms: an integer multiple of 2^-10 whose
// integer is at most D * K <= 2^24. FP32 holds every integer up to 2^24 exactly, and scaling
// by 2^-10 is exact (far from underflow), so no addition rounds: both sides compute the exact
// sum, and any difference, however small, is a real error. Hence the demo requires
// bit-for-bit equality. Were D above 2^24 (not reached by R-MAT at scales up to 30 with the
// default edge factor) no K >= 1 would do, and the products are reported as not checked.
#define DEMO_FRAC_LOG 10
#define DEMO_REPS 5
#define DEMO_EXACT_LIMIT (UINT64_C(1) << 24)

// Distinct edges per page of K2_Gen_web with its default parameters (mean out-degree 10):
// measured 10.10 to 10.17 from 6,553 to 6.7 M pages (9.7 to 10.6 below 2,000 pages).
#define DEMO_WEB_EDGES_PER_PAGE 10.1

// Where the products run: on a GPU (initialised once, each tree uploaded before its
// products), or on the CPU, and why.
typedef struct {
  bool gpu;
  double tinit;     // seconds of the first K2_Device_available (the CUDA context); gpu only
  char why[128];    // without a GPU: why the products run on the CPU
} demo_device;

// Everything one graph's section reports.
typedef struct {
  bool web;
  char title[160];                // "R-MAT scale 20, edge factor 16, seed 1"
  double tgen, tbuild, tupload;   // tupload: the tree's upload (GPU only)
  GrB_Index n, nv;
  uint64_t tree, csr, bcsr;       // bytes: k²-tree, CSR with FP32 values, Boolean CSR
  // products: [right, left][first call, best of DEMO_REPS more]
  uint64_t maxdeg, kmax;
  bool exact, repeatable;
  double tk2[2][2], tgrb[2][2];
  GrB_Index bad[2], first_bad[2];  // mismatching entries (n + 1: unreadable), the first
  K2_Engine eng;
  // BFS from src
  GrB_Index src, reached;
  int64_t depth;
  double tbk, tbg;
  bool bfs_same, bfs_valid;
  K2_Engine beng;
  // PageRank
  int itk, itg;
  double tpk, tpg, pdiff;
  K2_Engine peng;
  bool ok;
} demo_result;

// The graph in both storages.
typedef struct {
  K2_Matrix A;
  GrB_Matrix G;
} demo_graph;

static void demo_graph_free(demo_graph *g) {
  K2_Matrix_free(&g->A);
  GrB_Matrix_free(&g->G);
}

// The dense value of the GrB_Vector w (absent entries are 0) into v; false when out of memory.
static bool demo_dense(float *v, GrB_Vector w, GrB_Index n) {
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index)), nv = n;
  float *X = malloc((n + 1) * sizeof(float));
  bool ok = I && X && GrB_Vector_extractTuples_FP32(I, X, &nv, w) == GrB_SUCCESS;
  if (ok) {
    memset(v, 0, n * sizeof(float));
    for (GrB_Index k = 0; k < nv; k++) v[I[k]] = X[k];
  }
  free(I);
  free(X);
  return ok;
}

// The number of entries where y and the GrB_Vector w differ (bit for bit; -0 equals 0), the
// first in *first; n + 1 when w cannot be read.
static GrB_Index demo_mismatches(const float *y, GrB_Vector w, GrB_Index n, GrB_Index *first) {
  float *v = malloc((n + 1) * sizeof(float));
  GrB_Index bad = n + 1;
  *first = 0;
  if (v && demo_dense(v, w, n)) {
    bad = 0;
    for (GrB_Index i = n; i-- > 0;) {
      if (!(y[i] == v[i])) {
        bad++;
        *first = i;
      }
    }
  }
  free(v);
  return bad;
}

// The edges of one section's graph, its title and generation time.
static int demo_generate(demo_result *r, K2_Edges *E, bool web) {
  int rc = 0;
  unsigned scale = demo_cli.scale;
  double t0 = k2_cli_now();
  if (web) {
    K2_WebParams p;
    K2_WebParams_default(&p);
    p.seed = demo_cli.seed;
    double pages = ldexp(demo_cli.edge_factor, (int)scale) / DEMO_WEB_EDGES_PER_PAGE;
    GrB_Index n = pages < 1 ? 1 : (GrB_Index)llround(pages);
    snprintf(r->title, sizeof r->title, "web-like graph, %llu pages, mean out-degree %g, seed %llu",
             (unsigned long long)n, p.avg_degree, demo_cli.seed);
    DEMO_TRY("generating the web-like graph", K2_Gen_web(E, n, &p));
  } else {
    K2_RmatParams p;
    K2_RmatParams_default(&p, scale);
    p.edge_factor = demo_cli.edge_factor;
    p.seed = demo_cli.seed;
    snprintf(r->title, sizeof r->title, "R-MAT scale %u, edge factor %g, seed %llu", scale, demo_cli.edge_factor,
             demo_cli.seed);
    DEMO_TRY("generating the R-MAT graph", K2_Gen_rmat(E, &p));
  }
  r->tgen = k2_cli_now() - t0;
done:
  return rc;
}

// The tree and the SuiteSparse CSR (iso Boolean, by row) of the same edges, their sizes and the
// maximum degree; frees E.
static int demo_build(demo_result *r, demo_graph *g, K2_Edges *E) {
  int rc = 0;
  GrB_Index *I = NULL, *J = NULL;
  uint32_t *deg = NULL;
  GrB_Scalar one = NULL;
  GrB_Index n = E->nrows, m = E->nvals;
  r->n = n;
  r->src = m ? E->I[0] : 0;  // a vertex with an out-edge
  DEMO_TRY("creating the tree", K2_Matrix_new(&g->A, n, n));
  double t0 = k2_cli_now();
  DEMO_TRY("building the tree", K2_Matrix_build_32(g->A, E->I, E->J, m));
  r->tbuild = k2_cli_now() - t0;
  DEMO_TRY("counting the edges", K2_Matrix_nvals(&r->nv, g->A));
  K2_MemoryUsage u;
  DEMO_TRY("measuring the tree", K2_Matrix_memoryUsage(&u, g->A));
  r->tree = u.tree + u.directory + u.top;
  r->csr = K2_csr_bytes(n, r->nv, true);
  r->bcsr = K2_csr_bytes(n, r->nv, false);

  // the maximum degree, rows and columns (duplicate edges counted: an upper bound)
  deg = malloc((n + 1) * sizeof(uint32_t));
  DEMO_NEED(deg, "the degrees");
  r->maxdeg = 0;
  for (int side = 0; side < 2; side++) {
    const uint32_t *V = side == 0 ? E->I : E->J;
    memset(deg, 0, n * sizeof(uint32_t));
    for (GrB_Index k = 0; k < m; k++) deg[V[k]] += deg[V[k]] != UINT32_MAX;
    for (GrB_Index i = 0; i < n; i++) r->maxdeg = deg[i] > r->maxdeg ? deg[i] : r->maxdeg;
  }
  I = malloc((m + 1) * sizeof(GrB_Index));
  J = malloc((m + 1) * sizeof(GrB_Index));
  DEMO_NEED(I && J ? I : NULL, "the edges");
  for (GrB_Index k = 0; k < m; k++) {
    I[k] = E->I[k];
    J[k] = E->J[k];
  }
  K2_Edges_free(E);
  DEMO_TRY("building the SuiteSparse matrix", GrB_Matrix_new(&g->G, GrB_BOOL, n, n));
  DEMO_TRY("building the SuiteSparse matrix", GrB_Scalar_new(&one, GrB_BOOL));
  DEMO_TRY("building the SuiteSparse matrix", GrB_Scalar_setElement_BOOL(one, true));
  DEMO_TRY("building the SuiteSparse matrix", GxB_Matrix_build_Scalar(g->G, I, J, one, m));
  DEMO_TRY("building the SuiteSparse matrix", GrB_wait(g->G, GrB_MATERIALIZE));
done:
  K2_Edges_free(E);
  free(deg);
  free(I);
  free(J);
  GrB_Scalar_free(&one);
  return rc;
}

// Right and left products on both storages, checked exactly (above). Each product: the first
// call apart from the best of DEMO_REPS more; every call must give the same result.
static int demo_products(demo_result *r, const demo_graph *g) {
  int rc = 0;
  GrB_Index n = r->n;
  GrB_Vector xv = NULL, w = NULL;
  float *x = malloc((n + 1) * sizeof(float)), *y = malloc((n + 1) * sizeof(float));
  float *y2 = malloc((n + 1) * sizeof(float));
  DEMO_NEED(x && y && y2 ? x : NULL, "the vectors");
  DEMO_TRY("creating the vectors", GrB_Vector_new(&xv, GrB_FP32, n));
  // x_j = k_j / 2^10, 0 <= k_j <= kmax: every partial sum of a product exact in FP32 (above)
  r->exact = r->maxdeg <= DEMO_EXACT_LIMIT;
  r->kmax = (UINT64_C(1) << DEMO_FRAC_LOG) - 1;
  if (r->maxdeg > 0 && DEMO_EXACT_LIMIT / r->maxdeg < r->kmax) r->kmax = r->exact ? DEMO_EXACT_LIMIT / r->maxdeg : 1;
  for (GrB_Index i = 0; i < n; i++) {
    x[i] = ldexpf((float)((i * 2654435761u) % (r->kmax + 1)), -DEMO_FRAC_LOG);
    DEMO_TRY("creating the vectors", GrB_Vector_setElement_FP32(xv, x[i], i));
  }
  r->repeatable = true;
  for (int left = 0; left < 2; left++) {
    for (int k = 0; k <= DEMO_REPS; k++) {
      float *out = k == 0 ? y : y2;
      double t0 = k2_cli_now();
      if (left)
        DEMO_TRY("the left product on the tree", K2_dense_vxm(out, x, g->A, K2_PLUS_TIMES, GrB_FP32));
      else
        DEMO_TRY("the right product on the tree", K2_dense_mxv(out, g->A, x, K2_PLUS_TIMES, GrB_FP32));
      double t = k2_cli_now() - t0;
      if (k == 0) {
        r->tk2[left][0] = t, r->tk2[left][1] = INFINITY;
        if (!left) r->eng = K2_last_engine();
      } else {
        r->tk2[left][1] = fmin(r->tk2[left][1], t);
        r->repeatable = r->repeatable && memcmp(y, y2, n * sizeof(float)) == 0;
      }
    }
    for (int k = 0; k <= DEMO_REPS; k++) {
      GrB_Vector_free(&w);
      DEMO_TRY("creating the vectors", GrB_Vector_new(&w, GrB_FP32, n));
      double t0 = k2_cli_now();
      if (left) {
        DEMO_TRY("the left product in SuiteSparse", GrB_vxm(w, NULL, NULL, GxB_PLUS_FIRST_FP32, xv, g->G, NULL));
        DEMO_TRY("the left product in SuiteSparse", GrB_wait(w, GrB_MATERIALIZE));
      } else {
        DEMO_TRY("the right product in SuiteSparse", GrB_mxv(w, NULL, NULL, GxB_PLUS_SECOND_FP32, g->G, xv, NULL));
        DEMO_TRY("the right product in SuiteSparse", GrB_wait(w, GrB_MATERIALIZE));
      }
      double t = k2_cli_now() - t0;
      if (k == 0) r->tgrb[left][0] = t, r->tgrb[left][1] = INFINITY;
      else r->tgrb[left][1] = fmin(r->tgrb[left][1], t);
    }
    r->bad[left] = demo_mismatches(y, w, n, &r->first_bad[left]);
  }
done:
  free(x);
  free(y);
  free(y2);
  GrB_free(&xv);
  GrB_free(&w);
  return rc;
}

// BFS, levels and parents, on both storages: levels identical, parents of the tree valid.
static int demo_bfs(demo_result *r, const demo_graph *g) {
  int rc = 0;
  char msg[K2_MSG_LEN];
  GrB_Vector lk = NULL, pk = NULL, lg = NULL, pg = NULL;
  int64_t *a = NULL, *b = NULL, *par = NULL;
  GrB_Index n = r->n, src = r->src;
  double t0 = k2_cli_now();
  DEMO_ALG(K2_bfs_k2(&lk, &pk, g->A, src, msg));
  r->tbk = k2_cli_now() - t0;
  r->beng = K2_last_engine();
  t0 = k2_cli_now();
  DEMO_ALG(K2_bfs_grb(&lg, &pg, g->G, src, msg));
  r->tbg = k2_cli_now() - t0;
  a = k2_cli_dense_i64(lk, n, -1), b = k2_cli_dense_i64(lg, n, -1), par = k2_cli_dense_i64(pk, n, -1);
  r->bfs_same = a && b && par, r->bfs_valid = r->bfs_same;
  r->reached = 0, r->depth = 0;
  for (GrB_Index i = 0; r->bfs_same && i < n; i++) r->bfs_same = a[i] == b[i];
  for (GrB_Index i = 0; r->bfs_valid && i < n; i++) {
    if (a[i] < 0) continue;
    r->reached++;
    if (a[i] > r->depth) r->depth = a[i];
    bool edge = false;
    r->bfs_valid = (i == src) ? par[i] == (int64_t)i
                              : (par[i] >= 0 && K2_Matrix_isEntry(&edge, g->A, (GrB_Index)par[i], i) == GrB_SUCCESS &&
                                 edge && a[par[i]] == a[i] - 1);
  }
done:
  free(a), free(b), free(par);
  GrB_free(&lk), GrB_free(&pk), GrB_free(&lg), GrB_free(&pg);
  return rc;
}

// PageRank (LAGr_PageRank: damping 0.85, tol 1e-4, at most 100 iterations) on both storages;
// they agree on the iteration count and within K2_CLI_PAGERANK_AGREE.
static int demo_pagerank(demo_result *r, const demo_graph *g) {
  int rc = 0;
  char msg[K2_MSG_LEN];
  GrB_Vector rk = NULL, rg = NULL;
  double *rx = NULL, *ry = NULL;
  double t0 = k2_cli_now();
  DEMO_ALG(K2_pagerank_k2(&rk, &r->itk, g->A, 0.85f, 1e-4f, 100, msg));
  r->tpk = k2_cli_now() - t0;
  r->peng = K2_last_engine();
  t0 = k2_cli_now();
  DEMO_ALG(K2_pagerank_grb(&rg, &r->itg, g->G, 0.85f, 1e-4f, 100, msg));
  r->tpg = k2_cli_now() - t0;
  rx = k2_cli_dense_f64(rk, r->n, 0), ry = k2_cli_dense_f64(rg, r->n, 0);
  r->pdiff = INFINITY;
  if (rx && ry) {
    r->pdiff = 0;
    for (GrB_Index i = 0; i < r->n; i++) r->pdiff = fmax(r->pdiff, fabs(rx[i] - ry[i]));
  }
done:
  free(rx), free(ry);
  GrB_free(&rk), GrB_free(&rg);
  return rc;
}

// One graph's section: generate, build both storages, upload the tree (GPU), products, BFS,
// PageRank, the verdict. Returns 0 or the exit code of a failure (its line printed).
static int demo_section(demo_result *r, bool web, const demo_device *dev) {
  memset(r, 0, sizeof *r);
  r->web = web;
  K2_Edges E = {0};
  demo_graph g = {0};
  int rc = demo_generate(r, &E, web);
  if (rc == 0) rc = demo_build(r, &g, &E);
  if (rc == 0 && dev->gpu) {
    // the upload on its own, so that the first product's time does not include it
    double t0 = k2_cli_now();
    DEMO_TRY("uploading the tree to the GPU", K2_Matrix_upload(g.A, K2_DEVICE_AUTO));
    r->tupload = k2_cli_now() - t0;
  }
  if (rc == 0) rc = demo_products(r, &g);
  if (rc == 0) rc = demo_bfs(r, &g);
  if (rc == 0) rc = demo_pagerank(r, &g);
  if (rc == 0) {
    bool prod_ok = r->repeatable && r->bad[0] == 0 && r->bad[1] == 0;
    r->ok = (!r->exact || prod_ok) && r->bfs_same && r->bfs_valid && r->itk == r->itg && r->pdiff <= K2_CLI_PAGERANK_AGREE;
  }
done:
  K2_Edges_free(&E);
  demo_graph_free(&g);
  return rc;
}

// The verdict on one product, in words.
static const char *demo_product_verdict(const demo_result *r, int left, char *buf, size_t cap) {
  if (r->bad[left] > r->n)
    snprintf(buf, cap, "SuiteSparse result unreadable");
  else if (r->bad[left] > 0)
    snprintf(buf, cap, "DIFFER at %llu entries (first %llu)", (unsigned long long)r->bad[left],
             (unsigned long long)r->first_bad[left]);
  else
    snprintf(buf, cap, "%s", r->exact ? "identical" : "equal (not a proof: see above)");
  return buf;
}

// A number in JSON (null when not finite).
static void demo_json_num(const char *key, const char *fmt, double v) {
  printf(", \"%s\": ", key);
  if (isfinite(v)) printf(fmt, v);
  else printf("null");
}

static void demo_json_bool(const char *key, bool v) { printf(", \"%s\": %s", key, v ? "true" : "false"); }

// One section: as text (the table users read), or as one JSON object (the same figures).
static void demo_print(const demo_result *r, const demo_device *dev, bool json) {
  static const char *const prod_name[2] = {"y = A x (plus-times FP32)", "y' = x' A"};
  static const char *const prod_key[2] = {"right", "left"};
  char verdict[96];
  if (json) {
    printf("{\"graph\": \"%s\", \"title\": ", r->web ? "web" : "rmat");
    k2_cli_json_string(stdout, r->title);
    demo_json_num("generate_seconds", "%.6f", r->tgen);
    printf(", \"nodes\": %llu, \"edges\": %llu", (unsigned long long)r->n, (unsigned long long)r->nv);
    demo_json_num("build_seconds", "%.6f", r->tbuild);
    printf(", \"bytes_k2\": %llu", (unsigned long long)r->tree);
    demo_json_num("bits_per_edge", "%.3f", 8.0 * (double)r->tree / (double)(r->nv ? r->nv : 1));
    printf(", \"bytes_csr_fp32\": %llu, \"bytes_csr_bool\": %llu", (unsigned long long)r->csr,
           (unsigned long long)r->bcsr);
    demo_json_num("upload_seconds", "%.6f", dev->gpu ? r->tupload : NAN);
    printf(", \"products\": {\"exact\": %s, \"kmax\": %llu, \"max_degree\": %llu", r->exact ? "true" : "false",
           (unsigned long long)r->kmax, (unsigned long long)r->maxdeg);
    demo_json_bool("repeats_identical", r->repeatable);
    for (int left = 0; left < 2; left++) {
      printf(", \"%s\": {\"verdict\": ", prod_key[left]);
      k2_cli_json_string(stdout, demo_product_verdict(r, left, verdict, sizeof verdict));
      printf(", \"mismatches\": %llu", (unsigned long long)(r->bad[left] > r->n ? r->n : r->bad[left]));
      demo_json_num("first_seconds", "%.6f", r->tk2[left][0]);
      demo_json_num("best_seconds", "%.6f", r->tk2[left][1]);
      demo_json_num("suitesparse_first_seconds", "%.6f", r->tgrb[left][0]);
      demo_json_num("suitesparse_best_seconds", "%.6f", r->tgrb[left][1]);
      printf(", \"best_of\": %d}", DEMO_REPS);
    }
    printf(", \"engine\": \"%s\"}", K2_engine_name(r->eng));
    printf(", \"bfs\": {\"source\": %llu, \"reached\": %llu, \"depth\": %lld", (unsigned long long)r->src,
           (unsigned long long)r->reached, (long long)r->depth);
    demo_json_num("seconds", "%.6f", r->tbk);
    demo_json_num("suitesparse_seconds", "%.6f", r->tbg);
    demo_json_bool("levels_identical", r->bfs_same);
    demo_json_bool("parents_valid", r->bfs_valid);
    printf(", \"engine\": \"%s\"}", K2_engine_name(r->beng));
    printf(", \"pagerank\": {\"model\": \"lagraph\", \"damping\": 0.85, \"tol\": 1e-4, \"iterations\": %d, "
           "\"suitesparse_iterations\": %d", r->itk, r->itg);
    demo_json_num("seconds", "%.6f", r->tpk);
    demo_json_num("suitesparse_seconds", "%.6f", r->tpg);
    demo_json_num("max_abs_diff", "%.3e", r->pdiff);
    printf(", \"engine\": \"%s\"}", K2_engine_name(r->peng));
    printf(", \"engine\": \"%s\"", K2_engine_name(r->eng));
    demo_json_bool("check_passed", r->ok);
    printf("}");
    return;
  }
  double nv = (double)(r->nv ? r->nv : 1), tree = (double)(r->tree ? r->tree : 1);
  printf("k2grb demo: %s (generated in %.2f s)\n", r->title, r->tgen);
  printf("  %-28s %14llu\n", "nodes", (unsigned long long)r->n);
  printf("  %-28s %14llu\n", "edges (distinct)", (unsigned long long)r->nv);
  printf("  %-28s %14.2f s  (%.1f M edges/s)\n", "tree build", r->tbuild, nv / r->tbuild / 1e6);
  printf("  %-28s %14llu B  (%.2f bits/edge)\n", "k2-tree (tree+dir+top)", (unsigned long long)r->tree,
         8.0 * tree / nv);
  printf("  %-28s %14llu B  (tree is %.2fx smaller)\n", "CSR with FP32 values", (unsigned long long)r->csr,
         (double)r->csr / tree);
  printf("  %-28s %14llu B  (tree is %.2fx smaller)\n", "Boolean CSR", (unsigned long long)r->bcsr,
         (double)r->bcsr / tree);
  if (dev->gpu) printf("  %-28s %11.2f ms  (before the products)\n", "tree upload to the GPU", 1e3 * r->tupload);
  for (int left = 0; left < 2; left++) {
    printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  first call\n", prod_name[left], 1e3 * r->tk2[left][0],
           1e3 * r->tgrb[left][0]);
    printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  best of %d more; %s\n", "", 1e3 * r->tk2[left][1],
           1e3 * r->tgrb[left][1], DEMO_REPS, demo_product_verdict(r, left, verdict, sizeof verdict));
  }
  if (r->exact)
    printf("  %-28s x = k / 2^%d, k <= %llu, max degree %llu: every partial sum exact in FP32,\n"
           "  %-28s so both products must equal SuiteSparse's exactly (%s)\n", "products checked",
           DEMO_FRAC_LOG, (unsigned long long)r->kmax, (unsigned long long)r->maxdeg, "",
           r->repeatable ? "and every repeat the first" : "REPEATS DIFFER");
  else
    printf("  %-28s NOT checked: max degree %llu exceeds 2^24, no FP32 input makes the sums exact\n",
           "products", (unsigned long long)r->maxdeg);
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  levels %s, parents %s\n", "BFS (levels + parents)",
         1e3 * r->tbk, 1e3 * r->tbg, r->bfs_same ? "identical" : "DIFFER", r->bfs_valid ? "valid" : "INVALID");
  printf("  %-28s %14s  from vertex %llu: %llu reached, depth %lld\n", "", "", (unsigned long long)r->src,
         (unsigned long long)r->reached, (long long)r->depth);
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  %d / %d iterations, max |diff| %.1e\n",
         "PageRank (LAGraph, 1e-4)", 1e3 * r->tpk, 1e3 * r->tpg, r->itk, r->itg, r->pdiff);
  printf("  %-28s %14s  (BFS %s, PageRank %s)\n", "engine", K2_engine_name(r->eng), K2_engine_name(r->beng),
         K2_engine_name(r->peng));
  printf("  %-28s %14s%s\n", "agreement with SuiteSparse", r->ok ? "yes" : "NO",
         r->exact ? "" : "  (products not checked)");
  fflush(stdout);
}

// Where the products will run. With a GPU, the first K2_Device_available is timed: it starts
// the CUDA runtime and creates the context and the engine's stream, the one-time cost that a
// first product would otherwise include. Not called for the CPU engines: no context for them.
static void demo_find_device(demo_device *dev) {
  memset(dev, 0, sizeof *dev);
  if (demo_cli.engine != K2_ENGINE_AUTO && demo_cli.engine != K2_ENGINE_CUDA) {
    snprintf(dev->why, sizeof dev->why, "--engine %s", demo_cli.engine_word);
    return;
  }
  bool present = false;
  double t0 = k2_cli_now();
  GrB_Info info = K2_Device_available(&present);
  dev->tinit = k2_cli_now() - t0;
  dev->gpu = info == GrB_SUCCESS && present;
  if (!dev->gpu) snprintf(dev->why, sizeof dev->why, "no CUDA device: none found, or built without CUDA");
}

int k2grb_demo(int argc, char **argv) {
  int rc = k2_cli_parse(&demo_cli, "demo", "--scale --edge-factor --seed --engine --threads --graph --json", 0, 0,
                        demo_usage, argc, argv);
  if (rc >= 0) return rc;
  GrB_Info info = K2_init();
  if (info != GrB_SUCCESS) return k2_cli_fail(&demo_cli, K2_CLI_FAIL, info, K2_error_string(), "initialising");
  double t0 = k2_cli_now();
  demo_device dev;
  demo_find_device(&dev);  // before k2_cli_setup, whose check of a CUDA device would pay the cost
  if ((rc = k2_cli_setup(&demo_cli)) != 0) {
    K2_finalize();
    return rc;
  }
  bool json = demo_cli.json;
  if (!json && dev.gpu)
    printf("k2grb demo: CUDA device initialised in %.1f ms (the first call, which creates the context); each\n"
           "  tree is uploaded before its products, so their first calls time the products alone\n",
           1e3 * dev.tinit);
  else if (!json)
    printf("k2grb demo: the products run on the CPU (%s)\n", dev.why);
  // R-MAT first, then the web-like graph: worst case, then best case
  bool want[2] = {strcmp(demo_cli.graph, "web") != 0, strcmp(demo_cli.graph, "rmat") != 0};
  demo_result res[2];
  int nres = 0;
  bool all_ok = true;
  for (int web = 0; web < 2 && rc == 0; web++) {
    if (!want[web]) continue;
    if (!json && nres > 0) printf("\n");
    rc = demo_section(&res[nres], web, &dev);
    if (rc != 0) break;
    all_ok = all_ok && res[nres].ok;
    if (!json) demo_print(&res[nres], &dev, false);
    nres++;
  }
  if (rc == 0 && json) {
    printf("{\"command\": \"demo\", \"device\": {\"gpu\": %s, \"products_on\": \"%s\"", dev.gpu ? "true" : "false",
           dev.gpu ? "gpu" : "cpu");
    demo_json_num("init_seconds", "%.6f", dev.gpu ? dev.tinit : NAN);
    printf(", \"note\": ");
    k2_cli_json_string(stdout, dev.gpu ? "trees uploaded before their products" : dev.why);
    printf("}, \"graphs\": [");
    for (int k = 0; k < nres; k++) {
      printf("%s", k ? ",\n  " : "\n  ");
      demo_print(&res[k], &dev, true);
    }
    printf("]");
  }
  if (rc == 0) {
    // the keys every command ends with: as lines after the sections, or the JSON's last items
    k2_cli_report tail = {0};
    k2_cli_rep_num(&tail, "seconds", "%.3f", k2_cli_now() - t0);
    k2_cli_rep_str(&tail, "engine_requested", "%s", demo_cli.engine_word);
    k2_cli_rep_raw(&tail, "check_passed", all_ok ? "yes" : "NO", all_ok ? "true" : "false");
    k2_cli_rep_tail(&tail);
    if (json) {
      k2_cli_rep_print_items(&tail);
      printf("}\n");
    } else {
      printf("\n");
      k2_cli_rep_print(&demo_cli, &tail);
    }
  }
  K2_finalize();
  if (rc != 0) return rc;
  return all_ok ? 0 : 1;
}
