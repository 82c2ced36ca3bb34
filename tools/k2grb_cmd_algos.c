// k2grb_cmd_algos.c: `k2grb bfs | msbfs | pagerank | sssp | cc`: run an algorithm of
// algorithms/ on the tree of any graph file; --check runs it again on SuiteSparse (a CSR
// GrB_Matrix of the same pattern) and compares.
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "k2grb_algorithms.h"
#include "k2grb_cli.h"

#define K2_CLI_READ_OPTS \
  "--format --symmetrize --transpose --one-based --remap --engine --threads --trials --locality-order " \
  "--decoded-level"
#define K2_CLI_OUT_HELP                                                                       \
  "  --out F        write the result: one 'vertex value' line per vertex that has one, sorted\n" \
  "                 (the file's ids, 0-based unless --one-based; F = - for stdout)\n"
#define K2_CLI_COMMON_HELP                                                                    \
  "  --check        run again on SuiteSparse:GraphBLAS (a CSR) and compare (check_passed)\n"    \
  "  --json         print the summary as JSON\n"                                                \
  "  --trials N     run the algorithm N times: seconds is the best, seconds_median the median\n" \
  "  --engine E     auto (default), cpu, cuda or reference; default K2GRB_ENGINE. Without a\n"  \
  "                 CUDA device, cuda runs the products on the CPU (a note on stderr), or\n"     \
  "                 fails with K2GRB_STRICT=1\n"                                                 \
  "  --threads N    CPU threads (default OMP_NUM_THREADS, else every core)\n"                    \
  "  --format F, --symmetrize, --transpose: how to read FILE (any format: Matrix Market,\n"   \
  "                 edge list, METIS, BVGraph basename, .gz, .k2)\n"                              \
  "  --one-based    ids counted from 1 (--source, --sources and --out)\n"                         \
  "  --remap        the tree numbers the ids that occur densely; --source, --sources and\n"       \
  "                 --out use the file's ids\n"                                                   \
  "  --locality-order  run on a copy of the tree with the vertices renumbered in Cuthill-McKee\n" \
  "                 order, where that copy takes at most 3/4 of the tree's bytes (faster on\n"  \
  "                 graphs numbered without locality; made before the trials, timed apart);\n" \
  "                 the results keep the file's ids\n"                                            \
  "  --decoded-level  the CPU engine keeps the tree's last internal level decoded (8 bytes per\n" \
  "                 node of that level, made by the first trial, kept for the others): full\n"   \
  "                 products read it instead of the levels above\n"                              \
  "Options take their value as '--source 5' or '--source=5'; '--' ends the options.\n"

// The LDBC options, listed by the commands that take them (bfs, sssp, cc, pagerank).
#define K2_CLI_LDBC_HELP                                                                           \
  "  --ldbc         LDBC Graphalytics graph and result: FILE is <g>.e, the vertices come from\n"  \
  "                 <g>.v (or --vertices FILE), <g>.properties gives the direction and the\n"     \
  "                 defaults (source, damping, iterations); --out writes every vertex, 'id\n"     \
  "                 value' in increasing id order, as LDBC's outputs\n"                           \
  "  --vertices F   with --ldbc: the vertex file (one id a line)\n"

// What every algorithm command does first: options, init, load.
typedef struct {
  k2_cli_opts o;
  K2_Matrix A;
  K2_Graph graph;  // --locality-order: a graph that owns A (A borrows its matrix) and its order
  GrB_Matrix G;    // for --check
  GrB_Index n, nvals;
  double tload;
  double tinit, tupload;  // with a GPU: the CUDA context's creation and the tree's upload (else -1)
  double tstart;          // when the command began (elapsed_seconds: from here to the report)
  k2_cli_report r;
  bool disagree;  // --check found a difference
  char msg[K2_MSG_LEN];
  double times[K2_CLI_MAX_TRIALS];  // --trials
} k2_cli_run;

