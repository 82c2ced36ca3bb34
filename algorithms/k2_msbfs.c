// k2_msbfs.c: K2_msbfs_grb / K2_msbfs_k2 from one template, k2_msbfs.inc.
// SPDX-License-Identifier: Apache-2.0
#define K2A_TEMPLATE "k2_msbfs.inc"
#include "k2_alg_instantiate.h"
