// test_alg_messages.c: the messages of failing algorithms, on both storages. Bad arguments (a
// source out of range, a matrix that is not square, NULL pointers, bad parameters), a product
// that fails mid-run (strict mode on the CUDA engine where there is no device) and every
// allocation of SuiteSparse:GraphBLAS failing in turn: each failure returns its code, leaves the
// outputs NULL and writes a message in words (k2_message_rules.h) that starts with the
// algorithm's name and, for a failed step, says which.
// SPDX-License-Identifier: Apache-2.0
#include <stdatomic.h>

#include "alg_test_util.h"
#include "k2_message_rules.h"

//==============================================================================================
// GraphBLAS's allocator, failing on request
//==============================================================================================

// Allocations left before they fail; -1: never fail.
static atomic_long alg_budget = -1;

static bool alg_budget_take(void) {
  if (atomic_load(&alg_budget) < 0) return true;
  return atomic_fetch_sub(&alg_budget, 1) > 0;
}
static void *alg_malloc(size_t n) { return alg_budget_take() ? malloc(n) : NULL; }
static void *alg_calloc(size_t n, size_t s) { return alg_budget_take() ? calloc(n, s) : NULL; }
static void *alg_realloc(void *p, size_t n) { return alg_budget_take() ? realloc(p, n) : NULL; }

//==============================================================================================
// the algorithms behind one signature
//==============================================================================================

typedef enum {
  ALG_BFS, ALG_BFS_PUSH, ALG_BFS_PULL, ALG_MSBFS, ALG_MSBFS_REVERSE, ALG_PAGERANK,
  ALG_PAGERANK_GAP, ALG_PAGERANK_LDBC, ALG_SSSP, ALG_WCC, ALG_COUNT
} alg_kind;

static const char *const alg_fn[ALG_COUNT] = {
    "K2_bfs", "K2_bfs", "K2_bfs", "K2_msbfs", "K2_msbfs", "K2_pagerank", "K2_pagerank",
    "K2_pagerank_ldbc", "K2_sssp_hops", "K2_wcc"};

typedef struct {
  GrB_Index src;       // BFS, SSSP, MSBFS (the second source of two)
  GrB_Index nsources;  // MSBFS (2 unless told)
  float damping;       // PageRank (0.85 unless told)
  int itermax;         // PageRank (100 unless told; LDBC: the iterations)
  bool null_output;    // pass NULL for the (first) output
} alg_args;

static alg_args alg_default_args(void) { return (alg_args){0, 2, 0.85f, 100, false}; }

// Run algorithm a on G (k2 false) or K. *outputs_null: every output was NULL afterwards.
static GrB_Info alg_run(alg_kind a, bool k2, GrB_Matrix G, K2_Matrix K, alg_args x, char *msg,
                        bool *outputs_null) {
  GrB_Vector v1 = NULL, v2 = NULL;
  GrB_Matrix D = NULL;
  GrB_Vector *o1 = x.null_output ? NULL : &v1;
  int iters = 0;
  GrB_Index sources[2] = {0, x.src};
  GrB_Info info;
  K2_BfsMode mode = a == ALG_BFS_PUSH ? K2_BFS_PUSH : a == ALG_BFS_PULL ? K2_BFS_PULL : K2_BFS_AUTO;
  switch (a) {
    case ALG_BFS:
    case ALG_BFS_PUSH:
    case ALG_BFS_PULL:
      // levels and parents; null_output: neither (an error of its own)
      info = k2 ? K2_bfs_mode_k2(o1, x.null_output ? NULL : &v2, K, x.src, mode, msg)
                : K2_bfs_mode_grb(o1, x.null_output ? NULL : &v2, G, x.src, mode, msg);
      break;
    case ALG_MSBFS:
    case ALG_MSBFS_REVERSE:
      info = k2 ? K2_msbfs_k2(x.null_output ? NULL : &D, K, sources, x.nsources, a == ALG_MSBFS_REVERSE, msg)
                : K2_msbfs_grb(x.null_output ? NULL : &D, G, sources, x.nsources, a == ALG_MSBFS_REVERSE, msg);
      break;
    case ALG_PAGERANK:
      info = k2 ? K2_pagerank_k2(o1, &iters, K, x.damping, 1e-4f, x.itermax, msg)
                : K2_pagerank_grb(o1, &iters, G, x.damping, 1e-4f, x.itermax, msg);
      break;
    case ALG_PAGERANK_GAP:
      info = k2 ? K2_pagerank_gap_k2(o1, &iters, K, x.damping, 1e-4f, x.itermax, msg)
                : K2_pagerank_gap_grb(o1, &iters, G, x.damping, 1e-4f, x.itermax, msg);
      break;
    case ALG_PAGERANK_LDBC:
      info = k2 ? K2_pagerank_ldbc_k2(o1, K, x.damping, x.itermax, msg)
                : K2_pagerank_ldbc_grb(o1, G, x.damping, x.itermax, msg);
      break;
    case ALG_SSSP:
      info = k2 ? K2_sssp_hops_k2(o1, K, x.src, msg) : K2_sssp_hops_grb(o1, G, x.src, msg);
      break;
    default:
      info = k2 ? K2_wcc_k2(o1, &iters, K, msg) : K2_wcc_grb(o1, &iters, G, msg);
      break;
  }
  *outputs_null = v1 == NULL && v2 == NULL && D == NULL;
  GrB_free(&v1);
  GrB_free(&v2);
  GrB_free(&D);
  return info;
}