static int run_begin(k2_cli_run *R, const char *cmd, const char *allowed, const char *usage, int argc,
                     char **argv) {
  memset(R, 0, sizeof *R);
  R->tstart = k2_cli_now();
  int rc = k2_cli_parse(&R->o, cmd, allowed, 1, 1, usage, argc, argv);
  if (rc >= 0) return rc;
  if (R->o.vertices != NULL && !R->o.ldbc) return k2_cli_error(&R->o, K2_CLI_USAGE, "--vertices goes with --ldbc");
  if (R->o.ldbc) {
    if (R->o.out == NULL) {
      return k2_cli_error(&R->o, K2_CLI_USAGE, "--ldbc writes the result in LDBC's layout: give --out F (- for stdout)");
    }
    if ((rc = k2_cli_ldbc_prepare(&R->o)) != 0) return rc;
  }
  GrB_Info info = K2_init();
  if (info != GrB_SUCCESS) return k2_cli_fail(&R->o, K2_CLI_FAIL, info, K2_error_string(), "cannot initialise");
  // where a GPU may serve, its start (the CUDA context) is timed apart from everything else
  R->tinit = R->tupload = -1;
  bool present = false;
  if (R->o.engine == K2_ENGINE_AUTO || R->o.engine == K2_ENGINE_CUDA) {
    double t0 = k2_cli_now();
    if (K2_Device_available(&present) == GrB_SUCCESS && present) R->tinit = k2_cli_now() - t0;
  }
  if ((rc = k2_cli_setup(&R->o)) != 0 || (rc = k2_cli_load(&R->o, R->o.files[0], &R->A, &R->tload)) != 0) {
    K2_finalize();
    return rc;
  }
  // a matrix the GPU serves goes up once here, not inside the first trial
  bool serves = false;
  if (present && K2_Matrix_deviceServes(&serves, R->A) == GrB_SUCCESS && serves) {
    double t0 = k2_cli_now();
    if (K2_Matrix_upload(R->A, K2_DEVICE_AUTO) == GrB_SUCCESS) R->tupload = k2_cli_now() - t0;
  }
  K2_Matrix_nrows(&R->n, R->A);
  K2_Matrix_nvals(&R->nvals, R->A);
  double torder = -1;
  if (R->o.locality_order) {  // the graph takes A over; A stays its matrix, borrowed
    const K2_GraphKind kind = R->o.symmetrize ? K2_ADJACENCY_UNDIRECTED : K2_ADJACENCY_DIRECTED;
    double t0 = k2_cli_now();
    info = K2_Graph_new(&R->graph, &R->A, kind, R->msg);
    if (info == GrB_SUCCESS) {
      R->A = R->graph->K;
      info = K2_Graph_cachedLocalityOrder(R->graph, R->msg);
    }
    if (info != GrB_SUCCESS) {
      char words[K2_MSG_LEN + 64];
      rc = k2_cli_fail(&R->o, K2_CLI_FAIL, info, NULL, "%s", k2_cli_alg_words(R->msg, words, sizeof words));
      if (R->graph != NULL) R->A = NULL;
      K2_Graph_free(&R->graph, NULL);
      K2_Matrix_free(&R->A);
      K2_finalize();
      return rc;
    }
    torder = k2_cli_now() - t0;
  }
  if (R->o.decoded_level) {  // a request: the first product that reads the level makes it
    K2_Matrix_setDecodedLevel(R->A, true);
    if (R->graph != NULL && R->graph->ordered != NULL) K2_Matrix_setDecodedLevel(R->graph->ordered->K, true);
  }
  if (R->o.check && (info = K2_Matrix_toGrB(&R->G, R->A, NULL)) != GrB_SUCCESS) {
    rc = k2_cli_fail(&R->o, K2_CLI_FAIL, info, K2_error_string(), "cannot build the SuiteSparse matrix");
    K2_Matrix_free(&R->A);
    K2_finalize();
    return rc;
  }
  k2_cli_rep_str(&R->r, "command", "%s", cmd);
  k2_cli_rep_str(&R->r, "file", "%s", R->o.files[0]);
  k2_cli_rep_num(&R->r, "nodes", "%llu", (unsigned long long)R->n);
  k2_cli_rep_num(&R->r, "edges", "%llu", (unsigned long long)R->nvals);
  k2_cli_rep_num(&R->r, "read_build_seconds", "%.3f", R->tload);
  if (R->tinit >= 0) k2_cli_rep_num(&R->r, "device_init_seconds", "%.6f", R->tinit);
  if (R->tupload >= 0) k2_cli_rep_num(&R->r, "upload_seconds", "%.6f", R->tupload);
  if (R->o.locality_order) {
    K2_MemoryUsage was, now;
    char what[96] = "not kept (the renumbered tree was not 3/4 of the size or less)";
    if (R->graph->ordered != NULL && K2_Matrix_memoryUsage(&was, R->A) == GrB_SUCCESS &&
        K2_Matrix_memoryUsage(&now, R->graph->ordered->K) == GrB_SUCCESS) {
      snprintf(what, sizeof what, "kept: tree %llu -> %llu bytes", (unsigned long long)was.tree,
               (unsigned long long)now.tree);
    }
    k2_cli_rep_str(&R->r, "locality_order", "%s", what);
    k2_cli_rep_num(&R->r, "locality_order_seconds", "%.6f", torder);
  }
  if (R->o.decoded_level) k2_cli_rep_str(&R->r, "decoded_level", "%s", "asked");
  if (R->o.ldbc) {
    k2_cli_rep_str(&R->r, "vertices_file", "%s", R->o.ldbc_vpath);
    k2_cli_rep_raw(&R->r, "directed", R->o.symmetrize ? "no (symmetrized)" : "yes",
                   R->o.symmetrize ? "false" : "true");
  }
  return -1;
}

// The time keys: seconds (the best of the trials), seconds_median, trials; then the engine.
static void run_report_time(k2_cli_run *R, int trials, const char *engine) {
  double best, median;
  k2_cli_best_median(R->times, trials, &best, &median);
  k2_cli_rep_num(&R->r, "seconds", "%.6f", best);
  k2_cli_rep_num(&R->r, "seconds_median", "%.6f", median);
  k2_cli_rep_num(&R->r, "trials", "%d", trials);
  k2_cli_rep_str(&R->r, "engine", "%s", engine);
  k2_cli_rep_str(&R->r, "engine_requested", "%s", R->o.engine_word);
}

// The verdict of --check, the same key in every command.
static void run_report_check(k2_cli_run *R, bool passed) {
  k2_cli_rep_raw(&R->r, "check_passed", passed ? "yes" : "NO", passed ? "true" : "false");
}

