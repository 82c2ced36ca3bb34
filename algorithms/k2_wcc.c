// k2_wcc.c: K2_wcc_grb / K2_wcc_k2 from one template, k2_wcc.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_wcc.inc"
#include "k2_alg_instantiate.h"
