// test_real_sizes.c: every real graph of the data folder (tests/support/k2_real_graphs.c) as a
// tree of the default format: directory and top codes at most 5% of its signatures and leaves,
// the whole k²-tree never larger than a Boolean CSR, products equal across layouts. Skipped
// (77) where the data folder is absent.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>

#include "k2_aux_check.h"
#include "k2_real_graphs.h"
#include "k2_test.h"

static void test_real_graph_sizes(void **state) {
  (void)state;
  const char *dir = k2_real_graph_dir(K2_DATA_DIR);
  print_message("%-20s %10s %10s %8s %8s %10s %10s\n", "graph", "edges", "core B", "dir B",
                "top B", "k2 B", "bCSR B");
  size_t seen = 0;
  for (size_t f = 0; f < k2_real_graph_count; f++) {
    const k2_real_graph *g = &k2_real_graph_list[f];
    K2_Edges E;
    GrB_Info info = k2_real_graph_read(&E, dir, g);
    if (info == GrB_NO_VALUE) {
      print_message("%s: not in the data folder, skipped\n", g->name);
      continue;
    }
    K2_ASSERT_OK(info);
    seen++;
    K2_Matrix A = NULL;
    K2_ASSERT_OK(K2_Matrix_new(&A, E.nrows, E.ncols));
    K2_ASSERT_OK(K2_Matrix_build_32(A, E.I, E.J, E.nvals));
    k2_aux_check_budget(A, g->name);
    K2_MemoryUsage u;
    GrB_Index nr, nv;
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, A));
    K2_ASSERT_OK(K2_Matrix_nrows(&nr, A));
    K2_ASSERT_OK(K2_Matrix_nvals(&nv, A));
    const uint64_t k2 = u.tree + u.directory + u.top, bcsr = K2_csr_bytes(nr, nv, false);
    print_message("%-20s %10llu %10llu %8llu %8llu %10llu %10llu\n", g->name,
                  (unsigned long long)nv, (unsigned long long)k2_aux_core_bytes(&u),
                  (unsigned long long)u.directory, (unsigned long long)u.top,
                  (unsigned long long)k2, (unsigned long long)bcsr);
    if (k2 > bcsr) {
      print_error("%s: the k2-tree takes %llu bytes, a Boolean CSR %llu\n", g->name,
                  (unsigned long long)k2, (unsigned long long)bcsr);
      fail();
    }
    k2_aux_check_products(A, &E, g->name);
    K2_ASSERT_OK(K2_Matrix_free(&A));
    K2_Edges_free(&E);
  }
  assert_true(seen > 0);
}

int main(void) {
  k2_test_filter_from_env();
  if (k2_test_data_path("SOURCES.md") == NULL) {
    printf("data folder absent (%s): skipping\n", K2_DATA_DIR);
    return K2_TEST_SKIP;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_real_graph_sizes),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
