// k2grb_demo.c: `k2grb demo`, the main job: generate a Graph500 R-MAT graph, build its
// k²-tree, compare its size with a CSR, run right and left products, a BFS and PageRank on the
// best engine present and check them against SuiteSparse:GraphBLAS on a CSR.
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <k2grb.h>

#include "k2grb_algorithms.h"
#include "k2grb_cli.h"

static double demo_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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

static const char demo_usage[] =
    "usage: k2grb demo [--scale S] [--edge-factor E] [--seed N] [--engine E] [--threads N]\n"
    "Generates a Graph500 R-MAT graph (scale 20, edge factor 16 unless told), builds its\n"
    "k2-tree, runs right and left products, a BFS (levels and parents) and PageRank\n"
    "(LAGraph's model, tol 1e-4) on the best engine present, and checks every result against\n"
    "SuiteSparse:GraphBLAS on a CSR of the same graph.\n"
    "  --scale S        2^S vertices, 1 to 30 (20)\n"
    "  --edge-factor E  edges per vertex (16)\n"
    "  --seed N         generator seed (1)\n"
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

int k2grb_demo(int argc, char **argv) {
  int rc = k2_cli_parse(&demo_cli, "demo", "--scale --edge-factor --seed --engine --threads", 0, 0, demo_usage,
                        argc, argv);
  if (rc >= 0) return rc;
  unsigned scale = demo_cli.scale;
  double ef = demo_cli.edge_factor;
  unsigned long long seed = demo_cli.seed;
  GrB_Info info = K2_init();
  if (info != GrB_SUCCESS) return k2_cli_fail(&demo_cli, K2_CLI_FAIL, info, K2_error_string(), "initialising");
  if ((rc = k2_cli_setup(&demo_cli)) != 0) {
    K2_finalize();
    return rc;
  }
  // everything the demo allocates, freed at the end whatever happens (a failure jumps there)
  rc = K2_CLI_FAIL;
  K2_Edges E = {0};
  K2_Matrix A = NULL;
  GrB_Matrix G = NULL;
  GrB_Scalar one = NULL;
  GrB_Vector xv = NULL, w = NULL, lk = NULL, pk = NULL, lg = NULL, pg = NULL, rk = NULL, rg = NULL;
  GrB_Index *I = NULL, *J = NULL;
  float *x = NULL, *y = NULL, *y2 = NULL;
  char msg[K2_MSG_LEN];
  K2_RmatParams p;
  K2_RmatParams_default(&p, scale);
  p.edge_factor = ef;
  p.seed = seed;
  double t0 = demo_now();
  DEMO_TRY("generating the R-MAT graph", K2_Gen_rmat(&E, &p));
  double tgen = demo_now() - t0;
  DEMO_TRY("creating the tree", K2_Matrix_new(&A, E.nrows, E.ncols));
  t0 = demo_now();
  DEMO_TRY("building the tree", K2_Matrix_build_32(A, E.I, E.J, E.nvals));
  double tbuild = demo_now() - t0;
  GrB_Index n = E.nrows, nv;
  GrB_Index src = E.nvals ? E.I[0] : 0;  // a vertex with an out-edge
  DEMO_TRY("counting the edges", K2_Matrix_nvals(&nv, A));
  K2_MemoryUsage u;
  DEMO_TRY("measuring the tree", K2_Matrix_memoryUsage(&u, A));
  uint64_t tree = u.tree + u.directory + u.top;

  // the same graph as a SuiteSparse CSR (iso Boolean, by row)
  DEMO_TRY("building the SuiteSparse matrix", GrB_Matrix_new(&G, GrB_BOOL, n, n));
  GrB_Index m = E.nvals;
  I = malloc((m + 1) * sizeof(GrB_Index));
  J = malloc((m + 1) * sizeof(GrB_Index));
  if (I == NULL || J == NULL) {
    rc = k2_cli_error(&demo_cli, K2_CLI_FAIL, "out of memory for %llu edges", (unsigned long long)m);
    goto done;
  }
  for (GrB_Index k = 0; k < E.nvals; k++) {
    I[k] = E.I[k];
    J[k] = E.J[k];
  }
  // the maximum degree, rows and columns (duplicate edges counted: an upper bound)
  uint64_t maxdeg = 0;
  {
    uint32_t *deg = malloc((n + 1) * sizeof(uint32_t));
    if (deg == NULL) {
      rc = k2_cli_error(&demo_cli, K2_CLI_FAIL, "out of memory for the degrees of %llu nodes",
                        (unsigned long long)n);
      goto done;
    }
    for (int side = 0; side < 2; side++) {
      const uint32_t *V = side == 0 ? E.I : E.J;
      memset(deg, 0, n * sizeof(uint32_t));
      for (GrB_Index k = 0; k < E.nvals; k++) deg[V[k]] += deg[V[k]] != UINT32_MAX;
      for (GrB_Index i = 0; i < n; i++) maxdeg = deg[i] > maxdeg ? deg[i] : maxdeg;
    }
    free(deg);
  }
  K2_Edges_free(&E);
  DEMO_TRY("building the SuiteSparse matrix", GrB_Scalar_new(&one, GrB_BOOL));
  DEMO_TRY("building the SuiteSparse matrix", GrB_Scalar_setElement_BOOL(one, true));
  DEMO_TRY("building the SuiteSparse matrix", GxB_Matrix_build_Scalar(G, I, J, one, m));
  free(I), I = NULL;
  free(J), J = NULL;
  GrB_Scalar_free(&one);
  DEMO_TRY("building the SuiteSparse matrix", GrB_wait(G, GrB_MATERIALIZE));

  x = malloc(n * sizeof(float));
  y = malloc(n * sizeof(float));
  if (x == NULL || y == NULL) {
    rc = k2_cli_error(&demo_cli, K2_CLI_FAIL, "out of memory for vectors of %llu entries", (unsigned long long)n);
    goto done;
  }
  DEMO_TRY("creating the vectors", GrB_Vector_new(&xv, GrB_FP32, n));
  // x_j = k_j / 2^10, 0 <= k_j <= kmax: every partial sum of a product exact in FP32 (above)
  bool exact = maxdeg <= DEMO_EXACT_LIMIT;
  uint64_t kmax = (UINT64_C(1) << DEMO_FRAC_LOG) - 1;
  if (maxdeg > 0 && DEMO_EXACT_LIMIT / maxdeg < kmax) kmax = exact ? DEMO_EXACT_LIMIT / maxdeg : 1;
  for (GrB_Index i = 0; i < n; i++) {
    x[i] = ldexpf((float)((i * 2654435761u) % (kmax + 1)), -DEMO_FRAC_LOG);
    DEMO_TRY("creating the vectors", GrB_Vector_setElement_FP32(xv, x[i], i));
  }
  // each product: the first call (which may include one-time setup: engine start, device
  // upload, caches) apart from the best of DEMO_REPS more; every call must give the same result
  double tk2[2][2], tgrb[2][2];  // [right, left][first, best]
  GrB_Index bad[2], first_bad[2];
  K2_Engine eng = K2_ENGINE_AUTO;
  bool repeatable = true;
  y2 = malloc(n * sizeof(float));
  if (y2 == NULL) {
    rc = k2_cli_error(&demo_cli, K2_CLI_FAIL, "out of memory for vectors of %llu entries", (unsigned long long)n);
    goto done;
  }
  for (int left = 0; left < 2; left++) {
    for (int r = 0; r <= DEMO_REPS; r++) {
      float *out = r == 0 ? y : y2;
      t0 = demo_now();
      if (left)
        DEMO_TRY("the left product on the tree", K2_dense_vxm(out, x, A, K2_PLUS_TIMES, GrB_FP32));
      else
        DEMO_TRY("the right product on the tree", K2_dense_mxv(out, A, x, K2_PLUS_TIMES, GrB_FP32));
      double t = demo_now() - t0;
      if (r == 0) {
        tk2[left][0] = t, tk2[left][1] = INFINITY;
        if (!left) eng = K2_last_engine();
      } else {
        tk2[left][1] = fmin(tk2[left][1], t);
        repeatable = repeatable && memcmp(y, y2, n * sizeof(float)) == 0;
      }
    }
    for (int r = 0; r <= DEMO_REPS; r++) {
      GrB_Vector_free(&w);
      DEMO_TRY("creating the vectors", GrB_Vector_new(&w, GrB_FP32, n));
      t0 = demo_now();
      if (left) {
        DEMO_TRY("the left product in SuiteSparse", GrB_vxm(w, NULL, NULL, GxB_PLUS_FIRST_FP32, xv, G, NULL));
        DEMO_TRY("the left product in SuiteSparse", GrB_wait(w, GrB_MATERIALIZE));
      } else {
        DEMO_TRY("the right product in SuiteSparse", GrB_mxv(w, NULL, NULL, GxB_PLUS_SECOND_FP32, G, xv, NULL));
        DEMO_TRY("the right product in SuiteSparse", GrB_wait(w, GrB_MATERIALIZE));
      }
      double t = demo_now() - t0;
      if (r == 0) tgrb[left][0] = t, tgrb[left][1] = INFINITY;
      else tgrb[left][1] = fmin(tgrb[left][1], t);
    }
    bad[left] = demo_mismatches(y, w, n, &first_bad[left]);
  }
  bool prod_ok = repeatable && bad[0] == 0 && bad[1] == 0;
  bool ok = !exact || prod_ok;

  // BFS, levels and parents, on both storages: levels identical, parents of the tree valid
  t0 = demo_now();
  DEMO_ALG(K2_bfs_k2(&lk, &pk, A, src, msg));
  double tbk = demo_now() - t0;
  K2_Engine beng = K2_last_engine();
  t0 = demo_now();
  DEMO_ALG(K2_bfs_grb(&lg, &pg, G, src, msg));
  double tbg = demo_now() - t0;
  int64_t *a = k2_cli_dense_i64(lk, n, -1), *b = k2_cli_dense_i64(lg, n, -1), *par = k2_cli_dense_i64(pk, n, -1);
  bool bfs_same = a && b && par, bfs_valid = bfs_same;
  GrB_Index reached = 0;
  int64_t depth = 0;
  for (GrB_Index i = 0; bfs_same && i < n; i++) bfs_same = a[i] == b[i];
  for (GrB_Index i = 0; bfs_valid && i < n; i++) {
    if (a[i] < 0) continue;
    reached++;
    if (a[i] > depth) depth = a[i];
    bool edge = false;
    bfs_valid = (i == src) ? par[i] == (int64_t)i
                           : (par[i] >= 0 && K2_Matrix_isEntry(&edge, A, (GrB_Index)par[i], i) == GrB_SUCCESS && edge &&
                              a[par[i]] == a[i] - 1);
  }
  free(a), free(b), free(par);
  GrB_free(&lk), GrB_free(&pk), GrB_free(&lg), GrB_free(&pg);

  // PageRank (LAGr_PageRank: damping 0.85, tol 1e-4, at most 100 iterations)
  int itk = 0, itg = 0;
  t0 = demo_now();
  DEMO_ALG(K2_pagerank_k2(&rk, &itk, A, 0.85f, 1e-4f, 100, msg));
  double tpk = demo_now() - t0;
  K2_Engine peng = K2_last_engine();
  t0 = demo_now();
  DEMO_ALG(K2_pagerank_grb(&rg, &itg, G, 0.85f, 1e-4f, 100, msg));
  double tpg = demo_now() - t0;
  double *rx = k2_cli_dense_f64(rk, n, 0), *ry = k2_cli_dense_f64(rg, n, 0), pdiff = INFINITY;
  if (rx && ry) {
    pdiff = 0;
    for (GrB_Index i = 0; i < n; i++) pdiff = fmax(pdiff, fabs(rx[i] - ry[i]));
  }
  free(rx), free(ry);
  GrB_free(&rk), GrB_free(&rg);
  bool pr_ok = itk == itg && pdiff <= 1e-6;
  ok = ok && bfs_same && bfs_valid && pr_ok;

  uint64_t csr = K2_csr_bytes(n, nv, true), bcsr = K2_csr_bytes(n, nv, false);
  printf("k2grb demo: R-MAT scale %u, edge factor %g, seed %llu (generated in %.2f s)\n", scale, ef, seed, tgen);
  printf("  %-28s %14llu\n", "nodes", (unsigned long long)n);
  printf("  %-28s %14llu\n", "edges (distinct)", (unsigned long long)nv);
  printf("  %-28s %14.2f s  (%.1f M edges/s)\n", "tree build", tbuild, (double)nv / tbuild / 1e6);
  printf("  %-28s %14llu B  (%.2f bits/edge)\n", "k2-tree (tree+dir+top)", (unsigned long long)tree,
         8.0 * (double)tree / (double)(nv ? nv : 1));
  printf("  %-28s %14llu B  (tree is %.2fx smaller)\n", "CSR with FP32 values", (unsigned long long)csr,
         (double)csr / (double)(tree ? tree : 1));
  printf("  %-28s %14llu B  (tree is %.2fx smaller)\n", "Boolean CSR", (unsigned long long)bcsr,
         (double)bcsr / (double)(tree ? tree : 1));
  static const char *const prod_name[2] = {"y = A x (plus-times FP32)", "y' = x' A"};
  for (int left = 0; left < 2; left++) {
    char verdict[96];
    if (bad[left] > n)
      snprintf(verdict, sizeof verdict, "SuiteSparse result unreadable");
    else if (bad[left] > 0)
      snprintf(verdict, sizeof verdict, "DIFFER at %llu entries (first %llu)", (unsigned long long)bad[left],
               (unsigned long long)first_bad[left]);
    else
      snprintf(verdict, sizeof verdict, "%s", exact ? "identical" : "equal (not a proof: see above)");
    printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  first call\n", prod_name[left], 1e3 * tk2[left][0],
           1e3 * tgrb[left][0]);
    printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  best of %d more; %s\n", "", 1e3 * tk2[left][1],
           1e3 * tgrb[left][1], DEMO_REPS, verdict);
  }
  if (exact)
    printf("  %-28s x = k / 2^%d, k <= %llu, max degree %llu: every partial sum exact in FP32,\n"
           "  %-28s so both products must equal SuiteSparse's exactly (%s)\n", "products checked",
           DEMO_FRAC_LOG, (unsigned long long)kmax, (unsigned long long)maxdeg, "",
           repeatable ? "and every repeat the first" : "REPEATS DIFFER");
  else
    printf("  %-28s NOT checked: max degree %llu exceeds 2^24, no FP32 input makes the sums exact\n",
           "products", (unsigned long long)maxdeg);
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  levels %s, parents %s\n", "BFS (levels + parents)",
         1e3 * tbk, 1e3 * tbg, bfs_same ? "identical" : "DIFFER", bfs_valid ? "valid" : "INVALID");
  printf("  %-28s %14s  from vertex %llu: %llu reached, depth %lld\n", "", "", (unsigned long long)src,
         (unsigned long long)reached, (long long)depth);
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  %d / %d iterations, max |diff| %.1e\n",
         "PageRank (LAGraph, 1e-4)", 1e3 * tpk, 1e3 * tpg, itk, itg, pdiff);
  printf("  %-28s %14s  (BFS %s, PageRank %s)\n", "engine", K2_engine_name(eng), K2_engine_name(beng),
         K2_engine_name(peng));
  printf("  %-28s %14s%s\n", "agreement with SuiteSparse", ok ? "yes" : "NO",
         exact ? "" : "  (products not checked)");
  rc = ok ? 0 : 1;
done:
  K2_Edges_free(&E);
  free(I);
  free(J);
  free(x);
  free(y);
  free(y2);
  GrB_Scalar_free(&one);
  GrB_free(&xv), GrB_free(&w);
  GrB_free(&lk), GrB_free(&pk), GrB_free(&lg), GrB_free(&pg), GrB_free(&rk), GrB_free(&rg);
  GrB_Matrix_free(&G);
  K2_Matrix_free(&A);
  K2_finalize();
  return rc;
}