// Prints the report after success or a --check disagreement (the numbers show it), not
// after an error (its one line is on stderr).
static int run_end(k2_cli_run *R, int rc) {
  if (rc == 0 || R->disagree) {
    // everything so far: parsing, initialisation, reading, the trials and writing --out
    k2_cli_rep_num(&R->r, "elapsed_seconds", "%.6f", k2_cli_now() - R->tstart);
    k2_cli_rep_tail(&R->r);
    k2_cli_rep_print(&R->o, &R->r);
  }
  for (int i = 0; i < R->r.n; i++) free(R->r.item[i].json);
  GrB_Matrix_free(&R->G);
  if (R->graph != NULL) R->A = NULL;  // (the graph's)
  K2_Graph_free(&R->graph, NULL);
  K2_Matrix_free(&R->A);
  K2_finalize();
  return rc;
}

// The vertex of a source id (the file's id with --remap, counted from 1 with --one-based).
static int run_check_source(k2_cli_run *R, unsigned long long s, GrB_Index *v) {
  if (!k2_cli_vertex(&R->o, s, v) || *v >= R->n) {
    if (R->o.remap) {
      return k2_cli_error(&R->o, K2_CLI_USAGE, "source %llu is not an id of the file (--remap: the ids in %s)", s,
                          R->o.files[0]);
    }
    if (R->n == 0) return k2_cli_error(&R->o, K2_CLI_USAGE, "source %llu out of range (the graph has no vertices)", s);
    return k2_cli_error(&R->o, K2_CLI_USAGE, "source %llu out of range (the graph has %llu vertices, ids %d to %llu)",
                        s, (unsigned long long)R->n, R->o.one_based ? 1 : 0,
                        (unsigned long long)R->n - (R->o.one_based ? 0 : 1));
  }
  return 0;
}

// The report lines shared by single-source commands: source, vertices reached, the largest value
// (`max_key`), times and engine.
static void run_report_source(k2_cli_run *R, GrB_Vector v, const char *max_key, int trials,
                              const char *engine) {
  GrB_Index reached = 0;
  int64_t max = 0;
  GrB_Vector_nvals(&reached, v);
  GrB_reduce(&max, NULL, GrB_MAX_MONOID_INT64, v, NULL);
  k2_cli_rep_num(&R->r, "source", "%llu", R->o.source);
  k2_cli_rep_num(&R->r, "reached", "%llu", (unsigned long long)reached);
  k2_cli_rep_num(&R->r, max_key, "%lld", (long long)max);
  run_report_time(R, trials, engine);
}

// The algorithm's message says what failed and the library's message (its function's name put
// in words); the code follows by name.
static int run_alg_error(k2_cli_run *R, GrB_Info info) {
  char words[K2_MSG_LEN + 64];
  return k2_cli_fail(&R->o, K2_CLI_FAIL, info, NULL, "%s",
                     R->msg[0] ? k2_cli_alg_words(R->msg, words, sizeof words) : "the algorithm failed");
}

//==============================================================================================
// bfs
//==============================================================================================

