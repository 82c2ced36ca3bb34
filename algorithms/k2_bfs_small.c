// k2_bfs_small.c: a BFS that reaches few vertices, by row queries on the host.
// SPDX-License-Identifier: Apache-2.0
#include "k2_alg_internal.h"

#define K2A_FN fn  // the entry point named in messages
#define K2A_FREE_ALL \
  do {               \
    GrB_free(&lv);   \
    GrB_free(&pv);   \
  } while (0)

GrB_Info k2_bfs_small(const char *fn, bool *done, GrB_Vector *level, GrB_Vector *parent, K2_Matrix A,
                      GrB_Index n, GrB_Index src, GrB_Type int_type, char *msg) {
  GrB_Vector lv = NULL, pv = NULL;
  const char *k2a_step = NULL;
  GrB_Index vert[K2A_BFS_SMALL_MAX], out[K2A_BFS_SMALL_MAX];
  int64_t lev[K2A_BFS_SMALL_MAX], par[K2A_BFS_SMALL_MAX];
  GrB_Index nv = 1, begin = 0, end = 1;
  vert[0] = src, lev[0] = 0, par[0] = (int64_t)src;
  *done = false;
  K2A_STEP("searching a small reach by row queries");
  for (int64_t k = 1; begin < end; k++, begin = end, end = nv) {
    for (GrB_Index f = begin; f < end; f++) {
      GrB_Index count = K2A_BFS_SMALL_MAX;
      bool more = false;
      K2A_TRY(K2_Matrix_rowNeighborsFirst(out, &count, &more, A, vert[f]));
      if (more) return GrB_SUCCESS;  // a row wider than the whole budget
      for (GrB_Index e = 0; e < count; e++) {
        bool seen = false;
        for (GrB_Index v = 0; v < nv && !seen; v++) seen = vert[v] == out[e];
        if (seen) continue;
        if (nv == K2A_BFS_SMALL_MAX) return GrB_SUCCESS;  // past the budget: not small
        vert[nv] = out[e], lev[nv] = k, par[nv] = (int64_t)vert[f];
        nv++;
      }
    }
  }
  K2A_STEP("building the results of a small reach");
  if (level != NULL) {
    K2A_TRY(GrB_Vector_new(&lv, int_type, n));
    K2A_TRY(GrB_Vector_build_INT64(lv, vert, lev, nv, GrB_FIRST_INT64));
  }
  if (parent != NULL) {
    K2A_TRY(GrB_Vector_new(&pv, int_type, n));
    K2A_TRY(GrB_Vector_build_INT64(pv, vert, par, nv, GrB_FIRST_INT64));
  }
  bool burble = false;
  if (K2_get_burble(&burble) == GrB_SUCCESS && burble)
    fprintf(stderr, "k2grb: %s: source %llu reaches %llu vertices: searched by row queries\n", fn,
            (unsigned long long)src, (unsigned long long)nv);
  if (level != NULL) *level = lv;
  if (parent != NULL) *parent = pv;
  *done = true;
  return GrB_SUCCESS;
}
