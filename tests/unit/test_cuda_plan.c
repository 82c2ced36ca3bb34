// test_cuda_plan.c: the CUDA engine's tile planner, without a device. A tree-only plan, one level
// or two per expand step, is replayed on the host with the expand kernels' index arithmetic
// (k2_cuda_plan_replay): every node of the last internal level must be reached once, with its
// Morton code, and no step may read or write past the buffers the plan sized, whichever rule cut
// the levels. Fused plans must need fewer launches and less scratch, and runs of whole subtrees
// fewer launches on R-MAT. Skipped in a build without CUDA.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>

#include "k2_oracle.h"
#include "cuda/k2_cuda_testing.h"
#include "matrix/k2_matrix.h"

// The planner is part of the CUDA engine: a build without CUDA has only the stub, which declines.
static void skip_without_planner(void) {
  if (k2_cuda_plan_replay(NULL, 16, false, K2_CUDA_PLAN_BEST, NULL, NULL) == K2_DECLINED) {
    print_message("built without CUDA: no planner to replay\n");
    skip();
  }
}

// Replay A's plan for tile M, fused or not, by a cutting rule; fails the test on a bad replay.
static uint64_t replay_steps(const k2_view *v, uint64_t M, bool fuse, k2_cuda_plan_rule rule,
                             uint64_t *scratch, const char *what) {
  uint64_t steps = 0;
  int rc = k2_cuda_plan_replay(v, M, fuse, rule, &steps, scratch);
  if (rc != 0) {
    print_error("%s, M %llu, fuse %d, rule %d: %s\n", what, (unsigned long long)M, (int)fuse,
                (int)rule, K2_error_string());
    fail();
  }
  return steps;
}

// Every rule's plan replays correctly; the engine's (BEST) has the fewer launches of the two
// rules; fused plans (greedy, and the engine's) need fewer launches and less scratch. verbose: print each tile
// size's launches and scratch bytes.
static void check_plans(const k2_coo_list *L, const K2_Format *fmt, const char *what, bool verbose) {
  K2_Matrix A = k2_test_matrix(L, fmt);
  K2_ASSERT_OK(k2_matrix_wait(A));
  k2_view v;
  k2_tree_view(&v, &A->tree, 1.0);
  const uint64_t tiles[] = {16, 64, 1000, UINT64_C(1) << 20};
  for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++) {
    uint64_t steps[2][3], scratch[2][3];  // [fused][rule]
    for (int fuse = 0; fuse < 2; fuse++)
      for (int rule = 0; rule < 3; rule++)
        steps[fuse][rule] = replay_steps(&v, tiles[t], fuse == 1, (k2_cuda_plan_rule)rule,
                                         &scratch[fuse][rule], what);
    char line[320];
    snprintf(line, sizeof line,
             "%s, M %llu: greedy %llu steps %llu scratch bytes, fused %llu steps %llu; whole "
             "subtrees %llu steps, fused %llu; engine's %llu steps %llu bytes, fused %llu, %llu",
             what, (unsigned long long)tiles[t], (unsigned long long)steps[0][1],
             (unsigned long long)scratch[0][1], (unsigned long long)steps[1][1],
             (unsigned long long)scratch[1][1], (unsigned long long)steps[0][2],
             (unsigned long long)steps[1][2], (unsigned long long)steps[0][0],
             (unsigned long long)scratch[0][0], (unsigned long long)steps[1][0],
             (unsigned long long)scratch[1][0]);
    if (verbose) print_message("%s\n", line);
    for (int fuse = 0; fuse < 2; fuse++) {
      const uint64_t fewer = steps[fuse][1] < steps[fuse][2] ? steps[fuse][1] : steps[fuse][2];
      if (steps[fuse][0] != fewer) {
        print_error("%s, M %llu, fuse %d: the engine's plan has %llu steps, the rules %llu and %llu\n",
                    what, (unsigned long long)tiles[t], fuse, (unsigned long long)steps[fuse][0],
                    (unsigned long long)steps[fuse][1], (unsigned long long)steps[fuse][2]);
        fail();
      }
    }
    // two levels or more below the top: a fused step replaces two, and a level is not stored
    if (v.n_internal > 0 && v.levels - v.top_level >= 3) {
      if (!(steps[1][1] < steps[0][1] && scratch[1][1] < scratch[0][1] &&
            steps[1][0] < steps[0][0] && scratch[1][0] < scratch[0][0])) {
        print_error("fused plans not smaller: %s\n", line);
        fail();
      }
    }
  }
  K2_Matrix_free(&A);
}