int k2grb_bfs(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb bfs FILE --source S [--parents] [--mode auto|push|pull] [--out F] [options]\n"
      "Breadth-first search from S (LAGraph semantics: level of S is 0, parent of S is S,\n"
      "unreached vertices have no entry), direction-optimizing on the tree.\n"
      "  --source S     source vertex (0-based unless --one-based; a file id with --remap)\n"
      "  --parents      --out writes 'vertex parent' instead of 'vertex level'\n"
      "  --mode M       auto (push/pull switch as LAGraph), push, pull\n" K2_CLI_OUT_HELP K2_CLI_LDBC_HELP K2_CLI_COMMON_HELP;
  k2_cli_run R;
  int rc = run_begin(&R, "bfs", K2_CLI_READ_OPTS " --source --parents --mode --out --check --json --ldbc --vertices",
                     usage, argc, argv);
  if (rc >= 0) return rc;
  if (R.o.ldbc && R.o.parents) {
    return run_end(&R, k2_cli_error(&R.o, K2_CLI_USAGE, "--ldbc writes levels (LDBC's BFS): no --parents"));
  }
  if (R.o.ldbc && !R.o.has_source && R.o.ldbc_has_bfs_source) R.o.has_source = true, R.o.source = R.o.ldbc_bfs_source;
  if (!R.o.has_source) return run_end(&R, k2_cli_error(&R.o, K2_CLI_USAGE, "--source S is required"));
  GrB_Index src = 0;
  if ((rc = run_check_source(&R, R.o.source, &src)) != 0) return run_end(&R, rc);
  K2_BfsMode mode = strcmp(R.o.mode, "push") == 0 ? K2_BFS_PUSH : strcmp(R.o.mode, "pull") == 0 ? K2_BFS_PULL : K2_BFS_AUTO;
  GrB_Vector level = NULL, parent = NULL;
  GrB_Info info = GrB_SUCCESS;
  double t0;
  for (int k = 0; k < R.o.trials && info == GrB_SUCCESS; k++) {
    GrB_free(&level);
    GrB_free(&parent);
    t0 = k2_cli_now();
    info = R.graph ? K2_bfs_mode_graph(&level, &parent, R.graph, src, mode, R.msg)
                   : K2_bfs_mode_k2(&level, &parent, R.A, src, mode, R.msg);
    R.times[k] = k2_cli_now() - t0;
  }
  if (info != GrB_SUCCESS) return run_end(&R, run_alg_error(&R, info));
  // a search that reaches few vertices runs no product: row queries on the host
  const char *engine = K2_last_path() == K2_PATH_NONE ? "none (row queries)" : k2_cli_engine();
  run_report_source(&R, level, "max_level", R.o.trials, engine);
  if (R.o.check) {
    GrB_Vector l2 = NULL;
    t0 = k2_cli_now();
    info = K2_bfs_mode_grb(&l2, NULL, R.G, src, mode, R.msg);
    double t2 = k2_cli_now() - t0;
    rc = info == GrB_SUCCESS ? 0 : run_alg_error(&R, info);
    int64_t *a = k2_cli_dense_i64(level, R.n, -1), *b = l2 ? k2_cli_dense_i64(l2, R.n, -1) : NULL;
    int64_t *p = k2_cli_dense_i64(parent, R.n, -1);
    bool same = a && b && p, valid = same;
    for (GrB_Index i = 0; same && i < R.n; i++) same = a[i] == b[i];
    // every parent is an in-neighbour one level up; the source is its own parent
    for (GrB_Index i = 0; valid && i < R.n; i++) {
      if (p[i] < 0) continue;
      bool edge = false;
      if (i == src) valid = p[i] == (int64_t)i;
      else valid = K2_Matrix_isEntry(&edge, R.A, (GrB_Index)p[i], i) == GrB_SUCCESS && edge && a[p[i]] == a[i] - 1;
    }
    k2_cli_rep_num(&R.r, "suitesparse_seconds", "%.6f", t2);
    k2_cli_rep_raw(&R.r, "levels_identical", same ? "yes" : "NO", same ? "true" : "false");
    k2_cli_rep_raw(&R.r, "parents_valid", valid ? "yes" : "NO", valid ? "true" : "false");
    run_report_check(&R, rc == 0 && same && valid);
    if (rc == 0 && !(same && valid)) rc = K2_CLI_FAIL, R.disagree = true;
    free(a), free(b), free(p);
    GrB_free(&l2);
  }
  if (rc == 0 && R.o.out && R.o.ldbc) rc = k2_cli_write_ldbc(&R.o, level, R.n, K2_CLI_LDBC_BFS);
  else if (rc == 0 && R.o.out) rc = k2_cli_write_vector(&R.o, R.o.parents ? parent : level, NULL, R.o.parents);
  GrB_free(&level);
  GrB_free(&parent);
  return run_end(&R, rc);
}

//==============================================================================================
// msbfs
//==============================================================================================

// Lines "vertex d1 ... dB" (-1: unreachable) for the vertices reached from some source.
static int write_msbfs(const k2_cli_opts *o, GrB_Matrix D, GrB_Index ns) {
  k2_cli_out out;
  int rc = k2_cli_out_open(o, &out);
  if (rc != 0) return rc;
  FILE *f = out.f;
  GrB_Index nv = 0;
  GrB_Matrix_nvals(&nv, D);
  GrB_Index *I = malloc((nv + 1) * sizeof(GrB_Index)), *J = malloc((nv + 1) * sizeof(GrB_Index));
  int64_t *X = malloc((nv + 1) * sizeof(int64_t)), *row = malloc(ns * sizeof(int64_t));
  if (!I || !J || !X || !row || GrB_Matrix_extractTuples_INT64(I, J, X, &nv, D) != GrB_SUCCESS) {
    rc = k2_cli_error(o, K2_CLI_FAIL, "cannot extract the result");
  }
  // tuples come by row (D is held by row), columns ascending
  for (GrB_Index k = 0; rc == 0 && k < nv;) {
    GrB_Index i = I[k];
    for (GrB_Index b = 0; b < ns; b++) row[b] = -1;
    for (; k < nv && I[k] == i; k++) row[J[k]] = X[k];
    fprintf(f, "%llu", k2_cli_file_id(o, i));
    for (GrB_Index b = 0; b < ns; b++) fprintf(f, " %lld", (long long)row[b]);
    fputc('\n', f);
  }
  free(I), free(J), free(X), free(row);
  return k2_cli_out_close(o, &out, rc);
}

