// k2_pagerank.c: K2_pagerank*_grb / K2_pagerank*_k2 (LAGraph, GAP, LDBC) from one template, k2_pagerank.inc.
// SPDX-License-Identifier: Apache-2.0
#include "k2_alg_internal.h"

#define K2A_GRAPH GrB_Matrix
#define K2A_NAME(x) x##_grb
#include "k2_pagerank.inc"
#undef K2A_GRAPH
#undef K2A_NAME

#define K2A_GRAPH K2_Matrix
#define K2A_NAME(x) x##_k2
#include "k2_pagerank.inc"
#undef K2A_GRAPH
#undef K2A_NAME
