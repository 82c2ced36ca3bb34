// k2_bfs.c: K2_bfs_grb / K2_bfs_k2 (and the _mode variants) from one template, k2_bfs.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_bfs.inc"
#include "k2_alg_instantiate.h"
