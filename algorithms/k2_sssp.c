// k2_sssp.c: K2_sssp_hops_grb / K2_sssp_hops_k2 from one template, k2_sssp.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_sssp.inc"
#include "k2_alg_instantiate.h"
