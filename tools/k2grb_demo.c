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

// Largest relative difference between y and the GrB_Vector w (absent entries are 0).
static double demo_diff(const float *y, GrB_Vector w, GrB_Index n) {
  float *v = calloc(n + 1, sizeof(float));
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index)), nv = n;
  float *X = malloc((n + 1) * sizeof(float));
  double worst = INFINITY;
  if (v && I && X && GrB_Vector_extractTuples_FP32(I, X, &nv, w) == GrB_SUCCESS) {
    for (GrB_Index k = 0; k < nv; k++) v[I[k]] = X[k];
    worst = 0;
    for (GrB_Index i = 0; i < n; i++) {
      double d = fabs((double)y[i] - (double)v[i]) / fmax(1.0, fabs((double)v[i]));
      if (d > worst) worst = d;
    }
  }
  free(v);
  free(I);
  free(X);
  return worst;
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
  float *x = NULL, *y = NULL;
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
  for (GrB_Index i = 0; i < n; i++) {
    x[i] = (float)((i * 2654435761u) % 1024) / 1024.0f;
    DEMO_TRY("creating the vectors", GrB_Vector_setElement_FP32(xv, x[i], i));
  }
  DEMO_TRY("creating the vectors", GrB_Vector_new(&w, GrB_FP32, n));
  t0 = demo_now();
  DEMO_TRY("the right product on the tree", K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32));
  double tk2r = demo_now() - t0;
  K2_Engine eng = K2_last_engine();
  t0 = demo_now();
  DEMO_TRY("the right product in SuiteSparse", GrB_mxv(w, NULL, NULL, GxB_PLUS_SECOND_FP32, G, xv, NULL));
  DEMO_TRY("the right product in SuiteSparse", GrB_wait(w, GrB_MATERIALIZE));
  double tgrbr = demo_now() - t0;
  double dr = demo_diff(y, w, n);
  t0 = demo_now();
  DEMO_TRY("the left product on the tree", K2_dense_vxm(y, x, A, K2_PLUS_TIMES, GrB_FP32));
  double tk2l = demo_now() - t0;
  GrB_Vector_free(&w);
  DEMO_TRY("creating the vectors", GrB_Vector_new(&w, GrB_FP32, n));
  t0 = demo_now();
  DEMO_TRY("the left product in SuiteSparse", GrB_vxm(w, NULL, NULL, GxB_PLUS_FIRST_FP32, xv, G, NULL));
  DEMO_TRY("the left product in SuiteSparse", GrB_wait(w, GrB_MATERIALIZE));
  double tgrbl = demo_now() - t0;
  double dl = demo_diff(y, w, n);
  bool ok = dr <= 1e-5 && dl <= 1e-5;

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
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  max rel diff %.1e\n", "y = A x (plus-times FP32)",
         1e3 * tk2r, 1e3 * tgrbr, dr);
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  max rel diff %.1e\n", "y' = x' A", 1e3 * tk2l,
         1e3 * tgrbl, dl);
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  levels %s, parents %s\n", "BFS (levels + parents)",
         1e3 * tbk, 1e3 * tbg, bfs_same ? "identical" : "DIFFER", bfs_valid ? "valid" : "INVALID");
  printf("  %-28s %14s  from vertex %llu: %llu reached, depth %lld\n", "", "", (unsigned long long)src,
         (unsigned long long)reached, (long long)depth);
  printf("  %-28s %11.2f ms  SuiteSparse %8.2f ms  %d / %d iterations, max |diff| %.1e\n",
         "PageRank (LAGraph, 1e-4)", 1e3 * tpk, 1e3 * tpg, itk, itg, pdiff);
  printf("  %-28s %14s  (BFS %s, PageRank %s)\n", "engine", K2_engine_name(eng), K2_engine_name(beng),
         K2_engine_name(peng));
  printf("  %-28s %14s\n", "agreement with SuiteSparse", ok ? "yes" : "NO");
  rc = ok ? 0 : 1;
done:
  K2_Edges_free(&E);
  free(I);
  free(J);
  free(x);
  free(y);
  GrB_Scalar_free(&one);
  GrB_free(&xv), GrB_free(&w);
  GrB_free(&lk), GrB_free(&pk), GrB_free(&lg), GrB_free(&pg), GrB_free(&rk), GrB_free(&rg);
  GrB_Matrix_free(&G);
  K2_Matrix_free(&A);
  K2_finalize();
  return rc;
}
