// k2_generators.c: the public graph generators and their parameter defaults
// (include/k2grb/gen.h). Each checks its pointers, then calls the generator (src/io/k2_gen.c),
// which checks the parameters' ranges.
// SPDX-License-Identifier: Apache-2.0
#include <k2grb.h>

#include "io/k2_gen.h"
#include "util/k2_error.h"

void K2_RmatParams_default(K2_RmatParams *p, uint32_t scale) {
  if (p == NULL) return;
  k2_gen_rmat_default(p, scale);
}

void K2_WebParams_default(K2_WebParams *p) {
  if (p == NULL) return;
  k2_gen_web_default(p);
}

GrB_Info K2_Gen_rmat(K2_Edges *E, const K2_RmatParams *p) {
  if (E == NULL || p == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Gen_rmat: %s is NULL", E == NULL ? "E" : "p");
  return k2_gen_rmat(E, p);
}

GrB_Info K2_Gen_grid2d(K2_Edges *E, uint32_t rows, uint32_t cols) {
  if (E == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Gen_grid2d: E is NULL");
  return k2_gen_grid2d(E, rows, cols);
}

GrB_Info K2_Gen_uniform(K2_Edges *E, GrB_Index n, GrB_Index m, uint64_t seed) {
  if (E == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Gen_uniform: E is NULL");
  return k2_gen_uniform(E, n, m, seed);
}

GrB_Info K2_Gen_web(K2_Edges *E, GrB_Index n, const K2_WebParams *p) {
  if (E == NULL || p == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Gen_web: %s is NULL", E == NULL ? "E" : "p");
  return k2_gen_web(E, n, p);
}