// Random matrices of several shapes, each leaf size, a narrow top (many levels below it, every
// pair fused) and a wide one (few or none); an odd number of levels below the top leaves one
// single step above the leaves.
static void test_random_plans(void **state) {
  (void)state;
  skip_without_planner();
  const uint64_t shapes[][3] = {{5000, 4000, 30000}, {3001, 2500, 20000}, {70000, 70000, 200000},
                                {7, 9, 20},          {65536, 65536, 2000}, {1, 1, 1}};
  k2_rng rng = {31};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++)
      for (int top = 0; top < 3; top++) {
        k2_coo_list L;
        k2_coo_random(&L, shapes[s][0], shapes[s][1], shapes[s][2], &rng);
        K2_Format fmt;
        K2_Format_default(&fmt);
        fmt.leaf_log = leaf_log;
        fmt.top_max_log = top == 0 ? 2 : top == 1 ? 5 : 16;
        fmt.directory_log = top == 0 ? 4 : 8;
        char what[96];
        snprintf(what, sizeof what, "%llux%llu leaf_log %u top_max %u",
                 (unsigned long long)shapes[s][0], (unsigned long long)shapes[s][1], leaf_log,
                 fmt.top_max_log);
        check_plans(&L, &fmt, what, false);
        k2_coo_free(&L);
      }
}

// A banded matrix: long runs of full blocks, so tiles end inside signature words as well as on
// their boundaries.
static void test_banded_plan(void **state) {
  (void)state;
  skip_without_planner();
  const uint64_t n = 40000;
  k2_coo_list L;
  k2_coo_alloc(&L, n, n, 5 * n);
  L.nvals = 0;  // filled below
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t d = 0; d < 5; d++)
      if (i + d < n) {
        L.I[L.nvals] = (uint32_t)i;
        L.J[L.nvals++] = (uint32_t)(i + d);
      }
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.top_max_log = 2;
  check_plans(&L, &fmt, "banded", true);
  k2_coo_free(&L);
}

// Permuted R-MAT (scale 16, 2^20 edges): the lower levels have few more nodes than the ones
// above, where the greedy cut leaves a remainder at every level. Runs of whole subtrees must
// need fewer launches at a small tile (M = 2^14: the last level, some 9 x 10^5 nodes, fills
// about 60 tiles).
static void test_rmat_plan(void **state) {
  (void)state;
  skip_without_planner();
  K2_RmatParams p;
  K2_RmatParams_default(&p, 16);
  K2_Edges E;
  K2_ASSERT_OK(K2_Gen_rmat(&E, &p));
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, E.nrows, E.ncols));
  K2_ASSERT_OK(K2_Matrix_build_32(A, E.I, E.J, E.nvals));
  K2_Edges_free(&E);
  K2_ASSERT_OK(k2_matrix_wait(A));
  k2_view v;
  k2_tree_view(&v, &A->tree, 1.0);
  const uint64_t M = UINT64_C(1) << 14;
  uint64_t steps[2][2];  // [fused][greedy, whole]
  for (int fuse = 0; fuse < 2; fuse++)
    for (int r = 0; r < 2; r++)
      steps[fuse][r] = replay_steps(&v, M, fuse == 1, r ? K2_CUDA_PLAN_WHOLE : K2_CUDA_PLAN_GREEDY,
                                    NULL, "rmat16");
  print_message("rmat16, M 2^14: greedy %llu steps, fused %llu; whole subtrees %llu, fused %llu\n",
                (unsigned long long)steps[0][0], (unsigned long long)steps[1][0],
                (unsigned long long)steps[0][1], (unsigned long long)steps[1][1]);
  assert_true(steps[0][1] < steps[0][0]);
  assert_true(steps[1][1] < steps[1][0]);
  K2_Matrix_free(&A);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_plans),
      cmocka_unit_test(test_banded_plan),
      cmocka_unit_test(test_rmat_plan),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