// A failure as the rules want it: code `want` (0: any error), outputs NULL, a message that starts
// with "fn: " and says more, and contains `words` (NULL: anything).
static void alg_expect(alg_kind a, bool k2, GrB_Matrix G, K2_Matrix K, alg_args x, GrB_Info want,
                       const char *words) {
  char msg[K2_MSG_LEN], why[512];
  memset(msg, 'x', sizeof msg);
  bool outputs_null = false;
  GrB_Info info = alg_run(a, k2, G, K, x, msg, &outputs_null);
  const char *variant = k2 ? "_k2" : "_grb";
  if (info >= GrB_SUCCESS || (want != GrB_SUCCESS && info != want)) {
    fail_msg("%s%s: got %s (%s), want %s", alg_fn[a], variant, K2_info_name(info),
             info == GrB_SUCCESS ? "" : msg, want ? K2_info_name(want) : "an error");
  }
  if (!outputs_null) fail_msg("%s%s: an output is not NULL after %s", alg_fn[a], variant, msg);
  if (!k2_message_ok(msg, info, why, sizeof why)) fail_msg("%s%s: %s", alg_fn[a], variant, why);
  size_t fl = strlen(alg_fn[a]);
  if (strncmp(msg, alg_fn[a], fl) != 0 || strncmp(msg + fl, ": ", 2) != 0 || strlen(msg) < fl + 6) {
    fail_msg("%s%s: message '%s' does not start with the name and say what failed", alg_fn[a], variant, msg);
  }
  if (words != NULL && strstr(msg, words) == NULL) {
    fail_msg("%s%s: message '%s' does not say '%s'", alg_fn[a], variant, msg, words);
  }
  // the same failure with msg NULL: no crash, the same code
  info = alg_run(a, k2, G, K, x, NULL, &outputs_null);
  assert_true(info < GrB_SUCCESS && outputs_null);
}

//==============================================================================================
// the graphs: 40 vertices, a ring with chords and a vertex without out-edges; and a 4 x 5 matrix
//==============================================================================================

static alg_graph g;
static GrB_Matrix G45;
static K2_Matrix K45;

// The main graph's pairs, for fresh trees with nothing cached.
static uint32_t pair_i[80], pair_j[80];
static GrB_Index npairs = 0;

