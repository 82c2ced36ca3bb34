// k2_gen.h: the synthetic graph generators (internal; docs/generators.md).
// SPDX-License-Identifier: Apache-2.0
//
// Behind K2_Gen_* and the parameter defaults (src/api/k2_generators.c), which check the
// pointers; the parameters' ranges are checked here. E is written only on success.
#ifndef K2_GEN_H
#define K2_GEN_H

#include <k2grb.h>

// Graph500's R-MAT parameters for a scale (a, b, c = .57, .19, .19, edge factor 16, permuted).
void k2_gen_rmat_default(K2_RmatParams *p, uint32_t scale);
// The web-like model's parameters, tuned to resemble cnr-2000.
void k2_gen_web_default(K2_WebParams *p);

GrB_Info k2_gen_rmat(K2_Edges *E, const K2_RmatParams *p);
GrB_Info k2_gen_grid2d(K2_Edges *E, uint32_t rows, uint32_t cols);
GrB_Info k2_gen_uniform(K2_Edges *E, GrB_Index n, GrB_Index m, uint64_t seed);
GrB_Info k2_gen_web(K2_Edges *E, GrB_Index n, const K2_WebParams *p);

#endif