int k2grb_msbfs(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb msbfs FILE --sources S1,S2,... [--reverse] [--out F] [options]\n"
      "Hop distances from up to 256 sources at once: one batched Boolean product per level.\n"
      "  --sources L    comma-separated source vertices (ids as --source)\n"
      "  --reverse      against the edges (distance from each vertex to the sources)\n"
      "  --out F        lines 'vertex d1 d2 ... dB' (-1: unreachable) for the vertices reached\n"
      "                 from at least one source (F = - for stdout)\n" K2_CLI_COMMON_HELP;
  k2_cli_run R;
  int rc = run_begin(&R, "msbfs", K2_CLI_READ_OPTS " --sources --reverse --out --check --json", usage, argc, argv);
  if (rc >= 0) return rc;
  if (R.o.nsources == 0) return run_end(&R, k2_cli_error(&R.o, K2_CLI_USAGE, "--sources S1,S2,... is required"));
  GrB_Index src[K2_CLI_MAX_SOURCES];
  for (int b = 0; b < R.o.nsources; b++) {
    if ((rc = run_check_source(&R, R.o.sources[b], &src[b])) != 0) return run_end(&R, rc);
  }
  GrB_Matrix D = NULL;
  GrB_Info info = GrB_SUCCESS;
  double t0;
  for (int k = 0; k < R.o.trials && info == GrB_SUCCESS; k++) {
    GrB_free(&D);
    t0 = k2_cli_now();
    info = R.graph ? K2_msbfs_graph(&D, R.graph, src, (GrB_Index)R.o.nsources, R.o.reverse, R.msg)
                   : K2_msbfs_k2(&D, R.A, src, (GrB_Index)R.o.nsources, R.o.reverse, R.msg);
    R.times[k] = k2_cli_now() - t0;
  }
  if (info != GrB_SUCCESS) return run_end(&R, run_alg_error(&R, info));
  const char *engine = k2_cli_engine();
  GrB_Index pairs = 0;
  int64_t depth = 0;
  GrB_Matrix_nvals(&pairs, D);
  GrB_reduce(&depth, NULL, GrB_MAX_MONOID_INT64, D, NULL);
  k2_cli_rep_num(&R.r, "sources", "%d", R.o.nsources);
  k2_cli_rep_raw(&R.r, "direction", R.o.reverse ? "against the edges" : "along the edges",
                 R.o.reverse ? "\"reverse\"" : "\"forward\"");
  k2_cli_rep_num(&R.r, "reached_pairs", "%llu", (unsigned long long)pairs);
  k2_cli_rep_num(&R.r, "max_distance", "%lld", (long long)depth);
  run_report_time(&R, R.o.trials, engine);
  rc = 0;
  if (R.o.check) {
    GrB_Matrix D2 = NULL;
    t0 = k2_cli_now();
    info = K2_msbfs_grb(&D2, R.G, src, (GrB_Index)R.o.nsources, R.o.reverse, R.msg);
    double t2 = k2_cli_now() - t0;
    bool same = false;
    if (info == GrB_SUCCESS) {
      GrB_Index nv2 = 0;
      GrB_Matrix_nvals(&nv2, D2);
      GrB_Matrix E = NULL;
      GrB_Index ne = 0;
      // equal patterns and values: the intersection with EQ holds every entry of both
      if (nv2 == pairs && GrB_Matrix_new(&E, GrB_BOOL, R.n, (GrB_Index)R.o.nsources) == GrB_SUCCESS &&
          GrB_eWiseMult(E, NULL, NULL, GrB_EQ_INT32, D, D2, NULL) == GrB_SUCCESS &&
          GrB_Matrix_select_BOOL(E, NULL, NULL, GrB_VALUEEQ_BOOL, E, true, NULL) == GrB_SUCCESS &&
          GrB_Matrix_nvals(&ne, E) == GrB_SUCCESS) {
        same = ne == pairs;
      }
      GrB_free(&E);
    } else {
      rc = run_alg_error(&R, info);
    }
    k2_cli_rep_num(&R.r, "suitesparse_seconds", "%.6f", t2);
    k2_cli_rep_raw(&R.r, "distances_identical", same ? "yes" : "NO", same ? "true" : "false");
    run_report_check(&R, rc == 0 && same);
    if (rc == 0 && !same) rc = K2_CLI_FAIL, R.disagree = true;
    GrB_free(&D2);
  }
  if (rc == 0 && R.o.out) rc = write_msbfs(&R.o, D, (GrB_Index)R.o.nsources);
  GrB_free(&D);
  return run_end(&R, rc);
}

//==============================================================================================
// pagerank
//==============================================================================================

typedef struct {
  double r;
  GrB_Index v;
} k2_cli_ranked;

static int cmp_ranked(const void *a, const void *b) {
  const k2_cli_ranked *x = a, *y = b;
  if (x->r != y->r) return x->r > y->r ? -1 : 1;
  return x->v < y->v ? -1 : x->v > y->v;
}

// The words of the PageRank model the options ask for, as in error lines.
static const char *pagerank_words(const k2_cli_run *R) {
  return R->o.ldbc_iterations ? "PageRank (LDBC)" : R->o.gap ? "PageRank (GAP)" : "PageRank";
}

// After K2_Graph_new (info): the graph's out-degrees, computed once; *seconds: new and degrees.
// Returns 0 or the exit code of a failure (the graph freed, unless it is the run's own).
static int pagerank_degrees(k2_cli_run *R, K2_Graph graph, GrB_Info info, double *seconds) {
  double t0 = k2_cli_now();
  if (info != GrB_SUCCESS) return run_alg_error(R, info);
  K2_error_clear();
  if ((info = K2_Graph_cachedOutDegree(graph, NULL)) != GrB_SUCCESS) {
    if (graph != R->graph) K2_Graph_free(&graph, NULL);
    return k2_cli_fail(&R->o, K2_CLI_FAIL, info, K2_error_string(), "%s: computing the out-degrees",
                       pagerank_words(R));
  }
  *seconds = k2_cli_now() - t0;
  return 0;
}