static int graphs_setup(void **state) {
  if (k2_test_setup(state) != 0) return -1;
  npairs = 0;
  for (uint32_t i = 0; i < 39; i++) {
    pair_i[npairs] = i, pair_j[npairs++] = i + 1 == 39 ? 0 : i + 1;
    if (i % 5 == 0) pair_i[npairs] = i, pair_j[npairs++] = (i * 7 + 3) % 39;
  }
  pair_i[npairs] = 12, pair_j[npairs++] = 39;  // vertex 39: reached, no out-edges
  alg_graph_from_pairs(&g, 40, pair_i, pair_j, npairs);
  if (GrB_Matrix_new(&G45, GrB_BOOL, 4, 5) != GrB_SUCCESS) return -1;
  if (GrB_Matrix_setElement_BOOL(G45, true, 1, 4) != GrB_SUCCESS) return -1;
  if (K2_Matrix_new(&K45, 4, 5) != GrB_SUCCESS) return -1;
  const uint32_t i1 = 1, j4 = 4;
  if (K2_Matrix_build_32(K45, &i1, &j4, 1) != GrB_SUCCESS) return -1;
  return 0;
}

static int graphs_teardown(void **state) {
  alg_graph_free(&g);
  GrB_free(&G45);
  K2_Matrix_free(&K45);
  return k2_test_teardown(state);
}

//==============================================================================================
// tests
//==============================================================================================

static void test_bad_arguments(void **state) {
  (void)state;
  for (int k2 = 0; k2 < 2; k2++) {
    for (alg_kind a = 0; a < ALG_COUNT; a++) {
      alg_args x = alg_default_args();
      alg_expect(a, k2, G45, K45, x, GrB_DIMENSION_MISMATCH, "A is not square (4 x 5)");
      alg_expect(a, k2, NULL, NULL, x, GrB_NULL_POINTER, "A is NULL");
      x.null_output = true;
      alg_expect(a, k2, g.G, g.K, x, GrB_NULL_POINTER, "NULL");
      x = alg_default_args();
      if (a <= ALG_MSBFS_REVERSE || a == ALG_SSSP) {
        x.src = 40;
        alg_expect(a, k2, g.G, g.K, x, GrB_INVALID_INDEX, "vertex 40 ");
      }
      if (a == ALG_MSBFS || a == ALG_MSBFS_REVERSE) {
        x = alg_default_args();
        x.nsources = 0;
        alg_expect(a, k2, g.G, g.K, x, GrB_INVALID_VALUE, "nsources is 0");
        x.nsources = K2_MSBFS_MAX + 1;
        alg_expect(a, k2, g.G, g.K, x, GrB_INVALID_VALUE, "nsources is 257");
      }
      if (a >= ALG_PAGERANK && a <= ALG_PAGERANK_LDBC) {
        x = alg_default_args();
        x.damping = 2;
        alg_expect(a, k2, g.G, g.K, x, GrB_INVALID_VALUE, "damping");
      }
    }
    // PageRank that does not converge: its own code
    alg_args x = alg_default_args();
    x.itermax = 1;
    alg_expect(ALG_PAGERANK, k2, g.G, g.K, x, K2_CONVERGENCE_FAILURE, "did not converge within the 1 iterations");
  }
}

// A product that fails mid-run: strict mode on the CUDA engine without a device declines it.
static void test_failing_product(void **state) {
  (void)state;
  bool device = false;
  K2_ASSERT_OK(K2_Device_available(&device));
  if (device) {
    print_message("a CUDA device is present: strict mode cannot make the products fail, skipped\n");
    skip();
    return;
  }
  K2_Engine engine;
  K2_ASSERT_OK(K2_get_engine(&engine));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  K2_ASSERT_OK(K2_set_strict(true));
  // the step each one fails at: its first product of A
  static const char *const step[ALG_COUNT] = {
      "K2_bfs: computing the out-degrees: ",
      "K2_bfs: expanding the frontier along the edges (push): ",
      "K2_bfs: expanding the frontier against the edges (pull): ",
      "K2_msbfs: expanding the frontiers along the edges: ",
      "K2_msbfs: expanding the frontiers against the edges: ",
      "K2_pagerank: computing the out-degrees: ",
      "K2_pagerank: computing the out-degrees: ",
      "K2_pagerank_ldbc: computing the out-degrees: ",
      "K2_sssp_hops: relaxing the out-edges of the frontier: ",
      "K2_wcc: taking the smallest label of the neighbours: "};
  for (alg_kind a = 0; a < ALG_COUNT; a++) {
    // a fresh tree: nothing derived from it is cached yet (the degrees, for one), so the first
    // step that needs A runs a product (a K2_Matrix_dup would carry g.K's cached degrees over)
    K2_Matrix K = NULL;
    K2_ASSERT_OK(K2_Matrix_new(&K, 40, 40));
    K2_ASSERT_OK(K2_Matrix_build_32(K, pair_i, pair_j, npairs));
    alg_expect(a, true, NULL, K, alg_default_args(), GrB_NOT_IMPLEMENTED, step[a]);
    alg_expect(a, true, NULL, K, alg_default_args(), GrB_NOT_IMPLEMENTED, "the CUDA engine declined");
    K2_ASSERT_OK(K2_Matrix_free(&K));
  }
  K2_ASSERT_OK(K2_set_strict(false));
  K2_ASSERT_OK(K2_set_engine(engine));
}

