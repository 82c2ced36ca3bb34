// k2_wcc.c: K2_wcc_grb / K2_wcc_k2 from one template, k2_wcc.inc.
// SPDX-License-Identifier: Apache-2.0
#include "k2_alg_internal.h"

#define K2A_GRAPH GrB_Matrix
#define K2A_NAME(x) x##_grb
#include "k2_wcc.inc"
#undef K2A_GRAPH
#undef K2A_NAME

#define K2A_GRAPH K2_Matrix
#define K2A_NAME(x) x##_k2
#include "k2_wcc.inc"
#undef K2A_GRAPH
#undef K2A_NAME