// One run of the model the options ask for, on a graph with cached out-degrees.
static GrB_Info pagerank_run(k2_cli_run *R, GrB_Vector *rank, int *iters, K2_Graph graph) {
  if (R->o.ldbc_iterations) {
    *iters = R->o.ldbc_iterations;
    return K2_pagerank_ldbc_graph(rank, graph, R->o.damping, R->o.ldbc_iterations, R->msg);
  }
  float damping = (float)R->o.damping, tol = (float)R->o.tol;
  if (R->o.gap) return K2_pagerank_gap_graph(rank, iters, graph, damping, tol, R->o.itermax, R->msg);
  return K2_pagerank_graph(rank, iters, graph, damping, tol, R->o.itermax, R->msg);
}

int k2grb_pagerank(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb pagerank FILE [--top K] [--gap | --ldbc-iterations N] [--out F] [options]\n"
      "PageRank as LAGraph's LAGr_PageRank (FP32; rank of sinks spread evenly; stops when the\n"
      "sum of changes is at most tol), or the GAP variant (no sink term), or the LDBC\n"
      "Graphalytics variant (FP64, a fixed number of iterations).\n"
      "  --top K        print the K highest ranks (10)\n"
      "  --damping D    0.85    --tol T   1e-4    --itermax N   100\n"
      "  --gap          LAGr_PageRankGAP\n"
      "  --ldbc-iterations N   LDBC Graphalytics PageRank with N iterations\n"
      "The out-degrees are computed once, before the trials (out_degree_seconds); seconds is\n"
      "PageRank's time with them.\n" K2_CLI_OUT_HELP K2_CLI_LDBC_HELP K2_CLI_COMMON_HELP;
  k2_cli_run R;
  int rc = run_begin(&R,
                     "pagerank",
                     K2_CLI_READ_OPTS " --top --gap --ldbc-iterations --damping --tol --itermax --out --check --json --ldbc --vertices",
                     usage, argc, argv);
  if (rc >= 0) return rc;
  if (R.o.gap && R.o.ldbc_iterations) {
    return run_end(&R, k2_cli_error(&R.o, K2_CLI_USAGE, "--gap and --ldbc-iterations exclude each other"));
  }
  if (R.o.ldbc) {
    if (R.o.gap) return run_end(&R, k2_cli_error(&R.o, K2_CLI_USAGE, "--ldbc runs LDBC's PageRank: no --gap"));
    if (R.o.ldbc_iterations == 0) R.o.ldbc_iterations = R.o.ldbc_iterations_prop;
    if (R.o.ldbc_iterations == 0) {
      return run_end(&R, k2_cli_error(&R.o, K2_CLI_USAGE,
                                      "--ldbc: give --ldbc-iterations N (no pr.num-iterations in %s)",
                                      R.o.ldbc_has_props ? R.o.ldbc_ppath : "a .properties file beside the edges"));
    }
    if (!R.o.has_damping && R.o.ldbc_has_damping) R.o.damping = R.o.ldbc_damping;
    k2_cli_rep_num(&R.r, "damping", "%.15g", R.o.damping);
  }
  if (R.n == 0) return run_end(&R, k2_cli_error(&R.o, K2_CLI_FAIL, "the graph has no vertices"));
  const char *model = R.o.ldbc_iterations ? "ldbc" : R.o.gap ? "gap" : "lagraph";
  GrB_Vector rank = NULL, rank2 = NULL;
  int iters = 0, iters2 = 0;
  double t2 = 0;
  // the tree as a graph whose out-degrees are computed once, before the trials (it takes R.A),
  // or the run's graph (--locality-order)
  K2_Graph graph = R.graph;
  K2_GraphKind kind = R.o.symmetrize ? K2_ADJACENCY_UNDIRECTED : K2_ADJACENCY_DIRECTED;
  double t0, tdeg;
  GrB_Info info = graph != NULL ? GrB_SUCCESS : K2_Graph_new(&graph, &R.A, kind, R.msg);
  if ((rc = pagerank_degrees(&R, graph, info, &tdeg)) != 0) return run_end(&R, rc);
  for (int k = 0; k < R.o.trials && info == GrB_SUCCESS; k++) {
    GrB_free(&rank);
    t0 = k2_cli_now();
    info = pagerank_run(&R, &rank, &iters, graph);
    R.times[k] = k2_cli_now() - t0;
  }
  const char *engine = k2_cli_engine();
  if (graph != R.graph) K2_Graph_free(&graph, NULL);
  if (info != GrB_SUCCESS) return run_end(&R, run_alg_error(&R, info));
  k2_cli_rep_str(&R.r, "model", "%s", model);
  k2_cli_rep_num(&R.r, "iterations", "%d", iters);
  k2_cli_rep_num(&R.r, "out_degree_seconds", "%.6f", tdeg);
  run_report_time(&R, R.o.trials, engine);
  double *r = k2_cli_dense_f64(rank, R.n, 0);
  rc = r ? 0 : k2_cli_error(&R.o, K2_CLI_FAIL, "out of memory");
  if (rc == 0 && R.o.check) {
    // SuiteSparse the same way: a graph (taking R.G) with its out-degrees computed untimed
    double tdeg2;
    info = K2_Graph_new(&graph, &R.G, kind, R.msg);
    if ((rc = pagerank_degrees(&R, graph, info, &tdeg2)) != 0) {
      free(r);
      GrB_free(&rank);
      return run_end(&R, rc);
    }
    t0 = k2_cli_now();
    info = pagerank_run(&R, &rank2, &iters2, graph);
    t2 = k2_cli_now() - t0;
    K2_Graph_free(&graph, NULL);
    double *r2 = info == GrB_SUCCESS ? k2_cli_dense_f64(rank2, R.n, 0) : NULL, diff = INFINITY;
    if (r2 != NULL) {
      diff = 0;
      for (GrB_Index i = 0; i < R.n; i++) diff = fmax(diff, fabs(r[i] - r2[i]));
    }
    bool ok = diff <= (R.o.ldbc_iterations ? 1e-12 : K2_CLI_PAGERANK_AGREE) && iters == iters2;
    k2_cli_rep_num(&R.r, "suitesparse_seconds", "%.6f", t2);
    k2_cli_rep_num(&R.r, "suitesparse_iterations", "%d", iters2);
    k2_cli_rep_num(&R.r, "max_abs_diff", "%.3e", diff);
    run_report_check(&R, info == GrB_SUCCESS && ok);
    if (info != GrB_SUCCESS) rc = run_alg_error(&R, info);
    else if (!ok) rc = K2_CLI_FAIL, R.disagree = true;
    free(r2);
  }
  if (r != NULL && R.o.top > 0) {
    k2_cli_ranked *v = malloc(R.n * sizeof(k2_cli_ranked));
    if (v != NULL) {
      for (GrB_Index i = 0; i < R.n; i++) v[i] = (k2_cli_ranked){r[i], i};
      qsort(v, R.n, sizeof *v, cmp_ranked);
      GrB_Index k = (GrB_Index)R.o.top < R.n ? (GrB_Index)R.o.top : R.n;
      char *json = NULL, *text = NULL;
      size_t jl = 0, tl = 0;
      FILE *jf = open_memstream(&json, &jl), *tf = open_memstream(&text, &tl);
      fprintf(jf, "[");
      for (GrB_Index i = 0; i < k; i++) {
        fprintf(jf, "%s{\"vertex\": %llu, \"rank\": %.9g}", i ? ", " : "", k2_cli_file_id(&R.o, v[i].v), v[i].r);
        fprintf(tf, "%s%llu:%.6g", i ? " " : "", k2_cli_file_id(&R.o, v[i].v), v[i].r);
      }
      fprintf(jf, "]");
      fclose(jf);
      fclose(tf);
      k2_cli_rep_raw(&R.r, "top", text, json);
      free(json), free(text), free(v);
    }
  }
  free(r);
  if (rc == 0 && R.o.out && R.o.ldbc) rc = k2_cli_write_ldbc(&R.o, rank, R.n, K2_CLI_LDBC_PR);
  else if (rc == 0 && R.o.out) rc = k2_cli_write_vector(&R.o, rank, R.o.ldbc_iterations ? "%.15e" : "%.9g", false);
  GrB_free(&rank);
  GrB_free(&rank2);
  return run_end(&R, rc);
}

