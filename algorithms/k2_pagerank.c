// k2_pagerank.c: K2_pagerank*_grb / K2_pagerank*_k2 (LAGraph, GAP, LDBC) from one template, k2_pagerank.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_pagerank.inc"
#include "k2_alg_instantiate.h"
