// k2_bfs.c: K2_bfs_grb / K2_bfs_k2 (and the _mode variants) from one template, k2_bfs.inc.
// SPDX-License-Identifier: Apache-2.0
#include "k2_alg_internal.h"

#define K2A_GRAPH GrB_Matrix
#define K2A_NAME(x) x##_grb
#include "k2_bfs.inc"
#undef K2A_GRAPH
#undef K2A_NAME

#define K2A_GRAPH K2_Matrix
#define K2A_NAME(x) x##_k2
#include "k2_bfs.inc"
#undef K2A_GRAPH
#undef K2A_NAME