//==============================================================================================
// sssp and cc
//==============================================================================================

// Compare two integer vectors entry by entry.
static bool same_vectors(GrB_Vector a, GrB_Vector b, GrB_Index n) {
  int64_t *x = k2_cli_dense_i64(a, n, -1), *y = k2_cli_dense_i64(b, n, -1);
  bool same = x && y;
  for (GrB_Index i = 0; same && i < n; i++) same = x[i] == y[i];
  free(x), free(y);
  return same;
}

int k2grb_sssp(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb sssp FILE --source S [--out F] [options]\n"
      "Hop-count shortest paths from S (Bellman-Ford with unit weights by min-plus products).\n"
      "  --source S     source vertex (0-based unless --one-based; a file id with --remap)\n" K2_CLI_OUT_HELP K2_CLI_LDBC_HELP K2_CLI_COMMON_HELP;
  k2_cli_run R;
  int rc = run_begin(&R, "sssp", K2_CLI_READ_OPTS " --source --out --check --json --ldbc --vertices", usage, argc, argv);
  if (rc >= 0) return rc;
  if (R.o.ldbc && !R.o.has_source && R.o.ldbc_has_sssp_source) R.o.has_source = true, R.o.source = R.o.ldbc_sssp_source;
  if (R.o.ldbc && R.o.ldbc_weighted) {
    // the tree holds the pattern only: LDBC's weighted distances are not what this computes
    fprintf(stderr, "k2grb sssp: note: the weights of %s are ignored: the distances are hop counts\n", R.o.files[0]);
  }
  if (R.o.ldbc) {
    k2_cli_rep_raw(&R.r, "distances", R.o.ldbc_weighted ? "hops (the edge weights are ignored)" : "hops",
                   R.o.ldbc_weighted ? "\"hops, weights ignored\"" : "\"hops\"");
  }
  if (!R.o.has_source) return run_end(&R, k2_cli_error(&R.o, K2_CLI_USAGE, "--source S is required"));
  GrB_Index src = 0;
  if ((rc = run_check_source(&R, R.o.source, &src)) != 0) return run_end(&R, rc);
  GrB_Vector d = NULL, d2 = NULL;
  GrB_Info info = GrB_SUCCESS;
  double t0;
  for (int k = 0; k < R.o.trials && info == GrB_SUCCESS; k++) {
    GrB_free(&d);
    t0 = k2_cli_now();
    info = R.graph ? K2_sssp_hops_graph(&d, R.graph, src, R.msg) : K2_sssp_hops_k2(&d, R.A, src, R.msg);
    R.times[k] = k2_cli_now() - t0;
  }
  if (info != GrB_SUCCESS) return run_end(&R, run_alg_error(&R, info));
  // a source that reaches few vertices, or whose rounds all stay small, runs no product
  const char *engine = K2_last_path() == K2_PATH_NONE ? "none (row queries)" : k2_cli_engine();
  run_report_source(&R, d, "max_distance", R.o.trials, engine);
  rc = 0;
  if (R.o.check) {
    t0 = k2_cli_now();
    info = K2_sssp_hops_grb(&d2, R.G, src, R.msg);
    double t2 = k2_cli_now() - t0;
    bool same = info == GrB_SUCCESS && same_vectors(d, d2, R.n);
    k2_cli_rep_num(&R.r, "suitesparse_seconds", "%.6f", t2);
    k2_cli_rep_raw(&R.r, "distances_identical", same ? "yes" : "NO", same ? "true" : "false");
    run_report_check(&R, same);
    if (info != GrB_SUCCESS) rc = run_alg_error(&R, info);
    else if (!same) rc = K2_CLI_FAIL, R.disagree = true;
  }
  if (rc == 0 && R.o.out && R.o.ldbc) rc = k2_cli_write_ldbc(&R.o, d, R.n, K2_CLI_LDBC_SSSP);
  else if (rc == 0 && R.o.out) rc = k2_cli_write_vector(&R.o, d, NULL, false);
  GrB_free(&d);
  GrB_free(&d2);
  return run_end(&R, rc);
}