// Every allocation of GraphBLAS failing in turn, from the first, until a run succeeds: each
// failure is reported as the rules want, at any step. A message the library left from an
// earlier, unrelated failure is not taken for this one's.
static void test_out_of_memory(void **state) {
  (void)state;
  GrB_Index sources[2] = {0, 7};
  for (int k2 = 0; k2 < 2; k2++) {
    for (alg_kind a = 0; a < ALG_COUNT; a++) {
      long k = 0;
      int failures = 0;
      char msg_last[K2_MSG_LEN] = "";
      for (;; k++) {
        if (k >= 100000) fail_msg("%s%s: still failing after %ld allocations: %s", alg_fn[a], k2 ? "_k2" : "_grb", k, msg_last);
        assert_int_equal(K2_Matrix_new(NULL, 1, 1), GrB_NULL_POINTER);  // an unrelated message
        char stale[512];
        snprintf(stale, sizeof stale, "%s", K2_error_string());
        assert_true(stale[0] != '\0');
        char msg[K2_MSG_LEN], why[512];
        bool outputs_null = false;
        alg_args x = alg_default_args();
        x.src = sources[1];
        atomic_store(&alg_budget, k);
        GrB_Info info = alg_run(a, k2, g.G, g.K, x, msg, &outputs_null);
        atomic_store(&alg_budget, -1);
        if (info == GrB_SUCCESS) break;
        snprintf(msg_last, sizeof msg_last, "%s", msg);
        failures++;
        const char *variant = k2 ? "_k2" : "_grb";
        if (!outputs_null) fail_msg("%s%s, allocation %ld fails: an output is not NULL", alg_fn[a], variant, k);
        if (!k2_message_ok(msg, info, why, sizeof why)) {
          fail_msg("%s%s, allocation %ld fails: %s", alg_fn[a], variant, k, why);
        }
        size_t fl = strlen(alg_fn[a]);
        if (strncmp(msg, alg_fn[a], fl) != 0 || strncmp(msg + fl, ": ", 2) != 0 || strstr(msg, stale) != NULL) {
          fail_msg("%s%s, allocation %ld fails (%s): message '%s'", alg_fn[a], variant, k, K2_info_name(info), msg);
        }
      }
      // the first allocation failing is a failure; a run that needs none would prove nothing
      assert_true(failures > 0);
      print_message("%s%s: %d runs with a failing allocation, each reported\n", alg_fn[a],
                    k2 ? "_k2" : "_grb", failures);
    }
  }
}

int main(void) {
  k2_test_filter_from_env();
  // GraphBLAS with the failing allocator, before K2_init (which then leaves it to us); one thread
  // so that the allocations come in the same order every run
  if (GxB_init(GrB_NONBLOCKING, alg_malloc, alg_calloc, alg_realloc, free) != GrB_SUCCESS) return 1;
  GxB_set(GxB_NTHREADS, 1);
  // no pool of freed blocks: every allocation reaches the allocator above
  int64_t no_pool[64] = {0};
  GxB_set(GxB_MEMORY_POOL, no_pool);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_arguments),
      cmocka_unit_test(test_failing_product),
      cmocka_unit_test(test_out_of_memory),
  };
  int rc = cmocka_run_group_tests(tests, graphs_setup, graphs_teardown);
  GrB_finalize();
  return rc;
}