int k2grb_cc(int argc, char **argv) {
  static const char usage[] =
      "usage: k2grb cc FILE [--out F] [options]\n"
      "Weakly connected components (min-label propagation over both edge directions of the\n"
      "same tree); --out writes 'vertex component' with the smallest vertex id of each component.\n"
      K2_CLI_OUT_HELP K2_CLI_LDBC_HELP K2_CLI_COMMON_HELP;
  k2_cli_run R;
  int rc = run_begin(&R, "cc", K2_CLI_READ_OPTS " --out --check --json --ldbc --vertices", usage, argc, argv);
  if (rc >= 0) return rc;
  GrB_Vector c = NULL, c2 = NULL;
  int rounds = 0;
  GrB_Info info = GrB_SUCCESS;
  double t0;
  for (int k = 0; k < R.o.trials && info == GrB_SUCCESS; k++) {
    GrB_free(&c);
    t0 = k2_cli_now();
    info = R.graph ? K2_wcc_graph(&c, &rounds, R.graph, R.msg) : K2_wcc_k2(&c, &rounds, R.A, R.msg);
    R.times[k] = k2_cli_now() - t0;
  }
  if (info != GrB_SUCCESS) return run_end(&R, run_alg_error(&R, info));
  const char *engine = k2_cli_engine();
  int64_t *lab = k2_cli_dense_i64(c, R.n, -1);
  GrB_Index *size = calloc(R.n + 1, sizeof(GrB_Index)), ncomp = 0, largest = 0;
  if (lab == NULL || size == NULL) {
    free(lab), free(size), GrB_free(&c);
    return run_end(&R, k2_cli_error(&R.o, K2_CLI_FAIL, "out of memory"));
  }
  for (GrB_Index i = 0; i < R.n; i++) {
    if (lab[i] == (int64_t)i) ncomp++;
    if (++size[lab[i]] > largest) largest = size[lab[i]];
  }
  free(lab), free(size);
  k2_cli_rep_num(&R.r, "components", "%llu", (unsigned long long)ncomp);
  k2_cli_rep_num(&R.r, "largest", "%llu", (unsigned long long)largest);
  k2_cli_rep_num(&R.r, "rounds", "%d", rounds);
  run_report_time(&R, R.o.trials, engine);
  rc = 0;
  if (R.o.check) {
    t0 = k2_cli_now();
    info = K2_wcc_grb(&c2, NULL, R.G, R.msg);
    double t2 = k2_cli_now() - t0;
    bool same = info == GrB_SUCCESS && same_vectors(c, c2, R.n);
    k2_cli_rep_num(&R.r, "suitesparse_seconds", "%.6f", t2);
    k2_cli_rep_raw(&R.r, "components_identical", same ? "yes" : "NO", same ? "true" : "false");
    run_report_check(&R, same);
    if (info != GrB_SUCCESS) rc = run_alg_error(&R, info);
    else if (!same) rc = K2_CLI_FAIL, R.disagree = true;
  }
  if (rc == 0 && R.o.out && R.o.ldbc) rc = k2_cli_write_ldbc(&R.o, c, R.n, K2_CLI_LDBC_WCC);
  else if (rc == 0 && R.o.out) rc = k2_cli_write_vector(&R.o, c, NULL, true);
  GrB_free(&c);
  GrB_free(&c2);
  return run_end(&R, rc);
}
